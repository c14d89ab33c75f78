import ArchiveCoding
import Foundation
import Typedstream

/// A nib stored as a typedstream: NeXTSTEP's `data.nib` (`IBObjectData`) and early Mac OS X's `objects.nib`
/// (`NSIBObjectData`), read to its object graph and connections without instantiating its classes
/// (`Specs/NibLoading.md`, NIB-200 to NIB-204).
///
/// Class names are given as AppKit spells them: NeXTSTEP's names without the `NS` prefix (`TextField`,
/// `WindowTemplate`, `IBOutletConnector`) map to AppKit's (`NSTextField`, `NSWindowTemplate`,
/// `NSNibOutletConnector`), so the interface catalog's classes are found by the same names as in later nibs.
public struct TypedstreamNib: Sendable {
  /// One object of the nib's object table.
  public struct Object: Sendable, Hashable {
    /// The object's number in the stream (its `$id` in `keyed dump --raw --json`).
    public var ordinal: Int
    /// The class name as AppKit spells it.
    public var className: String
    /// The class name as the stream stores it.
    public var storedClassName: String
    /// The parent object's ordinal (nil for the root, File's Owner).
    public var parent: Int?
    /// The name Interface Builder shows (`File's Owner`, `MainMenu`), when the nib names the object.
    public var name: String?
    /// For a custom object (`NSCustomObject`), the class it stands for (`NSApplication`, `MyAppDelegate`).
    public var customClassName: String?
  }

  /// A connection: an outlet or a target-action pair.
  public struct Connection: Sendable, Hashable {
    /// Whether the connection sets an outlet or an action.
    public enum Kind: String, Sendable {
      /// `NSNibOutletConnector`: the source's outlet `label` is set to the destination.
      case outlet
      /// `NSNibControlConnector`: the source sends the action `label` to the destination (nil: the first
      /// responder).
      case action
    }
    /// The connection's kind.
    public var kind: Kind
    /// The source object's ordinal.
    public var source: Int?
    /// The destination object's ordinal (nil for the first responder).
    public var destination: Int?
    /// The outlet or action name.
    public var label: String

    /// Creates a connection.
    public init(kind: Kind, source: Int?, destination: Int?, label: String) {
      self.kind = kind
      self.source = source
      self.destination = destination
      self.label = label
    }
  }

  /// The stream's byte order (big-endian for NeXT and PowerPC machines).
  public var byteOrder: TypedstreamByteOrder
  /// The stream's system version (930 for NeXTSTEP 3.x, 1000 for Mac OS X).
  public var systemVersion: Int64
  /// The class of the nib's data object as AppKit spells it (`NSIBObjectData`).
  public var dataClassName: String
  /// The root object (File's Owner).
  public var root: Int?
  /// The nib's objects, in the order of its object table (the root first).
  public var objects: [Object]
  /// The connections, in the nib's order.
  public var connections: [Connection]

  /// Reads a nib's typedstream.
  /// - Throws: ``/ArchiveCoding/ArchiveError``: the stream's errors; `unsupportedFormat` when its root is not a nib's
  ///   data object; `corruptData` naming the group when the data object does not have the layout of one.
  public init(data: Data) throws {
    let archive = try TypedstreamReader.read(data)
    let decoder = try TypedstreamDecoder(archive)
    byteOrder = archive.byteOrder
    systemVersion = archive.systemVersion
    guard case .object(.reference(let dataOrdinal)?)? = decoder.topLevel.first else {
      throw ArchiveError(.unsupportedFormat, "a nib's typedstream starts with its data object")
    }
    let stored = decoder.className(of: dataOrdinal)
    dataClassName = Self.appKitName(stored)
    guard dataClassName == "NSIBObjectData" else {
      throw ArchiveError(
        .unsupportedFormat, "the root object is a \(stored), not a nib's data object (NSIBObjectData, IBObjectData)")
    }
    var reader = TypedstreamNibReader(decoder: decoder, ordinal: dataOrdinal)
    let layout = try reader.read()
    root = layout.root
    connections = layout.connections
    var objects: [Object] = []
    var seen: Set<Int> = []
    func add(_ ordinal: Int?, parent: Int?) {
      guard let ordinal, seen.insert(ordinal).inserted else { return }
      let storedName = decoder.className(of: ordinal)
      objects.append(
        Object(
          ordinal: ordinal, className: Self.appKitName(storedName), storedClassName: storedName, parent: parent,
          name: layout.names[ordinal], customClassName: reader.customClassName(ordinal)))
    }
    add(layout.root, parent: nil)
    for (child, parent) in layout.parents { add(child, parent: parent) }
    self.objects = objects
  }

  /// NeXTSTEP's class names without the `NS` prefix, and the few that AppKit renamed, as AppKit spells them.
  static let renamed: [String: String] = [
    "Object": "NSObject", "List": "NSMutableArray", "NXImage": "NSImage", "IBObjectData": "NSIBObjectData",
    "IBControlConnector": "NSNibControlConnector", "IBOutletConnector": "NSNibOutletConnector",
    "IBConnector": "NSNibConnector", "NSIBControlConnector": "NSNibControlConnector",
    "NSIBOutletConnector": "NSNibOutletConnector", "NSIBConnector": "NSNibConnector", "NXBrowser": "NSBrowser",
  ]

  /// A stored class name as AppKit spells it: renamed classes by `renamed`, other names without the `NS` prefix
  /// with it (`TextField` is `NSTextField`), and names with it as they are.
  public static func appKitName(_ stored: String) -> String {
    if let name = renamed[stored] { return name }
    if stored.hasPrefix("NS") || stored.isEmpty { return stored }
    return "NS" + stored
  }
}
