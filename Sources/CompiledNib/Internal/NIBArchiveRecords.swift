/// A validated objects-table record, kept compact for the parsed document.
struct NIBArchiveObjectRecord: Hashable, Sendable {
  var classIndex: UInt32
  var firstValue: UInt32
  var valueCount: UInt32

  var valueRange: Range<Int> { Int(firstValue)..<(Int(firstValue) + Int(valueCount)) }
}

/// A validated values-table record: the key, the type and the payload (never a copy of data bytes).
///
/// `payload` holds the sign-extended integer, the float's or double's bit pattern, the referenced object index, or
/// for data the absolute offset of the first byte (`length` is then the byte count).
struct NIBArchiveValueRecord: Hashable, Sendable {
  var payload: UInt64
  /// The index of the first key with this entry's key name (NIBA-009).
  var keyIndex: UInt32
  var length: UInt32
  var type: NIBArchiveValueType
}

/// Everything the reader validated, ready to become a ``NIBArchiveDocument``.
struct NIBArchiveTables: Sendable {
  var header: NIBArchiveHeader
  var classes: [NIBArchiveClass]
  var keys: [String]
  var keyIndexByName: [String: Int]
  var objects: [NIBArchiveObjectRecord]
  var values: [NIBArchiveValueRecord]
  /// One past the last byte of the table that ends furthest into the file.
  var endOfTables: Int
}
