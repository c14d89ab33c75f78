import ArchiveCoding
import Foundation

/// Reads property lists in either form, detected from the bytes.
public enum PropertyListReader {
  /// The form of a property list, judged from its first bytes, or `nil` when it is neither.
  public static func format(of data: Data) -> PropertyListFormat? {
    // Compared in place: `starts(with:)` on `Data` with a fresh array costs more than the rest of this check.
    if data.withUnsafeBytes(BinaryPropertyListReader.hasMagic) { return .binary }
    var prefix = data.prefix(512)
    if prefix.starts(with: [0xEF, 0xBB, 0xBF]) { prefix = prefix.dropFirst(3) }
    if prefix.starts(with: [0xFE, 0xFF]) || prefix.starts(with: [0xFF, 0xFE]) { return .xml }
    guard let first = prefix.first(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) else {
      return nil
    }
    return first == UInt8(ascii: "<") ? .xml : nil
  }

  /// Reads a property list, binary or XML.
  /// - Parameters:
  ///   - data: the bytes.
  ///   - options: limits for untrusted input.
  ///   - fileName: a name used in error locations.
  /// - Returns: the value.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` saying where the input broke and what was expected.
  public static func read(
    _ data: Data, options: PropertyListDecodingOptions = .default, fileName: String? = nil
  ) throws -> PropertyListValue {
    do {
      switch format(of: data) {
      case .binary:
        return try BinaryPropertyListReader(data, options: options).topValue()
      case .xml:
        return try XMLPropertyListReader.read(data, options: options, fileName: fileName)
      case nil:
        throw ArchiveError(
          .corruptData,
          data.isEmpty
            ? "expected a property list, found an empty input"
            : "expected a property list (\"bplist00\" or XML), found neither", at: .init(byteOffset: 0))
      }
    } catch let error as ArchiveError {
      throw error.located(in: .init(file: fileName))
    }
  }
}
