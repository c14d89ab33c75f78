import ArchiveCoding

extension ArchiveError {
  /// A structural error in NIBArchive bytes, located by byte offset and, when known, object.
  static func nibArchive(
    _ code: Code, _ message: String, byteOffset: Int?, objectIndex: Int? = nil, className: String? = nil,
    keyPath: String? = nil
  ) -> ArchiveError {
    ArchiveError(
      code, message,
      at: Location(byteOffset: byteOffset, objectIndex: objectIndex, className: className, keyPath: keyPath))
  }
}

/// Formats a byte for messages: `0x4E`.
func hexByte(_ byte: UInt8) -> String {
  let digits = String(byte, radix: 16, uppercase: true)
  return byte < 0x10 ? "0x0" + digits : "0x" + digits
}
