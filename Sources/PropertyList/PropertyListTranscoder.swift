import ArchiveCoding
import Foundation

/// Re-encodes a binary property list straight from its ``BinaryPropertyListReader``, without building the
/// ``PropertyListValue`` tree of the whole list: `keyed convert` of a large archive in memory that does not grow with
/// the tree (CLI-134).
///
/// Every step gives what the tree would: ``measure()`` checks what ``BinaryPropertyListReader/value(of:)`` checks
/// (with the same errors, met in the same order) and counts what writing the value out writes, as
/// `ExpansionBound` counts the tree; ``binary(into:)`` makes the same calls of ``BinaryPropertyListWriter`` as
/// ``BinaryPropertyListWriter/write(_:)`` makes for the tree, so the bytes are the same; ``xml(sets:into:)`` writes
/// the bytes of ``XMLPropertyListWriter/write(_:sets:)``, in pieces. A dictionary whose keys repeat keeps each key
/// at its first position with its last value, as ``PropertyListDictionary`` does, and a container reached more than
/// once is written wherever it appears.
package struct PropertyListTranscoder {
  /// The list read.
  package let reader: BinaryPropertyListReader
  /// The containers reached more than once: counted once, their totals kept.
  private let shared: Set<Int>

  /// What writing a value out writes: its values (containers, keys and elements each count one) and the bytes of
  /// its strings (as UTF-8) and data, each saturating at `Int.max`.
  package struct Expansion: Equatable {
    /// The values.
    package var values = 0
    /// The bytes of strings and data.
    package var bytes = 0

    mutating func add(_ other: Expansion) {
      values = values.addingReportingOverflow(other.values).overflow ? .max : values + other.values
      bytes = bytes.addingReportingOverflow(other.bytes).overflow ? .max : bytes + other.bytes
    }
  }

  /// Prepares `reader`'s top object for re-encoding.
  /// - Throws: what ``BinaryPropertyListReader/sharedContainers(from:)`` throws: nesting past the limit, a
  ///   container that contains itself, a container as a dictionary key, an expansion past the limit.
  package init(reader: BinaryPropertyListReader) throws {
    self.reader = reader
    shared = try reader.sharedContainers(from: reader.topObject)
  }

  // MARK: Checking

  /// Reads every string and integer as materialising the value would (throwing its first error) and returns what
  /// writing the value out writes.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` for a string or integer that cannot be read.
  package func measure() throws -> Expansion {
    var memo: [Int: Expansion] = [:]
    return try measure(reader.topObject, memo: &memo)
  }

  private func measure(_ object: Int, memo: inout [Int: Expansion]) throws -> Expansion {
    if !memo.isEmpty, let known = memo[object] { return known }
    let header = try reader.header(of: object)
    var total = Expansion(values: 1)
    switch header.kind {
    case .asciiString, .utf16String:
      total.bytes = try stringByteCount(header, object: object)
    case .data:
      total.bytes = header.count
    case .integer:
      _ = try reader.integer(header, object: object)
    case .array, .set:
      for index in 0..<header.count { total.add(try measure(reader.element(header, index), memo: &memo)) }
    case .dictionary:
      // Every key and value is read (a value whose key comes again is read too, as materialising reads it); the
      // values that count are the entries the dictionary keeps.
      var values: [Expansion] = []
      values.reserveCapacity(header.count)
      for index in 0..<header.count {
        _ = try measure(reader.element(header, index), memo: &memo)
        values.append(try measure(reader.dictionaryValue(header, index), memo: &memo))
      }
      for entry in try entries(header) {
        total.add(try measure(reader.element(header, entry.key), memo: &memo))
        total.add(values[entry.value])
      }
    case .bool, .real, .date, .uid, .null:
      break
    }
    if header.kind.isContainer, shared.contains(object) { memo[object] = total }
    return total
  }

  /// The UTF-8 length of a string object, which is checked as ``BinaryPropertyListReader/string(_:object:)`` checks
  /// it (an ASCII string is counted without being made).
  private func stringByteCount(_ header: BinaryPropertyListReader.Header, object: Int) throws -> Int {
    if header.kind == .asciiString,
      BinaryPropertyListReader.isASCII(reader.bytes[header.start..<(header.start + header.count)])
    {
      return header.count
    }
    return try reader.string(header, object: object).utf8.count
  }

  /// A dictionary's entries as ``PropertyListDictionary`` keeps them: each key at its first position, with the
  /// index of its last value.
  private func entries(_ header: BinaryPropertyListReader.Header) throws -> [(key: Int, value: Int)] {
    guard header.count > 1 else { return header.count == 1 ? [(0, 0)] : [] }
    var positions: [PropertyListValue: Int] = [:]
    positions.reserveCapacity(header.count)
    var entries: [(key: Int, value: Int)] = []
    entries.reserveCapacity(header.count)
    for index in 0..<header.count {
      let key = try scalar(reader.element(header, index))
      if let position = positions[key] {
        entries[position].value = index
      } else {
        positions[key] = entries.count
        entries.append((index, index))
      }
    }
    return entries
  }

  /// The value of a scalar object (a dictionary key, an element), as materialising makes it.
  private func scalar(_ object: Int) throws -> PropertyListValue {
    try scalar(reader.header(of: object), object: object)
  }

  private func scalar(_ header: BinaryPropertyListReader.Header, object: Int) throws -> PropertyListValue {
    switch header.kind {
    case .null: return .null
    case .bool: return .bool(header.count == 1)
    case .integer: return try reader.integer(header, object: object)
    case .real: return reader.real(header)
    case .date: return .date(reader.date(header))
    case .data: return .data(reader.data(header))
    case .asciiString, .utf16String: return .string(try reader.string(header, object: object))
    case .uid: return .uid(reader.uid(header))
    case .array, .set, .dictionary:
      // `sharedContainers(from:)` refused containers as keys; elements that are containers are walked instead.
      throw ArchiveError(.corruptData, "expected a scalar", at: .init(objectIndex: object))
    }
  }

  // MARK: Binary

  /// Writes the binary property list, byte for byte what ``BinaryPropertyListWriter/write(_:)`` writes for the
  /// value, handing it to `write` in pieces of about a megabyte once the references are known to stay 4 bytes wide
  /// (past 65,535 objects; a smaller list is handed on whole at the end, after its references are narrowed). Strings
  /// are shared as the writer shares them, against the input's bytes rather than copies (CLI-170). A piece handed
  /// to `write` is valid only until `write` returns: copy it to keep it.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` for content that cannot be read (which ``measure()`` met first), past 2^32 objects,
  ///   or what `write` throws.
  package func binary(into write: (Data) throws -> Void) throws {
    try withoutActuallyEscaping(write) { write in
      var writer = BinaryPropertyListWriter()
      writer.reserve(objects: Swift.min(reader.objectCount, Self.reservedObjectsLimit))
      var output = BinaryOutput(write: write)
      let top = try add(reader.topObject, to: &writer, output: &output)
      try writer.finish(top: top, handedOut: &output.progress, to: write)
    }
  }

  /// The most objects whose offsets and references ``binary(into:)`` makes room for before it starts.
  private static let reservedObjectsLimit = 1 << 24

  /// What ``binary(into:)`` keeps besides the writer: the strings written, and the bytes handed on.
  private struct BinaryOutput {
    var strings = TranscodedStrings()
    var progress = BinaryPropertyListWriter.HandedOut()
    let write: (Data) throws -> Void

    /// Hands the writer's bytes on once they pass a piece (when its references are settled).
    mutating func flush(_ writer: inout BinaryPropertyListWriter) throws {
      if writer.bufferedBytes > BinaryPropertyListWriter.piece { try writer.handOut(&progress, to: write) }
    }
  }

  private func add(
    _ object: Int, to writer: inout BinaryPropertyListWriter, output: inout BinaryOutput
  ) throws -> BinaryPropertyListWriter.Ref {
    let header = try reader.header(of: object)
    let ref: BinaryPropertyListWriter.Ref
    switch header.kind {
    case .array, .set:
      let start = writer.mark
      for index in 0..<header.count {
        writer.push(try add(reader.element(header, index), to: &writer, output: &output))
        try output.flush(&writer)
      }
      ref = header.kind == .array ? writer.endArray(from: start) : writer.endSet(from: start)
    case .dictionary:
      let start = writer.mark
      for entry in try entries(header) {
        let keyObject = reader.element(header, entry.key)
        let key = try addScalar(keyObject, try reader.header(of: keyObject), to: &writer, output: &output)
        writer.push(key: key, value: try add(reader.dictionaryValue(header, entry.value), to: &writer, output: &output))
        try output.flush(&writer)
      }
      ref = writer.endDictionary(from: start)
    default:
      return try addScalar(object, header, to: &writer, output: &output)
    }
    return ref
  }

  /// Writes a scalar as ``BinaryPropertyListWriter/add(_:)`` writes it; a string is shared through `output`'s
  /// table, which the writer's own would match.
  private func addScalar(
    _ object: Int, _ header: BinaryPropertyListReader.Header, to writer: inout BinaryPropertyListWriter,
    output: inout BinaryOutput
  ) throws -> BinaryPropertyListWriter.Ref {
    guard header.kind == .asciiString || header.kind == .utf16String else {
      return writer.add(try scalar(header, object: object))
    }
    let string = try reader.string(header, object: object)
    switch try output.strings.find(string, in: reader) {
    case .found(let ref):
      return ref
    case .absent(let vacancy):
      let ref = writer.addUnshared(string: string)
      try output.strings.record(vacancy, object: object, ref: ref)
      return ref
    }
  }

  // MARK: XML

  /// Writes the XML property list, byte for byte what ``XMLPropertyListWriter/write(_:sets:)`` writes for the
  /// value, handing it to `write` in pieces of about a megabyte.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` with code `invalidValue`, naming the key path, for what the XML form cannot hold (a
  ///   null object, a key that is not a string, a set when `sets` is `.refuse`), or what `write` throws.
  package func xml(sets: XMLPropertyListWriter.SetHandling, into write: (Data) throws -> Void) throws {
    try withoutActuallyEscaping(write) { write in
      var output = XMLOutput(write: write)
      XMLPropertyListWriter.append(&output.bytes, XMLPropertyListWriter.header)
      var path = KeyPath()
      try xml(reader.topObject, level: 0, path: &path, sets: sets, into: &output)
      XMLPropertyListWriter.append(&output.bytes, XMLPropertyListWriter.footer)
      try output.flush()
    }
  }

  /// The bytes written so far, handed on once they pass a megabyte.
  private struct XMLOutput {
    var bytes: [UInt8] = []
    let write: (Data) throws -> Void

    mutating func flush(ifLargerThan threshold: Int = 0) throws {
      guard bytes.count > threshold else { return }
      try write(Data(bytes))
      bytes.removeAll(keepingCapacity: true)
    }
  }

  /// Where the writer is, spelled only when an error names it: `$objects[3].name`.
  private struct KeyPath {
    enum Step {
      case index(Int)
      case key(String)
    }
    var steps: [Step] = []
    var isEmpty: Bool { steps.isEmpty }
    var text: String {
      steps.reduce(into: "") { text, step in
        switch step {
        case .index(let index): text += "[\(index)]"
        case .key(let key): text += text.isEmpty ? key : ".\(key)"
        }
      }
    }
  }

  private func xml(
    _ object: Int, level: Int, path: inout KeyPath, sets: XMLPropertyListWriter.SetHandling,
    into output: inout XMLOutput
  ) throws {
    typealias Writer = XMLPropertyListWriter
    let header = try reader.header(of: object)
    Writer.indent(&output.bytes, level)
    switch header.kind {
    case .array, .set:
      if header.kind == .set, sets == .refuse {
        throw ArchiveError(
          .invalidValue, "XML property lists have no sets, found a set of \(header.count) (binary ones do)",
          at: .init(keyPath: path.isEmpty ? nil : path.text))
      }
      if header.count == 0 {
        Writer.append(&output.bytes, "<array/>\n")
        return
      }
      Writer.append(&output.bytes, "<array>\n")
      for index in 0..<header.count {
        path.steps.append(.index(index))
        try xml(reader.element(header, index), level: level + 1, path: &path, sets: sets, into: &output)
        path.steps.removeLast()
      }
      Writer.indent(&output.bytes, level)
      Writer.append(&output.bytes, "</array>\n")
    case .dictionary:
      if header.count == 0 {
        Writer.append(&output.bytes, "<dict/>\n")
        return
      }
      Writer.append(&output.bytes, "<dict>\n")
      for entry in try entries(header) {
        let key = try scalar(reader.element(header, entry.key))
        guard case .string(let text) = key else {
          throw ArchiveError(
            .invalidValue, "XML property lists need string keys, found a \(key.typeName) key",
            at: .init(keyPath: path.isEmpty ? nil : path.text))
        }
        Writer.indent(&output.bytes, level + 1)
        Writer.append(&output.bytes, "<key>")
        Writer.escape(text, into: &output.bytes)
        Writer.append(&output.bytes, "</key>\n")
        path.steps.append(.key(text))
        try xml(reader.dictionaryValue(header, entry.value), level: level + 1, path: &path, sets: sets, into: &output)
        path.steps.removeLast()
      }
      Writer.indent(&output.bytes, level)
      Writer.append(&output.bytes, "</dict>\n")
    case .null:
      throw ArchiveError(
        .invalidValue, "XML property lists have no null object (binary ones do)",
        at: .init(keyPath: path.isEmpty ? "(root)" : path.text))
    default:
      // A scalar is written as the tree's writer writes it, which indents it itself.
      output.bytes.removeLast(level)
      try Writer.write(try scalar(header, object: object), into: &output.bytes, indent: level, path: "", sets: sets)
    }
    try output.flush(ifLargerThan: 1 << 20)
  }
}
