import ArchiveCoding

/// The nib-level structure laid out in a NIBArchive's object graph: which objects are top-level, which are
/// connections (rules NIBA-024 to NIBA-027). Indices are object indices of the ``NIBArchiveDocument``.
public struct NIBArchiveNibStructure: Hashable, Sendable {
  /// Which framework's key layout the root object uses: UIKit's (`UINibTopLevelObjectsKey`, `UINibObjectsKey`,
  /// `UINibConnectionsKey`, …) or AppKit's (`IB.objectdata`, an `NSIBObjectData` object).
  public typealias Flavor = ObjectTable.Platform

  /// The root key layout.
  public var flavor: Flavor
  /// The root object (always 0).
  public var rootObjectIndex: Int
  /// macOS: the `NSIBObjectData` object; `nil` for UIKit.
  public var objectDataIndex: Int?
  /// UIKit: the `UINibTopLevelObjectsKey` array, placeholders included. AppKit: the `NSObjectsKeys` objects whose
  /// parent in `NSObjectsValues` is `NSRoot`, in stored order.
  public var topLevelObjects: [Int]
  /// UIKit: the `UINibObjectsKey` array (every object of the document, placeholders included). AppKit: the
  /// `NSObjectsKeys` array (every object with a parent; `NSRoot` itself is not in it).
  public var objects: [Int]
  /// The connection records (`UINibConnectionsKey` / `NSConnections`), in stored order.
  public var connections: [NIBArchiveConnection]
  /// The windows made visible at load (`UINibVisibleWindowsKey` / `NSVisibleWindows`).
  public var visibleWindows: [Int]
  /// The File's Owner placeholder: UIKit, the top-level `UIProxyObject` whose identifier is `IBFilesOwner`; AppKit,
  /// `NSRoot`.
  public var filesOwner: Int?

  /// Creates a structure.
  /// - Parameters:
  ///   - flavor: the root key layout.
  ///   - rootObjectIndex: the root object.
  ///   - objectDataIndex: macOS: the `NSIBObjectData` object.
  ///   - topLevelObjects: the top-level objects.
  ///   - objects: the document's objects.
  ///   - connections: the connection records.
  ///   - visibleWindows: the windows made visible at load.
  ///   - filesOwner: the File's Owner placeholder.
  public init(
    flavor: Flavor, rootObjectIndex: Int, objectDataIndex: Int?, topLevelObjects: [Int], objects: [Int],
    connections: [NIBArchiveConnection], visibleWindows: [Int], filesOwner: Int?
  ) {
    self.flavor = flavor
    self.rootObjectIndex = rootObjectIndex
    self.objectDataIndex = objectDataIndex
    self.topLevelObjects = topLevelObjects
    self.objects = objects
    self.connections = connections
    self.visibleWindows = visibleWindows
    self.filesOwner = filesOwner
  }

  /// The number of connection records of a kind.
  /// - Parameter kind: the kind to count.
  /// - Returns: how many of ``connections`` have that kind.
  public func connectionCount(of kind: NIBArchiveConnection.Kind) -> Int {
    connections.reduce(0) { $0 + ($1.kind == kind ? 1 : 0) }
  }
}
