import ArchiveCoding

/// ASCII bytes the scanner looks for.
private enum ASCII {
  static let tab: UInt8 = 0x09
  static let lineFeed: UInt8 = 0x0A
  static let carriageReturn: UInt8 = 0x0D
  static let space: UInt8 = 0x20
  static let exclamation: UInt8 = 0x21
  static let quote: UInt8 = 0x22
  static let hash: UInt8 = 0x23
  static let ampersand: UInt8 = 0x26
  static let apostrophe: UInt8 = 0x27
  static let hyphen: UInt8 = 0x2D
  static let slash: UInt8 = 0x2F
  static let semicolon: UInt8 = 0x3B
  static let less: UInt8 = 0x3C
  static let equals: UInt8 = 0x3D
  static let greater: UInt8 = 0x3E
  static let question: UInt8 = 0x3F
  static let openBracket: UInt8 = 0x5B
  static let closeBracket: UInt8 = 0x5D
  static let lowerX: UInt8 = 0x78
}

/// The byte scanner behind ``XMLScanner``: one pass over the input with an explicit element stack (no recursion),
/// building ``XMLElementNode``s bottom-up. Character data is kept as a byte range of the input while it is plain,
/// and copied into a buffer only when references, CDATA or carriage returns have to be decoded.
struct XMLScannerEngine {
  private let bytes: UnsafeBufferPointer<UInt8>
  private let table: UnsafeBufferPointer<UInt8>
  private let fileName: String?
  private let limits: XMLScanner.Limits
  private let end: Int
  private var pos = 0
  private var locator: SourceLocator
  private var names = NameInterner()
  private var stack: [XMLElementNode] = []
  private var root: XMLElementNode?
  private var elementCount = 0
  /// Decoded bytes of an attribute value that needed decoding.
  private var scratch: [UInt8] = []
  /// The attributes of the start tag being read (copied into an exactly sized array per element).
  private var attributeScratch: [XMLElementNode.Attribute] = []
  /// The children of every open element, in one buffer; `childStarts[i]` is where the children of `stack[i]` begin.
  /// An element's children are copied into an exactly sized array when it closes.
  private var childBuffer: [XMLElementNode] = []
  private var childStarts: [Int] = []

  // The character data seen since the last tag: a plain range of the input, or decoded bytes in the buffer.
  private var segmentStart = 0
  private var segmentEnd = 0
  private var segmentIsBuffered = false
  private var segmentBuffer: [UInt8] = []
  private var segmentOrigin = 0

  init(
    bytes: UnsafeBufferPointer<UInt8>, table: UnsafeBufferPointer<UInt8>, fileName: String?,
    limits: XMLScanner.Limits
  ) {
    self.bytes = bytes
    self.table = table
    self.fileName = fileName
    self.limits = limits
    self.end = bytes.count
    self.locator = SourceLocator(origin: SourceLocator.byteOrderMarkLength(bytes))
  }

  // MARK: - Driver

  mutating func run() throws -> XMLElementNode {
    try checkEncodingSignature()
    pos = locator.origin
    try scanProlog()
    try scanStartTag()
    while !stack.isEmpty {
      try scanCharacterData()
      guard pos < end else {
        let open = stack[stack.count - 1]
        throw fail(
          .corruptData,
          "unexpected end of input: element <\(open.name)> opened at \(open.line):\(open.column) is not closed",
          at: end)
      }
      let next = pos + 1 < end ? bytes[pos + 1] : 0
      if next == ASCII.slash {
        try scanEndTag()
      } else if next == ASCII.exclamation {
        if startsWith("<!--") {
          try skipComment()
        } else if startsWith("<![CDATA[") {
          try scanCDATA()
        } else {
          throw fail(.corruptData, "expected a comment or a CDATA section after '<!'", at: pos)
        }
      } else if next == ASCII.question {
        try skipProcessingInstruction()
      } else {
        try scanStartTag()
      }
    }
    try scanEpilog()
    guard let root else {
      throw fail(.corruptData, "the document has no root element", at: end)
    }
    return root
  }

  // MARK: - Prolog and epilog

  private func checkEncodingSignature() throws {
    guard end > 0 else {
      throw fail(.corruptData, "the input is empty", at: 0)
    }
    if end >= 2 && ((bytes[0] == 0xFE && bytes[1] == 0xFF) || (bytes[0] == 0xFF && bytes[1] == 0xFE)) {
      throw fail(.unsupportedFormat, "UTF-16 input is not supported; the document must be UTF-8", at: 0)
    }
    if end >= 2 && ((bytes[0] == 0 && bytes[1] == ASCII.less) || (bytes[0] == ASCII.less && bytes[1] == 0)) {
      throw fail(.unsupportedFormat, "UTF-16 input is not supported; the document must be UTF-8", at: 0)
    }
  }

  private mutating func scanProlog() throws {
    if startsWith("<?xml") && pos + 5 < end && isWhitespace(bytes[pos + 5]) {
      try scanXMLDeclaration()
    }
    var sawDocumentType = false
    while true {
      skipWhitespace()
      guard pos < end else {
        throw fail(.corruptData, "the document has no root element", at: end)
      }
      guard bytes[pos] == ASCII.less else {
        throw fail(.corruptData, "text is not allowed before the root element", at: pos)
      }
      if startsWith("<!--") {
        try skipComment()
      } else if startsWith("<?") {
        try skipProcessingInstruction()
      } else if startsWith("<!DOCTYPE") {
        guard !sawDocumentType else {
          throw fail(.corruptData, "a second document type declaration", at: pos)
        }
        sawDocumentType = true
        try skipDocumentType()
      } else if startsWith("<!") {
        throw fail(.corruptData, "unexpected markup before the root element", at: pos)
      } else {
        return
      }
    }
  }

  private mutating func scanXMLDeclaration() throws {
    let start = pos
    pos += 5
    var version: String?
    while true {
      let hadSpace = skipWhitespace()
      guard pos < end else {
        throw fail(.corruptData, "unterminated XML declaration", at: start)
      }
      if startsWith("?>") {
        pos += 2
        break
      }
      guard hadSpace else {
        throw fail(.corruptData, "expected white space in the XML declaration", at: pos)
      }
      let nameStart = pos
      let (name, value) = try scanAttribute(named: "a pseudo-attribute name in the XML declaration", "")
      switch name {
      case "version":
        guard value.hasPrefix("1.") else {
          throw fail(.unsupportedFormat, "XML version \"\(value)\" is not supported", at: nameStart)
        }
        version = value
      case "encoding":
        let lowered = value.lowercased()
        guard lowered == "utf-8" || lowered == "utf8" || lowered == "us-ascii" || lowered == "ascii" else {
          throw fail(
            .unsupportedFormat, "encoding \"\(value)\" is not supported; the document must be UTF-8", at: nameStart)
        }
      case "standalone":
        guard value == "yes" || value == "no" else {
          throw fail(.corruptData, "standalone must be \"yes\" or \"no\", found \"\(value)\"", at: nameStart)
        }
      default:
        throw fail(.corruptData, "unexpected \"\(name)\" in the XML declaration", at: nameStart)
      }
    }
    guard version != nil else {
      throw fail(.corruptData, "the XML declaration has no version", at: start)
    }
  }

  private mutating func scanEpilog() throws {
    while true {
      skipWhitespace()
      guard pos < end else { return }
      if startsWith("<!--") {
        try skipComment()
      } else if startsWith("<?") {
        try skipProcessingInstruction()
      } else if bytes[pos] == ASCII.less && pos + 1 < end && table[Int(bytes[pos + 1])] & ByteClass.nameStart != 0 {
        throw fail(.corruptData, "a document has one root element; found a second one", at: pos)
      } else {
        throw fail(.corruptData, "content is not allowed after the root element", at: pos)
      }
    }
  }

  // MARK: - Tags

  private mutating func scanStartTag() throws {
    let tagStart = pos
    pos += 1
    let name = try scanName("an element name")
    elementCount += 1
    guard elementCount <= limits.maximumElements else {
      throw fail(.limitExceeded, "more than \(limits.maximumElements) elements", at: tagStart)
    }
    attributeScratch.removeAll(keepingCapacity: true)
    var selfClosing = false
    while true {
      let hadSpace = skipWhitespace()
      guard pos < end else {
        throw fail(.corruptData, "unexpected end of input in the start tag of <\(name)>", at: tagStart)
      }
      let byte = bytes[pos]
      if byte == ASCII.greater {
        pos += 1
        break
      }
      if byte == ASCII.slash {
        guard pos + 1 < end, bytes[pos + 1] == ASCII.greater else {
          throw fail(.corruptData, "expected '>' after '/' in the start tag of <\(name)>", at: pos)
        }
        pos += 2
        selfClosing = true
        break
      }
      guard hadSpace else {
        throw fail(.corruptData, "expected white space, '>' or '/>' in the start tag of <\(name)>", at: pos)
      }
      let attributeStart = pos
      let (attributeName, value) = try scanAttribute(named: "an attribute name or '>'", "attribute ")
      guard attributeScratch.count < limits.maximumAttributesPerElement else {
        throw fail(
          .limitExceeded, "element <\(name)> has more than \(limits.maximumAttributesPerElement) attributes",
          at: attributeStart)
      }
      for attribute in attributeScratch where attribute.name == attributeName {
        throw fail(.corruptData, "duplicate attribute \"\(attributeName)\" on <\(name)>", at: attributeStart)
      }
      attributeScratch.append(XMLElementNode.Attribute(name: attributeName, value: value))
    }
    guard stack.count < limits.maximumDepth else {
      throw fail(.limitExceeded, "elements are nested deeper than \(limits.maximumDepth) levels", at: tagStart)
    }
    if !stack.isEmpty {
      // The character data before a child element belongs to the parent; white space between children is dropped.
      if !segmentIsWhitespace() {
        stack[stack.count - 1].text += try segmentString()
      }
      resetSegment()
    }
    let position = locator.locate(tagStart, in: bytes)
    let node = XMLElementNode(
      name: name, attributes: attributeScratch.isEmpty ? [] : Array(attributeScratch), children: [], text: "",
      line: position.line, column: position.column, byteOffset: tagStart)
    if selfClosing {
      close(node)
    } else {
      stack.append(node)
      childStarts.append(childBuffer.count)
    }
  }

  private mutating func scanEndTag() throws {
    let tagStart = pos
    pos += 2
    let name = try scanName("an element name after '</'")
    skipWhitespace()
    try expect(ASCII.greater, "'>' to end the end tag </\(name)")
    guard var node = stack.popLast(), let childStart = childStarts.popLast() else {
      throw fail(.corruptData, "end tag </\(name)> without a start tag", at: tagStart)
    }
    guard node.name == name else {
      throw fail(
        .corruptData,
        "mismatched end tag: expected </\(node.name)> (opened at \(node.line):\(node.column)), found </\(name)>",
        at: tagStart)
    }
    if childStart == childBuffer.count {
      node.text = try segmentString()
    } else {
      if !segmentIsWhitespace() {
        node.text += try segmentString()
      }
      node.children = Array(childBuffer[childStart...])
      childBuffer.removeSubrange(childStart...)
    }
    resetSegment()
    close(node)
  }

  private mutating func close(_ node: XMLElementNode) {
    if stack.isEmpty {
      root = node
    } else {
      childBuffer.append(node)
    }
  }

  // MARK: - Names and attribute values

  /// `name = "value"` (white space allowed around `=`): an attribute of a start tag or a pseudo-attribute of the XML
  /// declaration. `what` names the expected name in errors; `kind` prefixes the name in the error for a missing `=`.
  private mutating func scanAttribute(named what: String, _ kind: String) throws -> (name: String, value: String) {
    let name = try scanName(what)
    skipWhitespace()
    try expect(ASCII.equals, "'=' after \(kind)\"\(name)\"")
    skipWhitespace()
    return (name, try scanAttributeValue())
  }

  private mutating func scanName(_ what: String) throws -> String {
    let start = pos
    guard pos < end else {
      throw fail(.corruptData, "unexpected end of input: expected \(what)", at: pos)
    }
    guard table[Int(bytes[pos])] & ByteClass.nameStart != 0 else {
      throw fail(.corruptData, "expected \(what), found \(describe(bytes[pos]))", at: pos)
    }
    var hash = NameInterner.hashSeed
    while pos < end {
      let byte = bytes[pos]
      if table[Int(byte)] & ByteClass.nameChar == 0 { break }
      hash = (hash ^ UInt64(byte)) &* NameInterner.hashPrime
      pos += 1
    }
    guard let name = names.intern(hash: hash, start: start, count: pos - start, in: bytes) else {
      throw fail(.corruptData, "invalid UTF-8 in a name", at: firstInvalidUTF8(start, pos) ?? start)
    }
    return name
  }

  private mutating func scanAttributeValue() throws -> String {
    guard pos < end else {
      throw fail(.corruptData, "unexpected end of input: expected a quoted attribute value", at: pos)
    }
    let quote = bytes[pos]
    guard quote == ASCII.quote || quote == ASCII.apostrophe else {
      throw fail(.corruptData, "expected a quoted attribute value, found \(describe(quote))", at: pos)
    }
    let open = pos
    pos += 1
    let start = pos
    while pos < end {
      let byte = bytes[pos]
      if table[Int(byte)] & ByteClass.attributeSpecial == 0 {
        pos += 1
        continue
      }
      if byte == quote {
        let value = try string(start, pos)
        pos += 1
        return value
      }
      if byte == ASCII.quote || byte == ASCII.apostrophe {
        pos += 1
        continue
      }
      return try scanAttributeValueSlowly(quote: quote, start: start, open: open)
    }
    throw fail(.corruptData, "unterminated attribute value", at: open)
  }

  /// Decodes an attribute value that holds references or white space to normalize, into `scratch`.
  private mutating func scanAttributeValueSlowly(quote: UInt8, start: Int, open: Int) throws -> String {
    scratch.removeAll(keepingCapacity: true)
    scratch.append(contentsOf: bytes[start..<pos])
    while pos < end {
      let byte = bytes[pos]
      if table[Int(byte)] & ByteClass.attributeSpecial == 0
        || (byte != quote && (byte == ASCII.quote || byte == ASCII.apostrophe))
      {
        scratch.append(byte)
        pos += 1
        continue
      }
      switch byte {
      case quote:
        pos += 1
        return try scratch.withUnsafeBufferPointer { decoded in
          guard UTF8Validation.isValid(decoded) else {
            throw fail(.corruptData, "invalid UTF-8 in an attribute value", at: firstInvalidUTF8(start, pos) ?? start)
          }
          return String(decoding: decoded, as: UTF8.self)
        }
      case ASCII.ampersand:
        let reference = try readReference(at: pos)
        XMLScannerEngine.appendUTF8(reference.scalar, to: &scratch)
        pos = reference.next
      case ASCII.tab, ASCII.lineFeed:
        scratch.append(ASCII.space)
        pos += 1
      case ASCII.carriageReturn:
        scratch.append(ASCII.space)
        pos += 1
        if pos < end && bytes[pos] == ASCII.lineFeed { pos += 1 }
      case ASCII.less:
        throw fail(.corruptData, "'<' is not allowed in an attribute value", at: pos)
      default:
        throw fail(.corruptData, "invalid character \(describe(byte)) in an attribute value", at: pos)
      }
    }
    throw fail(.corruptData, "unterminated attribute value", at: open)
  }

  // MARK: - Character data

  private mutating func scanCharacterData() throws {
    var chunkStart = pos
    while pos < end {
      let byte = bytes[pos]
      if table[Int(byte)] & ByteClass.textSpecial == 0 {
        pos += 1
        continue
      }
      switch byte {
      case ASCII.less:
        appendRaw(chunkStart, pos)
        return
      case ASCII.closeBracket:
        if pos + 2 < end && bytes[pos + 1] == ASCII.closeBracket && bytes[pos + 2] == ASCII.greater {
          throw fail(.corruptData, "']]>' is not allowed in character data", at: pos)
        }
        pos += 1
      case ASCII.ampersand:
        appendRaw(chunkStart, pos)
        let reference = try readReference(at: pos)
        bufferSegment()
        XMLScannerEngine.appendUTF8(reference.scalar, to: &segmentBuffer)
        pos = reference.next
        chunkStart = pos
      case ASCII.carriageReturn:
        appendRaw(chunkStart, pos)
        bufferSegment()
        segmentBuffer.append(ASCII.lineFeed)
        pos += 1
        if pos < end && bytes[pos] == ASCII.lineFeed { pos += 1 }
        chunkStart = pos
      default:
        throw fail(.corruptData, "invalid character \(describe(byte)) in character data", at: pos)
      }
    }
    appendRaw(chunkStart, pos)
  }

  private mutating func scanCDATA() throws {
    let open = pos
    pos += 9
    var chunkStart = pos
    while pos < end {
      let byte = bytes[pos]
      if byte == ASCII.closeBracket && pos + 2 < end && bytes[pos + 1] == ASCII.closeBracket
        && bytes[pos + 2] == ASCII.greater
      {
        appendRaw(chunkStart, pos)
        pos += 3
        return
      }
      if byte == ASCII.carriageReturn {
        appendRaw(chunkStart, pos)
        bufferSegment()
        segmentBuffer.append(ASCII.lineFeed)
        pos += 1
        if pos < end && bytes[pos] == ASCII.lineFeed { pos += 1 }
        chunkStart = pos
        continue
      }
      if byte < ASCII.space && byte != ASCII.tab && byte != ASCII.lineFeed {
        throw fail(.corruptData, "invalid character \(describe(byte)) in a CDATA section", at: pos)
      }
      pos += 1
    }
    throw fail(.corruptData, "unterminated CDATA section", at: open)
  }

  private mutating func appendRaw(_ start: Int, _ stop: Int) {
    guard start < stop else { return }
    if segmentIsBuffered {
      segmentBuffer.append(contentsOf: bytes[start..<stop])
    } else if segmentStart == segmentEnd {
      segmentStart = start
      segmentEnd = stop
      segmentOrigin = start
    } else if segmentEnd == start {
      segmentEnd = stop
    } else {
      bufferSegment()
      segmentBuffer.append(contentsOf: bytes[start..<stop])
    }
  }

  private mutating func bufferSegment() {
    guard !segmentIsBuffered else { return }
    segmentBuffer.removeAll(keepingCapacity: true)
    if segmentStart < segmentEnd {
      segmentBuffer.append(contentsOf: bytes[segmentStart..<segmentEnd])
    } else {
      segmentOrigin = pos
    }
    segmentIsBuffered = true
  }

  private mutating func resetSegment() {
    segmentIsBuffered = false
    segmentStart = 0
    segmentEnd = 0
  }

  private func segmentIsWhitespace() -> Bool {
    if segmentIsBuffered {
      for byte in segmentBuffer where !isWhitespace(byte) { return false }
      return true
    }
    var index = segmentStart
    while index < segmentEnd {
      if !isWhitespace(bytes[index]) { return false }
      index += 1
    }
    return true
  }

  private func segmentString() throws -> String {
    if segmentIsBuffered {
      return try segmentBuffer.withUnsafeBufferPointer { decoded in
        guard UTF8Validation.isValid(decoded) else {
          throw fail(.corruptData, "invalid UTF-8 in character data", at: segmentOrigin)
        }
        return String(decoding: decoded, as: UTF8.self)
      }
    }
    return try string(segmentStart, segmentEnd)
  }

  // MARK: - References

  /// Reads `&name;` or `&#…;` at `start`; returns the Unicode scalar it stands for and the offset after it.
  private func readReference(at start: Int) throws -> (scalar: UInt32, next: Int) {
    var index = start + 1
    guard index < end else {
      throw fail(.corruptData, "unexpected end of input in a reference", at: start)
    }
    if bytes[index] == ASCII.hash {
      index += 1
      var radix: UInt32 = 10
      if index < end && bytes[index] == ASCII.lowerX {
        radix = 16
        index += 1
      }
      var value: UInt32 = 0
      var digits = 0
      while index < end && bytes[index] != ASCII.semicolon {
        guard let digit = XMLScannerEngine.digitValue(bytes[index], radix: radix) else {
          throw fail(.corruptData, "invalid character reference", at: start)
        }
        let (shifted, overflow1) = value.multipliedReportingOverflow(by: radix)
        let (sum, overflow2) = shifted.addingReportingOverflow(digit)
        guard !overflow1 && !overflow2 else {
          throw fail(.corruptData, "character reference out of range", at: start)
        }
        value = sum
        digits += 1
        index += 1
      }
      guard index < end else {
        throw fail(.corruptData, "unterminated character reference", at: start)
      }
      guard digits > 0 else {
        throw fail(.corruptData, "invalid character reference", at: start)
      }
      guard XMLScannerEngine.isXMLCharacter(value) else {
        throw fail(.corruptData, "character reference to a character not allowed in XML (\(value))", at: start)
      }
      return (value, index + 1)
    }
    let nameStart = index
    while index < end && index - nameStart <= 8 && bytes[index] != ASCII.semicolon {
      index += 1
    }
    guard index < end && bytes[index] == ASCII.semicolon && index > nameStart else {
      throw fail(.corruptData, "'&' must start a reference such as &amp;", at: start)
    }
    let scalar: UInt32
    switch Array(bytes[nameStart..<index]) {
    case [0x6C, 0x74]: scalar = 0x3C  // lt
    case [0x67, 0x74]: scalar = 0x3E  // gt
    case [0x61, 0x6D, 0x70]: scalar = 0x26  // amp
    case [0x71, 0x75, 0x6F, 0x74]: scalar = 0x22  // quot
    case [0x61, 0x70, 0x6F, 0x73]: scalar = 0x27  // apos
    default:
      let name = String(decoding: bytes[nameStart..<index], as: UTF8.self)
      throw fail(.corruptData, "undefined entity &\(name);", at: start)
    }
    return (scalar, index + 1)
  }

  private static func digitValue(_ byte: UInt8, radix: UInt32) -> UInt32? {
    switch byte {
    case 0x30...0x39: return UInt32(byte - 0x30)
    case 0x41...0x46 where radix == 16: return UInt32(byte - 0x41 + 10)
    case 0x61...0x66 where radix == 16: return UInt32(byte - 0x61 + 10)
    default: return nil
    }
  }

  /// XML 1.0 `Char`: tab, line feed, carriage return and the scalars from U+0020 except surrogates, U+FFFE, U+FFFF.
  private static func isXMLCharacter(_ value: UInt32) -> Bool {
    switch value {
    case 0x09, 0x0A, 0x0D: return true
    case 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
    default: return false
    }
  }

  private static func appendUTF8(_ scalar: UInt32, to buffer: inout [UInt8]) {
    switch scalar {
    case 0..<0x80:
      buffer.append(UInt8(scalar))
    case 0x80..<0x800:
      buffer.append(UInt8(0xC0 | (scalar >> 6)))
      buffer.append(UInt8(0x80 | (scalar & 0x3F)))
    case 0x800..<0x10000:
      buffer.append(UInt8(0xE0 | (scalar >> 12)))
      buffer.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
      buffer.append(UInt8(0x80 | (scalar & 0x3F)))
    default:
      buffer.append(UInt8(0xF0 | ((scalar >> 18) & 0x07)))
      buffer.append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
      buffer.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
      buffer.append(UInt8(0x80 | (scalar & 0x3F)))
    }
  }

  // MARK: - Comments, processing instructions, document type

  /// Moves just past the first `first` `second` byte pair at or after the position; `false`, at the end of the
  /// input, when there is none.
  private mutating func skip(past first: UInt8, _ second: UInt8) -> Bool {
    while pos + 1 < end {
      if bytes[pos] == first && bytes[pos + 1] == second {
        pos += 2
        return true
      }
      pos += 1
    }
    pos = end
    return false
  }

  private mutating func skipComment() throws {
    let open = pos
    pos += 4
    guard skip(past: ASCII.hyphen, ASCII.hyphen) else {
      throw fail(.corruptData, "unterminated comment", at: open)
    }
    guard pos < end, bytes[pos] == ASCII.greater else {
      throw fail(.corruptData, "'--' is not allowed inside a comment", at: pos - 2)
    }
    pos += 1
  }

  private mutating func skipProcessingInstruction() throws {
    let open = pos
    pos += 2
    let target = try scanName("a processing instruction target")
    if target.lowercased() == "xml" {
      throw fail(.corruptData, "the XML declaration is allowed only at the very start of the document", at: open)
    }
    guard pos < end, isWhitespace(bytes[pos]) || startsWith("?>") else {
      throw fail(.corruptData, "expected white space or '?>' after the processing instruction target", at: pos)
    }
    guard skip(past: ASCII.question, ASCII.greater) else {
      throw fail(.corruptData, "unterminated processing instruction", at: open)
    }
  }

  private mutating func skipDocumentType() throws {
    let open = pos
    pos += 9
    var inInternalSubset = false
    while pos < end {
      let byte = bytes[pos]
      if byte == ASCII.quote || byte == ASCII.apostrophe {
        pos += 1
        while pos < end && bytes[pos] != byte {
          pos += 1
        }
        guard pos < end else { break }
        pos += 1
        continue
      }
      if inInternalSubset && startsWith("<!--") {
        try skipComment()
        continue
      }
      if byte == ASCII.openBracket {
        inInternalSubset = true
      } else if byte == ASCII.closeBracket {
        inInternalSubset = false
      } else if byte == ASCII.greater && !inInternalSubset {
        pos += 1
        return
      }
      pos += 1
    }
    throw fail(.corruptData, "unterminated document type declaration", at: open)
  }

  // MARK: - Small helpers

  @discardableResult
  private mutating func skipWhitespace() -> Bool {
    let start = pos
    while pos < end && table[Int(bytes[pos])] & ByteClass.whitespace != 0 {
      pos += 1
    }
    return pos > start
  }

  private func isWhitespace(_ byte: UInt8) -> Bool {
    table[Int(byte)] & ByteClass.whitespace != 0
  }

  private mutating func expect(_ byte: UInt8, _ what: @autoclosure () -> String) throws {
    guard pos < end else {
      throw fail(.corruptData, "unexpected end of input: expected \(what())", at: pos)
    }
    guard bytes[pos] == byte else {
      throw fail(.corruptData, "expected \(what()), found \(describe(bytes[pos]))", at: pos)
    }
    pos += 1
  }

  private func startsWith(_ literal: StaticString) -> Bool {
    let count = literal.utf8CodeUnitCount
    guard pos + count <= end else { return false }
    return literal.withUTF8Buffer { literalBytes in
      for index in 0..<count where bytes[pos + index] != literalBytes[index] {
        return false
      }
      return true
    }
  }

  private func string(_ start: Int, _ stop: Int) throws -> String {
    let slice = UnsafeBufferPointer(rebasing: bytes[start..<stop])
    guard UTF8Validation.isValid(slice) else {
      throw fail(.corruptData, "invalid UTF-8", at: firstInvalidUTF8(start, stop) ?? start)
    }
    return String(decoding: slice, as: UTF8.self)
  }

  /// The offset of the first byte in `start ..< stop` that does not begin a valid UTF-8 sequence.
  private func firstInvalidUTF8(_ start: Int, _ stop: Int) -> Int? {
    var index = start
    while index < stop {
      let slice = UnsafeBufferPointer(rebasing: bytes[index..<min(index + 4, stop)])
      var iterator = slice.makeIterator()
      var decoder = UTF8()
      switch decoder.decode(&iterator) {
      case .scalarValue(let scalar):
        index += UTF8.width(scalar)
      case .emptyInput:
        return nil
      case .error:
        return index
      }
    }
    return nil
  }

  private func describe(_ byte: UInt8) -> String {
    if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
    if byte == ASCII.space { return "a space" }
    if byte == ASCII.lineFeed { return "a line break" }
    let hex = String(byte, radix: 16, uppercase: true)
    return byte < 0x80 ? "U+\(hex.count < 2 ? "000" : "00")\(hex)" : "byte 0x\(hex)"
  }

  /// A compiler-style error at `offset`; the location is computed only now, when it is needed.
  private func fail(_ code: ArchiveError.Code, _ message: String, at offset: Int) -> ArchiveError {
    var locator = self.locator
    return locator.error(code, message, at: offset, in: bytes, fileName: fileName)
  }
}
