import ArchiveCoding
import CompiledNib
import Foundation
import Synchronization
import XIB

/// A storyboard: scenes that each load as a nib, from a `.storyboard` document or a compiled `.storyboardc`
/// folder (its `Info.plist` maps identifiers to scene nibs), like `UIStoryboard` (NIB-080).
///
///     let storyboard = try Storyboard(contentsOf: url)
///     let settings = try storyboard.instantiateViewController(withIdentifier: "Settings")
///     let first = try storyboard.instantiateInitialViewController()
///
/// Each scene's nib is parsed once and kept; every instantiation builds a fresh graph. Segues are recorded on
/// their source controllers as connections.
public final class Storyboard: Sendable {
  private enum Source: Sendable {
    case document(scenes: [String: Scene])
    case compiled(CompiledStoryboard)
  }

  /// A scene's nibs: the controller's, and the view's when the scene was cut in two (NIB-311), with the document id
  /// of the object each upstream placeholder of the view's nib stands for. (An Apple-compiled controller names its
  /// view's nib itself, ``viewNib(named:)``.)
  private struct Scene: Sendable {
    let controller: Nib
    /// The document id of the scene's controller, when the scene names one.
    let controllerID: String?
    let view: (nib: Nib, upstream: [String: String])?
    let prototypes: [Prototype]
  }

  private let source: Source
  private let registry: ClassRegistry
  /// The folder the storyboard is in, where storyboard references look for other storyboards.
  private let directory: URL
  /// Where each scene's identified segues lead, by scene identifier and segue identifier.
  private let segueDestinations: [String: [String: SegueDestination]]
  /// Where each segue to another scene leads, by the segue's document id: segues a control or a cell triggers
  /// mostly have no identifier (NIB-131).
  private let segueDestinationsByID: [String: SegueDestination]
  /// Each scene's prototype cells: the table view's id, the cell's reuse identifier and a nib of the cell.
  private let prototypes: [String: [Prototype]]

  private struct Prototype: Sendable {
    let tableViewID: String
    let reuseIdentifier: String
    let nib: Nib
    /// The prototype as a scene's view registers it.
    var entry: (tableViewID: String, reuseIdentifier: String, nib: Nib) { (tableViewID, reuseIdentifier, nib) }
  }
  /// Each compiled scene's nibs and the prototype cells cut from it, made on the scene's first instantiation.
  private let compiledScenes = Mutex<[String: Scene]>([:])
  /// The view nibs of an Apple-compiled storyboard (`<controller>-view-<view>.nib`), by name, parsed once.
  private let viewNibs = Mutex<[String: Nib]>([:])

  /// Where a segue leads: a scene of the same storyboard, or a scene (or the initial one) of another storyboard
  /// through a storyboard reference.
  public enum SegueDestination: Sendable, Hashable {
    /// A scene of this storyboard, by identifier.
    case scene(String)
    /// A storyboard reference: the other storyboard's name (`nil`: this one) and the scene's identifier (`nil`: its
    /// initial view controller).
    case reference(storyboardName: String?, identifier: String?)
  }
  /// The identifier of the initial view controller, if the storyboard has one.
  public let initialViewControllerIdentifier: String?
  /// The identifiers of the view controllers that can be instantiated.
  public let identifiers: [String]

  /// Opens a `.storyboard` document or a `.storyboardc` folder.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` when the file cannot be read or is not a storyboard.
  public init(contentsOf url: URL, registry: ClassRegistry = .shared) throws {
    self.registry = registry
    directory = url.deletingLastPathComponent()
    if CompiledStoryboard.isStoryboard(at: url) {
      let compiled = try CompiledStoryboard(contentsOf: url)
      source = .compiled(compiled)
      segueDestinations = [:]
      segueDestinationsByID = [:]
      prototypes = [:]
      initialViewControllerIdentifier = compiled.entryPointIdentifier
      identifiers = compiled.nibNamesByIdentifier.keys.sorted()
      return
    }
    let document = try XIBDocument(contentsOfFile: url.path)
    guard document.kind == .storyboard else {
      throw ArchiveError(.unsupportedFormat, "not a storyboard", at: .init(file: url.lastPathComponent))
    }
    let table = document.objectTable()
    var scenes: [String: Scene] = [:]
    var initial: String?
    let found = try Self.scenes(of: document, table: table)
    let prototypes = Self.prototypes(of: table, scenes: found.map { ($0.0, $0.2) }, registry: registry)
    for ((identifier, scene, _), sceneTable) in zip(found, table.restricted(toEach: found.map(\.2))) {
      scenes[identifier] = Self.scene(
        sceneTable, identifier: identifier, controller: scene.controllerID.flatMap(sceneTable.index(ofID:)),
        controllerID: scene.controllerID, prototypes: prototypes[identifier] ?? [], registry: registry)
      if let controller = scene.controllerID, controller == document.initialViewControllerID { initial = identifier }
    }
    source = .document(scenes: scenes)
    initialViewControllerIdentifier = initial
    identifiers = scenes.keys.sorted()
    (segueDestinations, segueDestinationsByID) = Self.segueDestinations(
      of: table, scenes: found.map { ($0.0, $0.1.controllerID, $0.2) })
    self.prototypes = prototypes
  }

  /// A scene's nibs: the scene cut into its controller's nib and its view's when the controller has a view
  /// (NIB-311), else the whole scene as the controller's nib (an Apple-compiled controller names its view's nib
  /// instead, `UINibName`).
  private static func scene(
    _ table: ObjectTable, identifier: String, controller: Int?, controllerID: String?, prototypes: [Prototype],
    registry: ClassRegistry
  ) -> Scene {
    guard let controller, let parts = table.splittingView(of: controller) else {
      return Scene(
        controller: Nib(table: table, name: identifier, registry: registry), controllerID: controllerID, view: nil,
        prototypes: prototypes)
    }
    return Scene(
      controller: Nib(table: parts.controller, name: identifier, registry: registry), controllerID: controllerID,
      view: (Nib(table: parts.view, name: "\(identifier) view", registry: registry), parts.upstream),
      prototypes: prototypes)
  }

  /// The prototype cells of each scene's table views (a table view's `prototypes`), each cut from the document
  /// with the objects it refers to, as a nib of its own whose top-level object is the cell (NIB-102).
  private static func prototypes(
    of table: ObjectTable, scenes: [(identifier: String, indexes: [Int])], registry: ClassRegistry
  ) -> [String: [Prototype]] {
    var found: [(scene: String, tableViewID: String, reuseIdentifier: String, objects: [Int])] = []
    for scene in scenes {
      for index in scene.indexes {
        let object = table.objects[index]
        guard let field = object.fields.first(where: { $0.key == "prototypes" }), case .array(let cells) = field.value
        else { continue }
        for case .object(let cell) in cells where table.objects.indices.contains(cell) {
          guard
            let reuse = table.objects[cell].fields.first(where: { $0.key == "reuseIdentifier" }),
            case .string(let identifier) = reuse.value
          else { continue }
          found.append((scene.identifier, object.id, identifier, reachable(from: cell, in: table)))
        }
      }
    }
    // One pass over the document for all the cells (NIB-080's linearity).
    var result: [String: [Prototype]] = [:]
    for (prototype, var part) in zip(found, table.restricted(toEach: found.map(\.objects))) {
      part.topLevel = [0]
      let nib = Nib(
        table: part, name: "\(prototype.scene) prototype \(prototype.reuseIdentifier)", registry: registry)
      result[prototype.scene, default: []].append(
        Prototype(tableViewID: prototype.tableViewID, reuseIdentifier: prototype.reuseIdentifier, nib: nib))
    }
    return result
  }

  /// `start` and the objects its fields refer to, directly or not, `start` first.
  private static func reachable(from start: Int, in table: ObjectTable) -> [Int] {
    var order = [start]
    var seen: Set<Int> = [start]
    var next = 0
    func visit(_ value: FieldValue) {
      switch value {
      case .object(let index):
        if table.objects.indices.contains(index), seen.insert(index).inserted { order.append(index) }
      case .array(let elements): elements.forEach(visit)
      case .record(_, let fields): fields.forEach { visit($0.value) }
      default: break
      }
    }
    while next < order.count {
      table.objects[order[next]].fields.forEach { visit($0.value) }
      next += 1
    }
    return order
  }

  /// Where the identified segues of each scene lead, and where every segue with a document id leads, from the
  /// whole document's connections (a scene's own table has lost its references to other scenes).
  private static func segueDestinations(
    of table: ObjectTable, scenes: [(identifier: String, controllerID: String?, indexes: [Int])]
  ) -> (byScene: [String: [String: SegueDestination]], byID: [String: SegueDestination]) {
    var sceneOfObject: [Int: String] = [:]
    var sceneOfController: [String: String] = [:]
    for scene in scenes {
      for index in scene.indexes { sceneOfObject[index] = scene.identifier }
      if let controller = scene.controllerID { sceneOfController[controller] = scene.identifier }
    }
    let referencePrefix = "storyboardReference:"
    var destinations: [String: [String: SegueDestination]] = [:]
    var byID: [String: SegueDestination] = [:]
    for connection in table.connections where connection.kind == .segue {
      guard let from = sceneOfObject[connection.source], let to = connection.destination,
        table.objects.indices.contains(to)
      else { continue }
      let object = table.objects[to]
      let destination: SegueDestination
      // A reference's scene names it as its controller: the reference is read first.
      if case .other(let name) = object.placeholder, name.hasPrefix(referencePrefix) {
        let reference = name.dropFirst(referencePrefix.count)
        let parts = reference.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        let storyboard = parts.first.map(String.init).flatMap { $0.isEmpty ? nil : $0 }
        let identifier = parts.count > 1 && !parts[1].isEmpty ? String(parts[1]) : nil
        destination = .reference(storyboardName: storyboard, identifier: identifier)
      } else if let scene = sceneOfController[object.id] {
        destination = .scene(scene)
      } else {
        continue
      }
      if !connection.label.isEmpty { destinations[from, default: [:]][connection.label] = destination }
      if let id = connection.id { byID[id] = destination }
    }
    return (destinations, byID)
  }

  /// Where the segue of an identifier leads from a scene, or `nil` when the scene has no such segue to another
  /// scene (NIB-100).
  public func destination(ofSegue identifier: String, fromScene scene: String) -> SegueDestination? {
    segueDestinations[scene]?[identifier]
  }

  /// Instantiates the view controller a segue leads to from a scene: a scene of this storyboard, or one of the
  /// storyboard a reference names, found next to this one (NIB-100).
  /// - Returns: the controller, or `nil` when the scene has no such segue to another scene.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` when the destination cannot be found or loaded.
  public func instantiateDestination(
    ofSegue identifier: String, fromScene scene: String, options: NibOptions = NibOptions()
  ) throws -> AnyObject? {
    guard let destination = destination(ofSegue: identifier, fromScene: scene) else { return nil }
    return try instantiate(destination, ofSegue: identifier, options: options)
  }

  /// Instantiates the view controller a segue leads to from a scene, found by its identifier or, when it has
  /// none, by its document id (a segue a control or a cell triggers), or by the scene a compiled segue names
  /// (NIB-131, NIB-136).
  /// - Returns: the controller, or `nil` when the storyboard has no such segue to another scene.
  /// - Throws: ``ArchiveError`` when the destination cannot be found or loaded.
  package func instantiateDestination(
    of segue: SegueTemplate, fromScene scene: String, options: NibOptions = NibOptions()
  ) throws -> AnyObject? {
    let found =
      segue.identifier.flatMap { destination(ofSegue: $0, fromScene: scene) }
      ?? segue.id.flatMap { segueDestinationsByID[$0] }
      ?? segue.destinationIdentifier.map(SegueDestination.scene)
    guard let found else { return nil }
    return try instantiate(found, ofSegue: segue.identifier ?? segue.id ?? "", options: options)
  }

  private func instantiate(
    _ destination: SegueDestination, ofSegue identifier: String, options: NibOptions
  ) throws -> AnyObject {
    switch destination {
    case .scene(let target): return try instantiateViewController(withIdentifier: target, options: options)
    case .reference(let name, let target):
      let storyboard =
        try name.map {
          try Storyboard(
            contentsOf: NibBundle(resourceURL: directory).url(forStoryboardNamed: $0), registry: registry)
        } ?? self
      if let target { return try storyboard.instantiateViewController(withIdentifier: target, options: options) }
      guard let initial = try storyboard.instantiateInitialViewController(options: options) else {
        throw ArchiveError(
          .valueNotFound,
          "the segue \"\(identifier)\" leads to the storyboard \"\(name ?? "")\", which has no initial view controller")
      }
      return initial
    }
  }

  /// The table with each segue to another scene's view controller given that scene's identifier
  /// (`ConnectionRecord.destinationIdentifier`), so that the scene, compiled on its own, keeps where its segues
  /// lead (NIB-136). Segues to storyboard references are left as they are.
  package static func namingSegueDestinations(
    in table: ObjectTable, scenes: [(String, XIBScene, [Int])]
  ) -> ObjectTable {
    var sceneOfController: [String: String] = [:]
    for (identifier, scene, _) in scenes {
      if let controller = scene.controllerID { sceneOfController[controller] = identifier }
    }
    var table = table
    for index in table.connections.indices where table.connections[index].kind == .segue {
      guard let to = table.connections[index].destination, table.objects.indices.contains(to),
        table.objects[to].placeholder == nil, let scene = sceneOfController[table.objects[to].id]
      else { continue }
      table.connections[index].destinationIdentifier = scene
    }
    return table
  }

  /// The scenes of a storyboard document: an identifier (the storyboard identifier, or, as Apple's tools name the
  /// scene, `<controller's UIKit class>-<controller id>` when it has none or an empty one:
  /// `UIViewController-BYZ-38-t0r`, `UINavigationController-4yX-ry-qSy`), the scene, and the indexes of its objects
  /// in the document's table.
  /// - Throws: `corruptData` when two scenes have the same identifier (Interface Builder refuses it too; one scene
  ///   would hide the other).
  package static func scenes(of document: XIBDocument, table: ObjectTable) throws -> [(String, XIBScene, [Int])] {
    var indexByID: [String: Int] = [:]
    for (index, object) in table.objects.enumerated() { indexByID[object.id] = index }
    var indexesByScene: [String: [Int]] = [:]
    for (index, object) in document.objects.enumerated() {
      if let scene = object.sceneID { indexesByScene[scene, default: []].append(index) }
    }
    var result: [(String, XIBScene, [Int])] = []
    var lineByIdentifier: [String: Int] = [:]
    for scene in document.scenes {
      let indexes = indexesByScene[scene.sceneID] ?? scene.objectIDs.compactMap { indexByID[$0] }
      guard !indexes.isEmpty else { continue }
      let named = scene.storyboardIdentifier.flatMap { $0.isEmpty ? nil : $0 }
      let identifier =
        named
        ?? scene.controllerID.map { id in
          let className = indexByID[id].map { table.objects[$0].baseClassName } ?? "UIViewController"
          return "\(className.isEmpty ? "UIViewController" : className)-\(id)"
        } ?? scene.sceneID
      if let first = lineByIdentifier[identifier] {
        throw ArchiveError(
          .corruptData,
          "the scenes at lines \(first) and \(scene.line) both have the identifier \"\(identifier)\"",
          at: .init(file: document.fileName, line: scene.line))
      }
      lineByIdentifier[identifier] = scene.line
      result.append((identifier, scene, indexes))
    }
    return result
  }

  /// Instantiates the initial view controller, or returns `nil` when the storyboard has none.
  public func instantiateInitialViewController(options: NibOptions = NibOptions()) throws -> AnyObject? {
    guard let identifier = initialViewControllerIdentifier else { return nil }
    return try instantiateViewController(withIdentifier: identifier, options: options)
  }

  /// How many scene instantiations are nested in this task: a scene's relationship and embed segues instantiate
  /// their destinations while it loads, and a storyboard whose segues form a cycle would never end (NIB-137).
  @TaskLocal private static var nesting = 0
  /// The deepest nesting of scene instantiations: 64.
  public static let maximumNesting = 64

  /// Instantiates the view controller of a scene, with a fresh graph each call, and the controllers its
  /// relationship and embed segues load with it (NIB-137).
  /// - Throws: ``/ArchiveCoding/ArchiveError`` (`valueNotFound`) for an unknown identifier, (`limitExceeded`) when
  ///   scenes load each other more than ``maximumNesting`` deep, or the loading error.
  public func instantiateViewController(
    withIdentifier identifier: String, options: NibOptions = NibOptions()
  ) throws
    -> AnyObject
  {
    guard Self.nesting < Self.maximumNesting else {
      throw ArchiveError(
        .limitExceeded,
        "the scene \"\(identifier)\" loads scenes nested more than \(Self.maximumNesting) deep through relationship and embed segues: the storyboard's segues form a cycle"
      )
    }
    return try Self.$nesting.withValue(Self.nesting + 1) { try instantiateScene(identifier, options: options) }
  }

  private func instantiateScene(_ identifier: String, options: NibOptions) throws -> AnyObject {
    var sceneOptions = options
    if sceneOptions.missingOwnerPolicy == .fail { sceneOptions.missingOwnerPolicy = .skipConnections }
    let scene: Scene
    switch source {
    case .document(let scenes):
      guard let found = scenes[identifier] else { throw unknown(identifier) }
      scene = found
    case .compiled(let compiled):
      scene = try compiledScene(identifier, of: compiled)
    }
    // Apple's compiled controllers connect their `storyboard` outlet to the storyboard's placeholder.
    sceneOptions.externalObjects[CompiledNibWireNames.storyboardPlaceholderIdentifier] = self
    let instance = try scene.controller.instantiateGraph(owner: nil, options: sceneOptions)
    let objects = instance.objectsByID
    guard let controller = scene.controllerID.flatMap({ objects[$0] }) ?? instance.topLevelObjects.first else {
      throw unknown(identifier)
    }
    let view: StoryboardSceneView?
    if let (nib, upstream) = scene.view {
      view = StoryboardSceneView(
        nib: nib, externalObjects: upstream.compactMapValues { objects[$0] }, prototypes: scene.prototypes.map(\.entry))
    } else {
      // An Apple-compiled controller loads its view's nib by name from the storyboard (``viewNib(named:)``).
      register(scene.prototypes, in: instance)
      view = nil
    }
    try (controller as? any StoryboardSceneAdopting)?.adoptStoryboardScene(
      StoryboardScene(storyboard: self, identifier: identifier, options: options, view: view))
    return controller
  }

  /// A nib of a compiled storyboard's folder by name, parsed once: the view's nib an Apple-compiled scene's
  /// controller names (`UINibName`, `<controller id>-view-<view id>`) and loads its view from, with the controller as
  /// File's Owner (NIB-312).
  /// - Throws: ``ArchiveError`` when the storyboard is a document (its scenes' views come with them), or the name is
  ///   not a single path component.
  public func viewNib(named name: String) throws -> Nib {
    guard case .compiled(let compiled) = source else {
      throw ArchiveError(
        .valueNotFound, "the storyboard document has no view nib named \"\(name)\": its scenes hold their views")
    }
    if let nib = viewNibs.withLock({ $0[name] }) { return nib }
    // A name from the file: one path component, so that it cannot lead out of the storyboard's folder.
    guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else {
      throw ArchiveError(
        .corruptData, "expected the view nib name to be a single path component, found \"\(name)\"",
        at: .init(keyPath: CompiledNibWireNames.uiNibName))
    }
    let nib = Nib(contentsOf: compiled.nibURL(named: name), registry: registry)
    return viewNibs.withLock { nibs in
      if let existing = nibs[name] { return existing }
      nibs[name] = nib
      return nib
    }
  }

  /// Hands each prototype cell's nib to its table view in a scene's fresh graph (NIB-102).
  private func register(_ prototypes: [Prototype], in instance: NibInstance) {
    guard !prototypes.isEmpty else { return }
    let objects = instance.objectsByID
    for prototype in prototypes {
      (objects[prototype.tableViewID] as? any PrototypeRegistering)?.register(
        prototype.nib, forCellReuseIdentifier: prototype.reuseIdentifier)
    }
  }

  /// A compiled scene's nibs, parsed once, cut as a document's scenes are (NIB-311) when the controller's nib holds
  /// its view (the scenes `keyed compile` writes), with the prototype cells its table views keep in their `prototypes`;
  /// Apple's compiled scenes keep their view in a nib of its own (`UINibName`) and archive their cells' nibs in the
  /// table view instead, which registers them itself (NIB-106).
  private func compiledScene(_ identifier: String, of compiled: CompiledStoryboard) throws -> Scene {
    if let scene = compiledScenes.withLock({ $0[identifier] }) { return scene }
    guard let url = compiled.nibURL(forIdentifier: identifier) else { throw unknown(identifier) }
    let table = try Nib(contentsOf: url, registry: registry).objectTable()
    let prototypes =
      Self.prototypes(of: table, scenes: [(identifier, Array(table.objects.indices))], registry: registry)[identifier]
      ?? []
    let controller = table.topLevel.first { table.objects.indices.contains($0) && table.objects[$0].placeholder == nil }
    let scene = Self.scene(
      table, identifier: identifier, controller: controller, controllerID: controller.map { table.objects[$0].id },
      prototypes: prototypes, registry: registry)
    return compiledScenes.withLock { scenes in
      if let existing = scenes[identifier] { return existing }
      scenes[identifier] = scene
      return scene
    }
  }

  private func unknown(_ identifier: String) -> ArchiveError {
    ArchiveError(
      .valueNotFound,
      "the storyboard has no view controller with the identifier \"\(identifier)\" (it has: \(identifiers.prefix(8).joined(separator: ", ")))"
    )
  }
}
