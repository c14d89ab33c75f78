import ArchiveCoding
import Foundation

/// Writes property lists in either form. Output is deterministic: the same value gives the same bytes.
public enum PropertyListWriter {
  /// Encodes a value.
  /// - Parameters:
  ///   - value: the value.
  ///   - format: binary (the default) or XML.
  /// - Returns: the encoded bytes.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` when the XML form cannot hold the value (a dictionary key that is not a
  ///   string).
  public static func write(_ value: PropertyListValue, format: PropertyListFormat = .binary) throws -> Data {
    switch format {
    case .binary: BinaryPropertyListWriter.write(value)
    case .xml: try XMLPropertyListWriter.write(value)
    }
  }
}
