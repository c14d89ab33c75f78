import ArchiveCoding
import ArchiveComparison
import Foundation
import FoundationForms
import KeyedArchive
import NibLoading
import PropertyList

/// A property list as `dump` and `validate` read it (CLI-010, CLI-021): a binary one in place, from the bytes read
/// (a file is mapped, not copied), checked once; an XML one parsed. A keyed archive is then walked
/// (``KeyedArchiveWalk``, Decision 0040) without building its graph or its view.
struct PropertyListInput {
  /// The input's name in messages.
  let fileName: String
  private let reader: BinaryPropertyListReader?
  private let xmlValue: PropertyListValue?
  /// A binary keyed archive's walk, checked when the input was opened for walking.
  private let checkedWalk: KeyedArchiveWalk?

  /// Opens `data` for the duration of `body`: a binary property list is read in place (its bytes must outlive the
  /// reader, which `body` does not keep), an XML one parsed. With `walking`, a binary keyed archive's walk is
  /// checked as the list is (``CheckedPropertyList``).
  /// - Throws: the list's, the container's or the walk's ``/ArchiveCoding/ArchiveError`` located in `fileName` (as
  ///   ``PropertyListReader/read(_:options:fileName:)`` throws it), or what `body` throws.
  static func withInput<R>(
    _ data: Data, fileName: String, walking: Bool = false, _ body: (PropertyListInput) throws -> R
  ) throws -> R {
    guard PropertyListReader.format(of: data) == .binary else {
      let value = try PropertyListReader.read(data, fileName: fileName)
      return try body(PropertyListInput(fileName: fileName, reader: nil, xmlValue: value, checkedWalk: nil))
    }
    return try data.withUnsafeBytes { bytes in
      let checked: CheckedPropertyList
      do {
        checked = try CheckedPropertyList(store: ByteStore(borrowing: bytes), walking: walking)
      } catch let error as ArchiveError {
        throw error.located(in: .init(file: fileName))
      }
      return try body(
        PropertyListInput(fileName: fileName, reader: checked.reader, xmlValue: nil, checkedWalk: checked.walk))
    }
  }

  /// `true` for a dictionary with any of a keyed archive's top-level keys (``KeyedArchiveContainer``): a damaged
  /// archive is then reported as one, not passed as a plain property list.
  var isKeyedArchive: Bool {
    if let reader { return KeyedArchiveContainer.looksLikeKeyedArchive(reader: reader) }
    return xmlValue.map(KeyedArchiveContainer.looksLikeKeyedArchive) ?? false
  }

  /// The whole value, materialised.
  /// - Throws: the materialisation's ``/ArchiveCoding/ArchiveError`` located in the file.
  func value() throws -> PropertyListValue {
    if let xmlValue { return xmlValue }
    guard let reader else { return .null }
    return try located { try reader.topValue() }
  }

  /// The keyed archive's graph, after the checks materialising it would make (so that a file is refused as it
  /// always was), without materialising it.
  /// - Throws: ``/ArchiveCoding/ArchiveError``: the property list's, or the archive container's.
  func graph() throws -> KeyedArchiveGraph {
    if let checkedWalk { return checkedWalk.archive }
    if let reader {
      try located { try reader.checkValue(of: reader.topObject) }
      return try KeyedArchiveGraph(reader: reader)
    }
    return try KeyedArchiveGraph(
      reader: BinaryPropertyListReader(BinaryPropertyListWriter.write(xmlValue ?? .null), options: .default))
  }

  /// The keyed archive's walk, its first pass done (``KeyedArchiveWalk/check()``).
  /// - Throws: what ``graph()`` and the first pass throw.
  func walk() throws -> KeyedArchiveWalk {
    if let checkedWalk { return checkedWalk }
    var walk = KeyedArchiveWalk(try graph())
    try walk.check()
    return walk
  }

  private func located<T>(_ body: () throws -> T) throws -> T {
    do { return try body() } catch let error as ArchiveError { throw error.located(in: .init(file: fileName)) }
  }
}

extension Context {
  /// Writes the canonical view `walk` reports as one JSON document and a line break: streamed to standard output
  /// as it is walked when the tool has a stream (``standardOutput``), else added to ``output`` once whole. The walk
  /// is checked first, so an error leaves nothing written.
  mutating func writeView(pretty: Bool, _ visit: (inout CanonicalJSONWriter) throws -> Void) throws {
    if let stream = standardOutput {
      // What was printed before goes first.
      flush()
      if !output.isEmpty {
        stream(Array(output.utf8))
        output = ""
      }
      var writer = CanonicalJSONWriter(pretty: pretty, sink: stream)
      try visit(&writer)
      writer.endLine()
      return
    }
    var writer = CanonicalJSONWriter(pretty: pretty)
    try visit(&writer)
    writer.endLine()
    output += writer.text
  }

  /// `dump` of a property list or keyed archive (CLI-010, CLI-011): `--raw` or a plain property list as the list
  /// itself, a keyed archive as its graph, in the canonical JSON or as a tree.
  mutating func dumpPropertyList(_ path: String, raw: Bool, json: Bool, pretty: Bool) throws {
    let data = try read(path)
    do {
      try PropertyListInput.withInput(data, fileName: name(path), walking: json && !raw) { input in
        if raw || !input.isKeyedArchive {
          let value = try input.value()
          try ExpansionBound.check(value)
          if json {
            try writeView(pretty: pretty) { value.visit(with: &$0) }
          } else {
            output += TreeText.render(value)
          }
          return
        }
        if json {
          var walk = try input.walk()
          try writeView(pretty: pretty) { try walk.write(to: &$0) }
        } else {
          output += TreeText.render(try ArchiveJSON.graph(try input.graph()))
        }
      }
    } catch let error as ArchiveError {
      throw inputError(path, error)
    }
  }

  /// `validate` of a property list or keyed archive (CLI-021): a keyed archive is the canonical walk's checking
  /// pass, so that `validate` and `dump --json` refuse the same files (CLI-100); a keyed-archive nib is then
  /// instantiated as a compiled nib, as `instantiate` would.
  mutating func validatePropertyList(_ path: String) throws {
    let data = try read(path)
    var summary = ""
    var nib: ObjectTable?
    do {
      try PropertyListInput.withInput(data, fileName: name(path), walking: true) { input in
        guard input.isKeyedArchive else {
          _ = try input.value()
          summary = "\(name(path)): valid property list\n"
          return
        }
        // The walk's first pass reads the top-level keys first: their errors are the ones it reports.
        var graph = try input.walk().archive
        if NibReader.isNib(topLevelKeys: Set(try graph.topLevelKeys())) {
          nib = try NibReader.objectTable(from: data, fileName: name(path))
          return
        }
        summary = "\(name(path)): valid keyed archive, \(graph.objectCount) objects\n"
      }
    } catch let error as ArchiveError {
      throw inputError(path, error)
    }
    if let nib {
      try validateNib(nib, path: path)
    } else {
      output += summary
    }
  }
}
