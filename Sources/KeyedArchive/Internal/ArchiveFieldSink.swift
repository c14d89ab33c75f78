/// Where the fields of a Foundation object go while ``KeyedArchiver/foundationObject(className:chain:identity:_:)``
/// encodes it: each appended field is written at once into the archiver's binary writer, so no object keeps a list
/// of its fields. Append a field only after computing its value (a reference may encode a nested object first).
struct ArchiveFieldSink {
  let archiver: KeyedArchiver

  /// Writes one field of the object being encoded.
  func append(_ field: ArchiveField) {
    archiver.appendField(key: field.key, value: field.value)
  }
}
