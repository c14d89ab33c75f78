import ArchiveCoding
import ArchiveComparison
import ArchiveSupport
import Foundation
import FoundationForms
import KeyedArchive
import PropertyList
import Typedstream

/// What the `keyed` tool does with a typedstream (NSArchiver data): the raw and decoded JSON views of `dump`,
/// `validate` and `convert` (`Specs/Typedstream.md`, TS-060 onwards).
package enum TypedstreamCommand {
  /// `true` when `data` starts with a typedstream header (`\x04\x0bstreamtyped` or `\x04\x0btypedstream`).
  package static func isTypedstream(_ data: Data) -> Bool { TypedstreamFormat.hasMagic(data) }

  /// `dump --raw --json`: the stream itself in the raw view (TS-060).
  /// - Throws: `ArchiveError` when the stream is malformed or its view passes the expansion bound.
  package static func rawJSON(_ data: Data, pretty: Bool = false) throws -> String {
    try rawJSON(data, pretty: pretty, budget: TypedstreamViewBudget())
  }

  static func rawJSON(_ data: Data, pretty: Bool, budget: TypedstreamViewBudget) throws -> String {
    let archive = try TypedstreamReader.read(data)
    var view = TypedstreamRawView(try TypedstreamDecoder(archive), budget: budget)
    return CanonicalJSON.text(try view.archive(archive), pretty: pretty)
  }

  /// `dump --json`: the decoded values in the canonical JSON (TS-070).
  /// - Throws: `ArchiveError` when the stream is malformed or its view passes the expansion bound.
  package static func decodedJSON(_ data: Data, pretty: Bool = false) throws -> String {
    try decodedJSON(data, pretty: pretty, budget: TypedstreamViewBudget())
  }

  static func decodedJSON(_ data: Data, pretty: Bool, budget: TypedstreamViewBudget) throws -> String {
    CanonicalJSON.text(try decodedGraph(data, budget: budget), pretty: pretty)
  }

  /// The decoded values as canonical JSON nodes (what `dump --json` prints and `diff` compares).
  /// - Throws: `ArchiveError` when the stream is malformed or its view passes the expansion bound.
  static func decodedGraph(
    _ data: Data, budget: TypedstreamViewBudget = TypedstreamViewBudget()
  ) throws -> CanonicalJSON.Node {
    var view = try TypedstreamDecodedView(try TypedstreamReader.read(data), budget: budget)
    return try view.render()
  }

  /// `validate`: reads the whole stream and decodes its Foundation values; returns the one-line summary.
  /// - Throws: `ArchiveError` when the stream is malformed.
  package static func validate(_ data: Data, name: String) throws -> String {
    let archive = try TypedstreamReader.read(data)
    var view = try TypedstreamDecodedView(archive)
    _ = try view.render()
    return "\(name): valid typedstream (\(archive.byteOrder.rawValue)-endian), \(view.decoder.objectCount) objects\n"
  }

  /// `convert --format typedstream` (the default for a typedstream): the stream re-encoded (TS-053).
  /// - Throws: `ArchiveError` when the stream is malformed.
  package static func convert(_ data: Data) throws -> Data {
    try TypedstreamWriter.write(try TypedstreamReader.read(data))
  }

  /// `convert --format binary|xml` of a typedstream: its one top-level object, of Foundation's classes, as a keyed
  /// archive (COD-126).
  /// - Throws: `ArchiveError`: `classNotFound` naming an object of another class, `unsupportedFormat` for a stream
  ///   whose top level is not one object, or the stream's own errors.
  package static func keyedArchive(fromTypedstream data: Data, format: PropertyListFormat) throws -> Data {
    let unarchiver = try TypedstreamUnarchiver(data: data, registry: ClassRegistry())
    guard unarchiver.nextEncoding == "@" else {
      throw ArchiveError(
        .unsupportedFormat,
        "a keyed archive holds one root object; the stream starts with a \"\(unarchiver.nextEncoding ?? "")\" group")
    }
    let root = try unarchiver.decodeObject()
    if let encoding = unarchiver.nextEncoding {
      throw ArchiveError(
        .unsupportedFormat,
        "a keyed archive holds one root object; the stream has more top-level groups (\"\(encoding)\")")
    }
    return try KeyedArchiver.archivedData(withRootObject: root, format: format)
  }

  /// `convert --format typedstream` of a keyed archive: its root object, of Foundation's classes, as a
  /// little-endian typedstream (COD-126).
  /// - Throws: `ArchiveError`: `classNotFound` naming an object of another class, or the archive's own errors.
  package static func typedstream(fromKeyedArchive data: Data) throws -> Data {
    let root = try KeyedUnarchiver.unarchivedRootObject(from: data, registry: ClassRegistry())
    return try TypedstreamArchiver.archivedData(withRootObject: root)
  }
}

// MARK: - The tool's verbs on a typedstream

extension Context {
  /// `true` when the input starts with a typedstream header (`\x04\x0bstreamtyped` or `\x04\x0btypedstream`).
  /// Peeks as ``isNibInput(_:)`` does: standard input and streams are read once and kept, a file's first bytes
  /// are read.
  func isTypedstreamInput(_ path: String) -> Bool {
    if path == "-" {
      guard let input = try? standardInput() else { return false }  // the read's error is met again when read
      return TypedstreamCommand.isTypedstream(input)
    }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
      return false
    }
    if !Self.isRegularFile(path) {
      guard let data = try? readStream(path) else { return false }
      return TypedstreamCommand.isTypedstream(data)
    }
    guard let handle = FileHandle(forReadingAtPath: path) else { return false }
    defer { try? handle.close() }
    return TypedstreamCommand.isTypedstream(handle.readData(ofLength: 13))
  }

  /// `dump` of a typedstream: `--raw --json` the raw view, `--json` the decoded view, otherwise the decoded view
  /// as an indented tree (TS-060, TS-070).
  mutating func dumpTypedstream(_ path: String, raw: Bool, json: Bool, pretty: Bool) throws {
    let data = try read(path)
    do {
      if raw {
        output += try TypedstreamCommand.rawJSON(data, pretty: pretty || !json) + "\n"
      } else if json {
        output += try TypedstreamCommand.decodedJSON(data, pretty: pretty) + "\n"
      } else {
        var view = try TypedstreamDecodedView(try TypedstreamReader.read(data))
        output += TreeText.render(try view.render())
      }
    } catch let error as ArchiveError {
      throw inputError(path, error)
    }
  }

  /// `validate` of a typedstream: reads it whole and decodes its Foundation objects, then prints one line.
  mutating func validateTypedstream(_ path: String) throws {
    let data = try read(path)
    do {
      output += try TypedstreamCommand.validate(data, name: name(path))
    } catch let error as ArchiveError {
      throw inputError(path, error)
    }
  }

  /// `convert` of a typedstream: `--format typedstream` (the default) re-encodes it; `binary` and `xml` write its
  /// root object as a keyed archive when its classes are Foundation's (exit 65 naming the class otherwise).
  mutating func convertTypedstream(_ path: String, to out: String, format: String?) throws {
    let keyedFormat: PropertyListFormat?
    switch format {
    case nil, "typedstream": keyedFormat = nil
    case "binary": keyedFormat = .binary
    case "xml": keyedFormat = .xml
    default: throw UsageError(message: "unknown format '\(format ?? "")' (expected typedstream, binary or xml)")
    }
    let data = try read(path)
    let encoded: Data
    do {
      if let keyedFormat {
        encoded = try TypedstreamCommand.keyedArchive(fromTypedstream: data, format: keyedFormat)
      } else {
        encoded = try TypedstreamCommand.convert(data)
      }
    } catch let error as ArchiveError {
      throw inputError(path, error)
    }
    try AtomicFile.write(encoded, to: URL(fileURLWithPath: out))
  }

  /// `convert --format typedstream` of a keyed archive: its root object as a typedstream when its classes are
  /// Foundation's (exit 65 naming the class otherwise).
  mutating func convertToTypedstream(_ path: String, to out: String) throws {
    let data = try read(path)
    let encoded: Data
    do {
      encoded = try TypedstreamCommand.typedstream(fromKeyedArchive: data)
    } catch let error as ArchiveError {
      throw inputError(path, error)
    }
    try AtomicFile.write(encoded, to: URL(fileURLWithPath: out))
  }
}
