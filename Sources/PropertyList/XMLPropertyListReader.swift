import ArchiveCoding
import Foundation

/// Reads XML property lists (`<plist version="1.0">`), including keyed-archiver UIDs written as
/// `<dict><key>CF$UID</key><integer>N</integer></dict>`.
///
/// A hand-written scanner over the UTF-8 bytes: no XML library, no entity expansion beyond the five predefined
/// entities and character references, no external resources. Errors carry the line and column
/// (`file:line:column: error: ...`) and the offending line.
package struct XMLPropertyListReader {
  private let bytes: [UInt8]
  private let options: PropertyListDecodingOptions
  private let fileName: String?
  private var position = 0
  private var depth = 0
  private var values = 0

  /// Parses `data` as an XML property list.
  /// - Parameters:
  ///   - data: the document's bytes (UTF-8, or UTF-16 with a byte-order mark).
  ///   - options: limits.
  ///   - fileName: a name for error locations.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` with line and column.
  package static func read(
    _ data: Data, options: PropertyListDecodingOptions = .default, fileName: String? = nil
  ) throws -> PropertyListValue {
    guard data.count <= options.maxTotalBytes else {
      throw ArchiveError(.limitExceeded, "input of \(data.count) bytes exceeds the limit of \(options.maxTotalBytes)")
    }
    var reader = XMLPropertyListReader(bytes: try Self.utf8Bytes(data), options: options, fileName: fileName)
    return try reader.readDocument()
  }

  private init(bytes: [UInt8], options: PropertyListDecodingOptions, fileName: String?) {
    self.bytes = bytes
    self.options = options
    self.fileName = fileName
  }

  private static func utf8Bytes(_ data: Data) throws -> [UInt8] {
    let raw = [UInt8](data)
    if raw.starts(with: [0xEF, 0xBB, 0xBF]) { return Array(raw.dropFirst(3)) }
    if raw.starts(with: [0xFE, 0xFF]) || raw.starts(with: [0xFF, 0xFE]) {
      let bigEndian = raw[0] == 0xFE
      guard raw.count % 2 == 0 else {
        throw ArchiveError(.corruptData, "UTF-16 document has an odd number of bytes", at: .init(byteOffset: raw.count))
      }
      var units: [UInt16] = []
      units.reserveCapacity(raw.count / 2 - 1)
      var i = 2
      while i + 1 < raw.count {
        units.append(bigEndian ? UInt16(raw[i]) << 8 | UInt16(raw[i + 1]) : UInt16(raw[i + 1]) << 8 | UInt16(raw[i]))
        i += 2
      }
      return Array(String(decoding: units, as: UTF16.self).utf8)
    }
    return raw
  }

  // MARK: Errors

  private func failure(
    _ message: String, at offset: Int? = nil, code: ArchiveError.Code = .corruptData
  )
    -> ArchiveError
  {
    let offset = min(offset ?? position, bytes.count)
    var line = 1
    var lineStart = 0
    for i in 0..<offset where bytes[i] == 0x0A {
      line += 1
      lineStart = i + 1
    }
    var lineEnd = lineStart
    while lineEnd < bytes.count, bytes[lineEnd] != 0x0A, bytes[lineEnd] != 0x0D { lineEnd += 1 }
    let column = String(decoding: bytes[lineStart..<offset], as: UTF8.self).count + 1
    let text = String(decoding: bytes[lineStart..<lineEnd], as: UTF8.self)
    return ArchiveError(
      code, message, at: .init(file: fileName ?? "<plist>", line: line, column: column, byteOffset: offset),
      sourceLine: text)
  }

  // MARK: Document

  private mutating func readDocument() throws -> PropertyListValue {
    try skipMisc()
    guard position < bytes.count else { throw failure("expected a property list, found the end of the input") }
    let start = position
    let tag = try readStartTag()
    let value: PropertyListValue
    if tag.name == "plist" {
      guard !tag.selfClosing else {
        throw failure("expected a value inside <plist>, found an empty element", at: start)
      }
      try skipMisc()
      value = try readValue()
      try skipMisc()
      try readEndTag("plist")
    } else {
      value = try readValue(startedBy: tag, at: start)
    }
    try skipMisc()
    guard position == bytes.count else { throw failure("expected the end of the document, found more content") }
    return value
  }

  /// Skips whitespace, comments, processing instructions and the DOCTYPE.
  private mutating func skipMisc() throws {
    while position < bytes.count {
      let byte = bytes[position]
      if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
        position += 1
      } else if matches("<?") {
        try skip(past: "?>", what: "processing instruction")
      } else if matches("<!--") {
        try skip(past: "-->", what: "comment")
      } else if matches("<!DOCTYPE") {
        try skipDoctype()
      } else {
        return
      }
    }
  }

  private mutating func skipDoctype() throws {
    let start = position
    var bracket = 0
    while position < bytes.count {
      switch bytes[position] {
      case UInt8(ascii: "["): bracket += 1
      case UInt8(ascii: "]"): bracket -= 1
      case UInt8(ascii: ">") where bracket <= 0:
        position += 1
        return
      default: break
      }
      position += 1
    }
    throw failure("unterminated DOCTYPE", at: start)
  }

  private func matches(_ literal: StaticString) -> Bool {
    let count = literal.utf8CodeUnitCount
    guard position + count <= bytes.count else { return false }
    return literal.withUTF8Buffer { buffer in
      for i in 0..<count where bytes[position + i] != buffer[i] { return false }
      return true
    }
  }

  private mutating func skip(past literal: StaticString, what: String) throws {
    let start = position
    while position < bytes.count {
      if matches(literal) {
        position += literal.utf8CodeUnitCount
        return
      }
      position += 1
    }
    throw failure("unterminated \(what)", at: start)
  }

  // MARK: Tags

  private struct StartTag {
    var name: String
    var selfClosing: Bool
  }

  private static func isNameByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"),
      UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: ":"):
      true
    default: byte >= 0x80
    }
  }

  private mutating func readName() throws -> String {
    let start = position
    while position < bytes.count, Self.isNameByte(bytes[position]) { position += 1 }
    guard position > start else {
      throw failure("expected an element name, found \(describeHere())")
    }
    return String(decoding: bytes[start..<position], as: UTF8.self)
  }

  private func describeHere() -> String {
    guard position < bytes.count else { return "the end of the input" }
    let byte = bytes[position]
    return byte >= 0x20 && byte < 0x7F ? "\"\(Character(Unicode.Scalar(byte)))\"" : String(format: "byte 0x%02X", byte)
  }

  private mutating func skipSpace() {
    while position < bytes.count,
      bytes[position] == 0x20 || bytes[position] == 0x09 || bytes[position] == 0x0A
        || bytes[position] == 0x0D
    {
      position += 1
    }
  }

  /// Reads `<name attr="…" …>` or `<name …/>`; attributes are checked for form and ignored.
  private mutating func readStartTag() throws -> StartTag {
    guard position < bytes.count, bytes[position] == UInt8(ascii: "<") else {
      throw failure("expected an element, found \(describeHere())")
    }
    position += 1
    let name = try readName()
    while true {
      skipSpace()
      guard position < bytes.count else { throw failure("unterminated <\(name)> tag") }
      let byte = bytes[position]
      if byte == UInt8(ascii: ">") {
        position += 1
        return StartTag(name: name, selfClosing: false)
      }
      if byte == UInt8(ascii: "/") {
        guard position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: ">") else {
          throw failure("expected \"/>\" to close <\(name)>")
        }
        position += 2
        return StartTag(name: name, selfClosing: true)
      }
      _ = try readName()
      skipSpace()
      guard position < bytes.count, bytes[position] == UInt8(ascii: "=") else {
        throw failure("expected \"=\" after an attribute name in <\(name)>, found \(describeHere())")
      }
      position += 1
      skipSpace()
      guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "'")
      else { throw failure("expected a quoted attribute value in <\(name)>, found \(describeHere())") }
      let quote = bytes[position]
      position += 1
      while position < bytes.count, bytes[position] != quote { position += 1 }
      guard position < bytes.count else { throw failure("unterminated attribute value in <\(name)>") }
      position += 1
    }
  }

  private mutating func readEndTag(_ name: String) throws {
    let start = position
    guard matches("</") else {
      throw failure("expected </\(name)>, found \(describeHere())")
    }
    position += 2
    let found = try readName()
    guard found == name else { throw failure("expected </\(name)>, found </\(found)>", at: start) }
    skipSpace()
    guard position < bytes.count, bytes[position] == UInt8(ascii: ">") else {
      throw failure("expected \">\" to close </\(name)>")
    }
    position += 1
  }

  // MARK: Values

  private mutating func readValue() throws -> PropertyListValue {
    let start = position
    let tag = try readStartTag()
    return try readValue(startedBy: tag, at: start)
  }

  private mutating func readValue(startedBy tag: StartTag, at start: Int) throws -> PropertyListValue {
    values += 1
    guard values <= options.maxExpandedValueCount else {
      throw failure("more than \(options.maxExpandedValueCount) values", at: start, code: .limitExceeded)
    }
    switch tag.name {
    case "true", "false":
      if !tag.selfClosing {
        try skipMisc()
        try readEndTag(tag.name)
      }
      return .bool(tag.name == "true")
    case "string":
      return .string(tag.selfClosing ? "" : try readText(closing: "string", limit: options.maxStringLength))
    case "integer":
      let text = tag.selfClosing ? "" : try readText(closing: "integer", limit: 256)
      return try parseInteger(text, at: start)
    case "real":
      let text = tag.selfClosing ? "" : try readText(closing: "real", limit: 256)
      return try parseReal(text, at: start)
    case "date":
      let text = tag.selfClosing ? "" : try readText(closing: "date", limit: 256)
      return try parseDate(text, at: start)
    case "data":
      let text = tag.selfClosing ? "" : try readText(closing: "data", limit: options.maxDataLength / 3 * 4 + 4096)
      let compact = text.filter { !$0.isWhitespace }
      guard let data = Data(base64Encoded: compact) else {
        throw failure("expected base64 in <data>, found characters that are not base64", at: start)
      }
      return .data(data)
    case "array":
      return .array(tag.selfClosing ? [] : try readElements(closing: "array", at: start))
    case "set":
      return .set(tag.selfClosing ? [] : try readElements(closing: "set", at: start))
    case "dict":
      return tag.selfClosing ? .dictionary(PropertyListDictionary()) : try readDictionary(at: start)
    case "key":
      throw failure("expected a value, found a <key> outside a dictionary", at: start)
    default:
      throw failure("unknown property list element <\(tag.name)>", at: start, code: .unsupportedFormat)
    }
  }

  private mutating func enterContainer(at start: Int) throws {
    depth += 1
    guard depth <= options.maxDepth else {
      throw failure("containers nest deeper than the limit of \(options.maxDepth)", at: start, code: .limitExceeded)
    }
  }

  private mutating func readElements(closing name: String, at start: Int) throws -> [PropertyListValue] {
    try enterContainer(at: start)
    defer { depth -= 1 }
    var elements: [PropertyListValue] = []
    while true {
      try skipMisc()
      if matches("</") {
        try readEndTag(name)
        return elements
      }
      guard elements.count < options.maxCollectionCount else {
        throw failure("more than \(options.maxCollectionCount) elements", at: start, code: .limitExceeded)
      }
      elements.append(try readValue())
    }
  }

  private mutating func readDictionary(at start: Int) throws -> PropertyListValue {
    try enterContainer(at: start)
    defer { depth -= 1 }
    var dictionary = PropertyListDictionary()
    while true {
      try skipMisc()
      if matches("</") {
        try readEndTag("dict")
        break
      }
      let keyStart = position
      let keyTag = try readStartTag()
      guard keyTag.name == "key" else {
        throw failure("expected <key> in a dictionary, found <\(keyTag.name)>", at: keyStart)
      }
      let key = keyTag.selfClosing ? "" : try readText(closing: "key", limit: options.maxStringLength)
      try skipMisc()
      guard !matches("</") else { throw failure("expected a value for the key \"\(key)\"") }
      guard dictionary.count < options.maxCollectionCount else {
        throw failure("more than \(options.maxCollectionCount) entries", at: start, code: .limitExceeded)
      }
      dictionary[key] = try readValue()
    }
    // A dictionary holding only CF$UID with an integer is a keyed-archiver UID.
    if dictionary.count == 1, case .integer(let uid)? = dictionary["CF$UID"], uid >= 0 {
      return .uid(UInt64(uid))
    }
    return .dictionary(dictionary)
  }

  /// Reads character data up to `</name>`, resolving entities, character references and CDATA sections.
  private mutating func readText(closing name: String, limit: Int) throws -> String {
    var out: [UInt8] = []
    let start = position
    while true {
      guard position < bytes.count else { throw failure("unterminated <\(name)>", at: start) }
      let byte = bytes[position]
      if byte == UInt8(ascii: "<") {
        if matches("<![CDATA[") {
          position += 9
          let cdataStart = position
          while position < bytes.count, !matches("]]>") { position += 1 }
          guard position < bytes.count else { throw failure("unterminated CDATA section", at: cdataStart) }
          out.append(contentsOf: bytes[cdataStart..<position])
          position += 3
        } else if matches("<!--") {
          try skip(past: "-->", what: "comment")
        } else {
          try readEndTag(name)
          break
        }
      } else if byte == UInt8(ascii: "&") {
        try readReference(into: &out)
      } else {
        out.append(byte)
        position += 1
      }
      guard out.count <= limit else {
        throw failure("<\(name)> text is longer than the limit of \(limit)", at: start, code: .limitExceeded)
      }
    }
    guard let text = String(validating: out, as: UTF8.self) else {
      throw failure("<\(name)> text is not valid UTF-8", at: start)
    }
    return text
  }

  private mutating func readReference(into out: inout [UInt8]) throws {
    let start = position
    position += 1
    let nameStart = position
    while position < bytes.count, bytes[position] != UInt8(ascii: ";"), position - nameStart < 12 { position += 1 }
    guard position < bytes.count, bytes[position] == UInt8(ascii: ";") else {
      throw failure("unterminated entity reference", at: start)
    }
    let name = String(decoding: bytes[nameStart..<position], as: UTF8.self)
    position += 1
    switch name {
    case "amp": out.append(UInt8(ascii: "&"))
    case "lt": out.append(UInt8(ascii: "<"))
    case "gt": out.append(UInt8(ascii: ">"))
    case "quot": out.append(UInt8(ascii: "\""))
    case "apos": out.append(UInt8(ascii: "'"))
    default:
      var scalar: UInt32?
      if name.hasPrefix("#x") || name.hasPrefix("#X") {
        scalar = UInt32(name.dropFirst(2), radix: 16)
      } else if name.hasPrefix("#") {
        scalar = UInt32(name.dropFirst(1), radix: 10)
      }
      guard let value = scalar, let unicode = Unicode.Scalar(value) else {
        throw failure("unknown entity \"&\(name);\"", at: start)
      }
      out.append(contentsOf: Array(String(Character(unicode)).utf8))
    }
  }

  // MARK: Scalars

  private func parseInteger(_ raw: String, at start: Int) throws -> PropertyListValue {
    let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
    var digits = Substring(text)
    var negative = false
    if digits.first == "-" {
      negative = true
      digits = digits.dropFirst()
    } else if digits.first == "+" {
      digits = digits.dropFirst()
    }
    var radix = 10
    if digits.hasPrefix("0x") || digits.hasPrefix("0X") {
      radix = 16
      digits = digits.dropFirst(2)
    }
    guard !digits.isEmpty, let magnitude = UInt64(digits, radix: radix) else {
      throw failure("expected an integer in <integer>, found \"\(text)\"", at: start)
    }
    if negative {
      guard magnitude <= UInt64(Int64.max) + 1 else {
        throw failure("integer \(text) is below the 64-bit range", at: start)
      }
      return .integer(magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude))
    }
    return .integer(unsigned: magnitude)
  }

  private func parseReal(_ raw: String, at start: Int) throws -> PropertyListValue {
    let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
    switch text.lowercased() {
    case "nan", "+nan", "-nan": return .real(.nan)
    case "inf", "+inf", "infinity", "+infinity": return .real(.infinity)
    case "-inf", "-infinity": return .real(-.infinity)
    default: break
    }
    guard let value = Double(text), !text.isEmpty else {
      throw failure("expected a number in <real>, found \"\(text)\"", at: start)
    }
    return .real(value)
  }

  /// `YYYY-MM-DDTHH:MM:SSZ`, optionally with a fraction of a second (which this library writes for dates that
  /// are not whole seconds).
  private func parseDate(_ raw: String, at start: Int) throws -> PropertyListValue {
    let text = Array(raw.trimmingCharacters(in: .whitespacesAndNewlines).utf8)
    func fail() -> ArchiveError {
      failure(
        "expected a date as YYYY-MM-DDTHH:MM:SSZ in <date>, found \"\(String(decoding: text, as: UTF8.self))\"",
        at: start)
    }
    var i = 0
    var negativeYear = false
    if i < text.count, text[i] == UInt8(ascii: "-") {
      negativeYear = true
      i += 1
    }
    func number(_ width: Int?) throws -> Int64 {
      let begin = i
      while i < text.count, text[i] >= UInt8(ascii: "0"), text[i] <= UInt8(ascii: "9"), i - begin < 9 { i += 1 }
      guard i > begin, width.map({ i - begin == $0 }) ?? true else { throw fail() }
      return Int64(String(decoding: text[begin..<i], as: UTF8.self)) ?? 0
    }
    func expect(_ c: Character) throws {
      guard i < text.count, text[i] == UInt8(ascii: c.unicodeScalars.first ?? " ") else { throw fail() }
      i += 1
    }
    var components = CivilTime.Components(year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0)
    components.year = try number(nil) * (negativeYear ? -1 : 1)
    try expect("-")
    components.month = try number(2)
    try expect("-")
    components.day = try number(2)
    try expect("T")
    components.hour = try number(2)
    try expect(":")
    components.minute = try number(2)
    try expect(":")
    components.second = try number(2)
    var fraction = 0.0
    if i < text.count, text[i] == UInt8(ascii: ".") {
      let begin = i
      i += 1
      while i < text.count, text[i] >= UInt8(ascii: "0"), text[i] <= UInt8(ascii: "9") { i += 1 }
      fraction = Double(String(decoding: text[begin..<i], as: UTF8.self)) ?? 0
    }
    try expect("Z")
    guard i == text.count, (1...12).contains(components.month), (1...31).contains(components.day),
      components.hour < 24, components.minute < 60, components.second < 61
    else { throw fail() }
    let whole = CivilTime.seconds(components)
    return .date(Date(timeIntervalSinceReferenceDate: Double(whole) + fraction))
  }
}
