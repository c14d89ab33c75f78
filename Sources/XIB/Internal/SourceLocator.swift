import ArchiveCoding

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Turns byte offsets into 1-based lines and columns and extracts the source line shown under a diagnostic.
///
/// Lines end at line feeds. Columns count Unicode scalars (UTF-8 lead bytes) from the start of the line, so a
/// multi-byte character is one column. A byte order mark at the start of the input is not a column.
struct SourceLocator {
  /// Where the input's text starts (3 after a UTF-8 byte order mark).
  let origin: Int
  private var offset: Int
  private var line = 1
  private var lineStart: Int
  /// The column of `offset`, so that the next target on the same line counts only the bytes in between: counting
  /// from the start of the line each time would take time quadratic in the length of a long line (a XIB written
  /// on one line).
  private var column = 1

  init(origin: Int) {
    self.origin = origin
    self.offset = origin
    self.lineStart = origin
  }

  /// The line, column and line-start offset of `target`. Cheap when targets come in increasing order.
  mutating func locate(_ target: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int, lineStart: Int)
  {
    let target = min(max(target, origin), bytes.count)
    if target < offset {
      offset = origin
      line = 1
      lineStart = origin
      column = 1
    }
    if let base = bytes.baseAddress {
      var index = offset
      while index < target {
        // memchr finds the next line feed far faster than a byte loop.
        guard let found = memchr(base + index, 0x0A, target - index) else { break }
        let newline = UnsafeRawPointer(found) - UnsafeRawPointer(base)
        line += 1
        lineStart = newline + 1
        index = newline + 1
      }
    }
    // Count columns from the last target when it is on the same line, else from the start of the line.
    var index = max(offset, lineStart)
    if lineStart > offset { column = 1 }
    while index < target {
      if bytes[index] & 0xC0 != 0x80 { column += 1 }
      index += 1
    }
    offset = target
    return (line, column, lineStart)
  }

  /// The longest column for which a source line is shown; past it the caret line would be unreadable.
  static let maximumCaretColumn = 1000
  /// How much of the line after the caret is shown, in bytes.
  static let lineTailBytes = 240

  /// The text of the line starting at `lineStart`, for display under a diagnostic whose caret is at `column`.
  ///
  /// Tabs become single spaces so that the caret, placed `column - 1` spaces in, lines up. Bytes that are not valid
  /// UTF-8 are shown as U+FFFD. Returns `nil` when the column is beyond ``maximumCaretColumn``.
  static func sourceLine(in bytes: UnsafeBufferPointer<UInt8>, lineStart: Int, column: Int) -> String? {
    guard column <= maximumCaretColumn, lineStart <= bytes.count else { return nil }
    var end = lineStart
    var scalars = 0
    var tail = 0
    while end < bytes.count {
      let byte = bytes[end]
      if byte == 0x0A || byte == 0x0D { break }
      if byte & 0xC0 != 0x80 { scalars += 1 }
      if scalars > column {
        tail += 1
        if tail > lineTailBytes && byte & 0xC0 != 0x80 { break }
      }
      end += 1
    }
    var lineBytes = Array(bytes[lineStart..<end])
    for index in lineBytes.indices where lineBytes[index] == 0x09 {
      lineBytes[index] = 0x20
    }
    return String(decoding: lineBytes, as: UTF8.self)
  }

  /// A compiler-style error at `target`.
  mutating func error(
    _ code: ArchiveError.Code, _ message: String, at target: Int, in bytes: UnsafeBufferPointer<UInt8>,
    fileName: String?
  ) -> ArchiveError {
    let position = locate(target, in: bytes)
    return ArchiveError(
      code, message,
      at: ArchiveError.Location(file: fileName, line: position.line, column: position.column),
      sourceLine: SourceLocator.sourceLine(in: bytes, lineStart: position.lineStart, column: position.column))
  }

  /// A compiler-style error at an element already read, found again from its byte offset.
  static func error(
    _ code: ArchiveError.Code, _ message: String, atByteOffset target: Int, in bytes: [UInt8], fileName: String?
  ) -> ArchiveError {
    bytes.withUnsafeBufferPointer { buffer in
      var locator = SourceLocator(origin: byteOrderMarkLength(buffer))
      return locator.error(code, message, at: target, in: buffer, fileName: fileName)
    }
  }

  /// 3 when the input starts with a UTF-8 byte order mark, else 0.
  static func byteOrderMarkLength(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { return 3 }
    return 0
  }
}
