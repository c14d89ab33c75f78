import ArchiveCoding
import Foundation

/// An Interface Builder document (XIB or storyboard) read into a format-neutral model: its platform, its objects
/// with their classes and properties, its placeholders, its connections and, for storyboards, its scenes.
///
/// Both the XIB 3.0 XML `<document>` format (Xcode 5 and later, storyboards 2.0 and 3.0 included) and the older
/// IBDocument `<archive>` format (versions 7.x and 8.x) are read into the same model. The rules are in
/// `Specs/XIBFormat.md`.
///
///     let document = try XIBDocument(contentsOfFile: "Main.xib")
///     for connection in document.connections where connection.kind == .outlet { … }
///     print(document.statistics)
public struct XIBDocument: Sendable {
  /// A XIB or a storyboard.
  public enum Kind: String, Sendable, Hashable {
    /// A XIB: one object graph.
    case xib
    /// A storyboard: scenes, each with its own objects.
    case storyboard
  }

  /// The XML dialect the document was written in.
  public enum Format: String, Sendable, Hashable {
    /// The `<document>` format of Xcode 5 and later (`version="3.0"`; early storyboards `2.0`).
    case document
    /// The older IBDocument `<archive>` format (`version="7.10"`, `8.00`…).
    case archive
  }

  /// The file name given when reading, used in diagnostics.
  public var fileName: String?
  /// XIB or storyboard.
  public var kind: Kind
  /// The XML dialect.
  public var format: Format
  /// The root element's `version` attribute (`3.0`, `7.10`).
  public var formatVersion: String
  /// The root element's `type` attribute (`com.apple.InterfaceBuilder3.CocoaTouch.XIB`).
  public var documentType: String
  /// The platform, from `targetRuntime` (or, when absent, from the document type).
  public var targetRuntime: XIBTargetRuntime
  /// The root element's attributes in document order.
  public var attributes: [XMLElementNode.Attribute]
  /// Every object, placeholders included, in document order (a parent before its children).
  public var objects: [XIBObject]
  /// Every connection in document order.
  public var connections: [XIBConnection]
  /// The scenes of a storyboard, in document order; empty for a XIB.
  public var scenes: [XIBScene]
  /// The storyboard's `initialViewController`: the id of the controller instantiated first.
  public var initialViewControllerID: String?
  /// Problems that did not stop the document from being read: unknown elements and the like.
  public var warnings: [XIBDiagnostic]

  private var indexByID: [String: Int]

  /// Reads a document from its bytes.
  /// - Parameters:
  ///   - bytes: the XML, UTF-8 encoded.
  ///   - fileName: the name shown in diagnostics (`Main.xib:12:9: error: …`).
  ///   - limits: the XML scanner's bounds.
  /// - Throws: `ArchiveError` in compiler style with the source line: `corruptData` for malformed XML, duplicate
  ///   ids, unknown connection kinds and connections to ids that do not exist; `unsupportedFormat` for a root
  ///   element that is not an Interface Builder document or an unsupported target runtime; `limitExceeded`.
  public init(parsing bytes: [UInt8], fileName: String? = nil, limits: XMLScanner.Limits = XMLScanner.Limits()) throws {
    let root = try XMLScanner(limits: limits).parse(bytes, fileName: fileName)
    self.fileName = fileName
    self.attributes = root.attributes
    self.documentType = root[attribute: XIBNames.Attribute.type] ?? ""
    self.formatVersion = root[attribute: XIBNames.Attribute.version] ?? ""
    let result: DocumentReadResult
    switch root.name {
    case XIBNames.Element.document:
      format = .document
      targetRuntime = try XIBDocument.runtime(of: root, bytes: bytes, fileName: fileName)
      let isStoryboard =
        documentType.contains("Storyboard") || root.children.contains { $0.name == XIBNames.Element.scenes }
      kind = isStoryboard ? .storyboard : .xib
      initialViewControllerID = root[attribute: XIBNames.Attribute.initialViewController]
      var reader = DocumentReader(source: bytes, fileName: fileName, runtime: targetRuntime, isStoryboard: isStoryboard)
      result = try reader.read(root)
    case XIBNames.Element.archive:
      format = .archive
      kind = .xib
      targetRuntime = try XIBDocument.runtime(of: root, bytes: bytes, fileName: fileName)
      initialViewControllerID = nil
      var reader = ArchiveDocumentReader(source: bytes, fileName: fileName, runtime: targetRuntime)
      result = try reader.read(root)
    default:
      throw SourceLocator.error(
        .unsupportedFormat, "not an Interface Builder document: the root element is <\(root.name)>",
        atByteOffset: root.byteOffset, in: bytes, fileName: fileName)
    }
    objects = result.objects
    indexByID = result.indexByID
    connections = result.connections
    scenes = result.scenes
    warnings = result.warnings
  }

  /// Reads a document from a file; diagnostics name the file by its last path component.
  /// - Parameters:
  ///   - path: the file's path.
  ///   - limits: the XML scanner's bounds.
  /// - Throws: `ArchiveError` with code `fileIO` when the file cannot be read, else as ``init(parsing:fileName:limits:)``.
  public init(contentsOfFile path: String, limits: XMLScanner.Limits = XMLScanner.Limits()) throws {
    let url = URL(fileURLWithPath: path)
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      throw ArchiveError(.fileIO, "cannot read the file", at: ArchiveError.Location(file: path))
    }
    try self.init(parsing: [UInt8](data), fileName: url.lastPathComponent, limits: limits)
  }

  /// The object with the given id, placeholders included.
  public func object(withID id: String) -> XIBObject? {
    indexByID[id].map { objects[$0] }
  }

  /// The placeholders, in document order.
  public var placeholders: [XIBObject] { objects.filter(\.isPlaceholder) }

  /// The non-placeholder objects at the top of the graph, in document order: what a nib load returns.
  public var topLevelObjects: [XIBObject] { objects.filter(\.isTopLevel) }

  /// The objects whose parent is the object with the given id, in document order.
  public func children(ofObjectWithID id: String) -> [XIBObject] {
    objects.filter { $0.parentID == id }
  }

  /// The connections whose source is the object with the given id, in document order.
  public func connections(fromObjectWithID id: String) -> [XIBConnection] {
    connections.filter { $0.sourceID == id }
  }

  /// The scene holding the object with the given id (its own or an ancestor's scene).
  public func scene(containingObjectWithID id: String) -> XIBScene? {
    guard let sceneID = object(withID: id)?.sceneID else { return nil }
    return scenes.first { $0.sceneID == sceneID }
  }

  /// The counts of the `keyed instantiate --stats` contract (XIB-060 … XIB-066).
  public var statistics: XIBStatistics {
    var statistics = XIBStatistics(
      objects: 0, placeholders: 0, topLevel: 0, outlets: 0, outletCollections: 0, actions: 0, segues: 0)
    for object in objects {
      if object.isPlaceholder {
        statistics.placeholders += 1
      } else {
        statistics.objects += 1
        if object.isTopLevel { statistics.topLevel += 1 }
      }
    }
    for connection in connections {
      switch connection.kind {
      case .outlet: statistics.outlets += 1
      case .outletCollection: statistics.outletCollections += 1
      case .action: statistics.actions += 1
      case .segue: statistics.segues += 1
      case .binding: break
      }
    }
    return statistics
  }

  /// XIB-010 / XIB-011: the platform of a document.
  private static func runtime(of root: XMLElementNode, bytes: [UInt8], fileName: String?) throws -> XIBTargetRuntime {
    let type = root[attribute: XIBNames.Attribute.type] ?? ""
    switch root[attribute: XIBNames.Attribute.targetRuntime] {
    case let value? where value.hasPrefix("iOS.CocoaTouch"):
      return .iOS
    case "AppleTV":
      return .tvOS
    case "MacOSX.Cocoa":
      return .macOS
    case let value?:
      throw SourceLocator.error(
        .unsupportedFormat, "target runtime \"\(value)\" is not supported (iOS, tvOS and macOS are)",
        atByteOffset: root.byteOffset, in: bytes, fileName: fileName)
    case nil:
      if type.contains(".AppleTV.") { return .tvOS }
      if type.contains(".CocoaTouch.") { return .iOS }
      if type.contains(".Cocoa.") { return .macOS }
      throw SourceLocator.error(
        .unsupportedFormat, "cannot tell the platform: no targetRuntime and document type \"\(type)\"",
        atByteOffset: root.byteOffset, in: bytes, fileName: fileName)
    }
  }
}
