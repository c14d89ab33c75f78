import ArchiveCoding
import Foundation
import NibLoading
import PropertyList
import TestSupport
import Testing

/// Locates the compiled nibs of the shared corpus (never copied into the repository) and the counting script.
enum CompiledNibCorpus {
  /// The package root, from this file's path (Tests/NibLoadingTests/CompiledNibTestSupport.swift).
  static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  /// `../shared/corpus` relative to the package root.
  static let corpusRoot = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
  static let nibDirectory = corpusRoot.appendingPathComponent("nib")
  static let archivesDirectory = corpusRoot.appendingPathComponent("archives")
  static let isAvailable = FileManager.default.fileExists(atPath: nibDirectory.path)
  static let absentMessage =
    "corpus absent: expected compiled nibs at ../shared/corpus/nib relative to the package root"
  /// The independent table count.
  static let script = packageRoot.appendingPathComponent("Tests/Scripts/compiled_nib_table_counts.py")

  /// One compiled nib of the corpus.
  struct File: Sendable, CustomStringConvertible {
    /// The path below `../shared/corpus`.
    var name: String
    var url: URL
    var format: NibReader.Format
    var description: String { name }
  }

  /// Every NIBArchive file and keyed-archive nib under `nib/`, and the `nib-skim__*.nib` keyed nibs under
  /// `archives/`, sorted by name.
  static let files: [File] = {
    guard isAvailable else { return [] }
    var found: [File] = []
    for url in regularFiles(under: nibDirectory) + regularFiles(under: archivesDirectory) {
      let relative = String(url.standardizedFileURL.path.dropFirst(corpusRoot.standardizedFileURL.path.count + 1))
      if relative.hasPrefix("archives/"), !url.lastPathComponent.hasPrefix("nib-skim__") { continue }
      guard let data = try? Data(contentsOf: url) else { continue }
      if data.starts(with: Array("NIBArchive".utf8)) {
        found.append(File(name: relative, url: url, format: .nibArchive))
      } else if data.starts(with: Array("bplist00".utf8)), isKeyedArchive(data) {
        found.append(File(name: relative, url: url, format: .keyedArchive))
      }
    }
    return found.sorted { $0.name < $1.name }
  }()

  static func file(_ name: String) throws -> File {
    try #require(files.first { $0.name == name }, "\(name) is not in the corpus")
  }

  static func isKeyedArchive(_ data: Data) -> Bool {
    guard case .dictionary(let top)? = try? PropertyListReader.read(data) else { return false }
    return top["$archiver"]?.stringValue == "NSKeyedArchiver"
  }

  static func regularFiles(under directory: URL) -> [URL] {
    guard let enumerator = FileManager.default.enumerator(atPath: directory.path) else { return [] }
    var files: [URL] = []
    while let relative = enumerator.nextObject() as? String {
      let url = directory.appendingPathComponent(relative)
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
        files.append(url)
      }
    }
    return files
  }

  /// `python3` on the PATH.
  static let python: URL? = ProcessRunner.program(named: "python3")

  /// Runs the counting script over files and returns its per-file JSON objects, keyed by path.
  static func pythonTables(_ files: [File]) throws -> [String: [String: Any]] {
    let python = try #require(python)
    let process = Process()
    process.executableURL = python
    process.arguments = [script.path, "--with-application"] + files.map(\.url.path)
    let output = Pipe()
    // stderr goes to a file so that neither stream can fill a pipe and block the script.
    let errorURL = FileManager.default.temporaryDirectory.appendingPathComponent("compiled_nib-\(UUID()).err")
    _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: errorURL) }
    let errorHandle = try FileHandle(forWritingTo: errorURL)
    process.standardOutput = output
    process.standardError = errorHandle
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    try errorHandle.close()
    let errorText = (try? String(contentsOf: errorURL, encoding: .utf8)) ?? ""
    #expect(process.terminationStatus == 0, "compiled_nib_table_counts.py failed: \(errorText)")
    let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    return try #require(json["files"] as? [String: [String: Any]])
  }
}

/// One instantiation of a compiled nib: a generic owner, connections to a missing owner skipped, no registered
/// classes (everything falls back to ``GenericNibObject``), and the trace recorded.
final class CompiledNibRun {
  let table: ObjectTable
  let instance: NibInstance
  let events: [NibEvent]

  /// Instantiates bytes.
  /// - Parameter application: supply a generic stand-in for the Application placeholder (`NSApplication`).
  init(data: Data, name: String, application: Bool = false) throws {
    let nib = Nib(data: data, name: name, registry: ClassRegistry())
    table = try nib.objectTable()
    var events: [NibEvent] = []
    let external: [String: AnyObject] =
      application ? ["NSApplication": GenericNibObject(className: "NSApplication")] : [:]
    instance = try nib.instantiateGraph(
      owner: GenericNibObject(className: "Owner"),
      options: NibOptions(
        externalObjects: external, missingOwnerPolicy: .skipConnections, trace: { events.append($0) }, warning: nil))
    self.events = events
  }

  /// The trace lines (`decode 7 UIWindow`, `outlet 7 window 14`, …).
  var traceLines: [String] { events.map(\.description) }
}

/// Builds keyed-archive nibs object by object, for tests that need a structure no corpus file has.
struct KeyedNibBuilder {
  private(set) var objects: [PropertyListValue] = ["$null"]
  private var classIndex: [[String]: Int] = [:]

  /// A reference to `$objects[index]`.
  static func uid(_ index: Int) -> PropertyListValue { .uid(UInt64(index)) }

  /// Appends a plain entry (a string, number or data) and returns a reference to it.
  mutating func plain(_ value: PropertyListValue) -> PropertyListValue {
    objects.append(value)
    return Self.uid(objects.count - 1)
  }

  /// Appends a string entry.
  mutating func string(_ text: String) -> PropertyListValue { plain(.string(text)) }

  /// Reserves an entry for an object filled later (for cycles).
  mutating func reserve() -> Int {
    objects.append("$null")
    return objects.count - 1
  }

  /// Replaces an entry with any property-list value (for malformed archives).
  mutating func replace(_ index: Int, with value: PropertyListValue) { objects[index] = value }

  /// Fills a reserved entry with an archived object.
  mutating func fill(_ index: Int, classes: [String], _ fields: KeyValuePairs<String, PropertyListValue>) {
    let classRef = classReference(classes)
    var dictionary = PropertyListDictionary()
    dictionary["$class"] = classRef
    for (key, value) in fields { dictionary[key] = value }
    objects[index] = .dictionary(dictionary)
  }

  /// Appends an archived object of a class (with its superclasses) and returns a reference to it.
  mutating func object(
    _ classes: [String], _ fields: KeyValuePairs<String, PropertyListValue> = [:]
  )
    -> PropertyListValue
  {
    let index = reserve()
    fill(index, classes: classes, fields)
    return Self.uid(index)
  }

  /// Appends an `NSArray` of elements.
  mutating func array(_ elements: [PropertyListValue], className: String = "NSArray") -> PropertyListValue {
    object([className, "NSObject"], ["NS.objects": .array(elements)])
  }

  private mutating func classReference(_ classes: [String]) -> PropertyListValue {
    if let known = classIndex[classes] { return Self.uid(known) }
    objects.append(
      .dictionary(
        PropertyListDictionary(stringKeyed: [
          "$classname": .string(classes[0]), "$classes": .array(classes.map { .string($0) }),
        ])))
    classIndex[classes] = objects.count - 1
    return Self.uid(objects.count - 1)
  }

  /// The archive's bytes with a `$top` of the given entries.
  func data(top: [(String, PropertyListValue)]) -> Data {
    let archive = PropertyListDictionary(
      [
        (.string("$archiver"), .string("NSKeyedArchiver")), (.string("$version"), .integer(100_000)),
        (.string("$top"), .dictionary(PropertyListDictionary(top.map { (.string($0.0), $0.1) }))),
        (.string("$objects"), .array(objects)),
      ])
    return BinaryPropertyListWriter.write(.dictionary(archive))
  }

  /// A UIKit nib: the root lists with the given elements (the others empty).
  mutating func uiKitNib(
    objects listed: [PropertyListValue], topLevel: [PropertyListValue], connections: [PropertyListValue] = [],
    keyValuePairs: [PropertyListValue] = []
  ) -> Data {
    let objectsList = array(listed)
    let topList = array(topLevel)
    let connectionList = array(connections)
    let pairs = array(keyValuePairs)
    let empty = array([])
    return data(top: [
      ("UINibObjectsKey", objectsList), ("UINibTopLevelObjectsKey", topList), ("UINibConnectionsKey", connectionList),
      ("UINibKeyValuePairsKey", pairs), ("UINibVisibleWindowsKey", empty),
      ("UINibAccessibilityConfigurationsKey", empty),
    ])
  }

  /// A `UIProxyObject` with an identifier.
  mutating func proxy(_ identifier: String) -> PropertyListValue {
    let name = string(identifier)
    return object(["UIProxyObject", "NSObject"], ["UIProxiedObjectIdentifier": name])
  }

  /// A connection record of a class with `UISource`, `UIDestination`, `UILabel` and extra fields.
  mutating func connection(
    _ className: String, source: PropertyListValue, destination: PropertyListValue?, label: String,
    extra: [(String, PropertyListValue)] = []
  ) -> PropertyListValue {
    let index = reserve()
    let labelRef = string(label)
    var dictionary = PropertyListDictionary()
    dictionary["$class"] = classReference([className, "UIRuntimeConnection", "NSObject"])
    dictionary["UISource"] = source
    if let destination { dictionary["UIDestination"] = destination }
    dictionary["UILabel"] = labelRef
    for (key, value) in extra { dictionary[key] = value }
    objects[index] = .dictionary(dictionary)
    return Self.uid(index)
  }
}

extension ObjectTable {
  /// The record with a document id.
  func record(_ id: String) throws -> ObjectRecord {
    try #require(objects.first { $0.id == id }, "no object \(id)")
  }

  /// The id of a table index.
  func id(_ index: Int?) -> String? { index.map { objects[$0].id } }
}

extension Placeholder {
  /// The placeholder's kind as the Python count names it.
  var kindName: String {
    switch self {
    case .filesOwner: "filesOwner"
    case .firstResponder: "firstResponder"
    case .application: "application"
    case .external: "external"
    case .other: "other"
    }
  }
}
