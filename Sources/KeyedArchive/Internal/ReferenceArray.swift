import PropertyList

/// An inline array of references under a key of the object being decoded (`NS.keys`, `NS.objects`), read in place:
/// ``KeyedUnarchiver/reference(_:_:)`` checks each UID as it is read. Nested collections need no stack of copied
/// UIDs: the array's header stays valid while its elements are decoded, as the archive's bytes do not change.
struct ReferenceArray {
  let header: BinaryPropertyListReader.Header
  /// The key the array is under, for errors.
  let key: String

  /// The number of references (bounded by the array's bytes, which the reader checked fit in the file).
  var count: Int { header.count }
}
