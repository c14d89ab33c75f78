import ArchiveCoding
import CompiledNib
import Foundation
import InterfaceObjects
import KeyedArchive
import NibLoading

/// `keyed render FILE -o OUT.svg|OUT.html [--scene ID]` (CLI-090…CLI-093): loads the document with the catalog
/// and draws the loaded graph.
struct RenderCommand: Command {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "render", abstract: "Draw a XIB, storyboard or nib as SVG, or as HTML with its objects and connections.",
      overview: """
        Draw a XIB, storyboard or compiled nib as its designer would recognise it: every view at its frame,
        texts, colours, controls, placeholders beside the canvas, storyboard scenes side by side with their segues.
        """)
  }

  @Argument("FILE", help: "A .xib, .storyboard or .nib file, a .nib or .storyboardc folder, or - for standard input.")
  var path: String
  @Option(
    "-o", "--output", value: "OUT", usage: "OUT.svg|OUT.html",
    help: """
      The picture to write: .svg (standalone), or .html (the drawing with the object tree
      and the connection list; each entry highlights its objects in the drawing).
      """)
  var out: String
  @Option(
    "--scene", value: "ID",
    help: "Draw one scene: a controller's id or storyboard identifier, a window's title, a view's id.")
  var scene: String?

  func run(_ context: inout Context) throws {
    try context.render(path, to: out, scene: scene)
  }
}

extension Context {
  /// Draws `path` into `out` (an `.svg` or `.html` file), one scene when `scene` names it.
  mutating func render(_ path: String, to out: String, scene: String?) throws {
    let isHTML = out.lowercased().hasSuffix(".html") || out.lowercased().hasSuffix(".htm")
    guard isHTML || out.lowercased().hasSuffix(".svg") else {
      throw UsageError(message: "the output '\(out)' must end in .svg or .html")
    }
    if path != "-", CompiledStoryboard.isStoryboard(at: URL(fileURLWithPath: path)) {
      try write(try compiledStoryboard(path, scene: scene), of: path, to: out, html: isHTML)
      return
    }
    let table = try readObjectTable(path)
    // The catalog alone: a custom class is drawn as its base class, and no app code runs while drawing.
    let (registry, options) = drawingSetup(table)
    let sketch: Sketch
    do {
      let instance = try drawable(table, registry: registry, options: options, path: path)
      var builder = SketchBuilder(table: table, instance: instance)
      sketch = try builder.sketch(scene: scene)
    } catch let error as ArchiveError {
      throw inputError(path, error)
    } catch let error as SketchBuilder.UnknownScene {
      let names = error.available.isEmpty ? "none" : error.available.joined(separator: ", ")
      throw UsageError(message: "no scene '\(error.requested)' in \(name(path)) (scenes: \(names))")
    }
    try write(sketch, of: path, to: out, html: isHTML)
  }

  /// Writes the picture atomically and says where.
  private mutating func write(_ sketch: Sketch, of path: String, to out: String, html: Bool) throws {
    let title = path == "-" ? "<stdin>" : URL(fileURLWithPath: path).lastPathComponent
    let text = html ? SketchHTMLWriter.html(sketch, title: title) : SketchSVGWriter.svg(sketch)
    try AtomicFile.write(Data(text.utf8), to: URL(fileURLWithPath: out))
    let scenes = sketch.scenes.count == 1 ? "1 scene" : "\(sketch.scenes.count) scenes"
    output += "\(name(path)): \(scenes) drawn to \(out)\n"
  }

  /// The catalog-only registry and the options every drawing loads with: File's Owner and external objects are
  /// generic objects, missing-owner connections are skipped, and warnings are not printed (every custom class
  /// falls back to its base class here, by design).
  private func drawingSetup(_ table: ObjectTable) -> (ClassRegistry, NibOptions) {
    let registry = ClassRegistry()
    InterfaceCatalog.register(in: registry)
    var options = NibOptions(missingOwnerPolicy: .skipConnections)
    options.warning = { _ in }
    for object in table.objects {
      if case .external(let identifier)? = object.placeholder {
        options.externalObjects[identifier] = GenericNibObject(className: object.className)
      }
    }
    return (registry, options)
  }

  /// A compiled storyboard (`.storyboardc`): each view controller's scene, the entry point first then by
  /// identifier, drawn from its view nib (the controller's `UINibName`) or from the controller's nib, side by
  /// side (CLI-093).
  private mutating func compiledStoryboard(_ path: String, scene requested: String?) throws -> Sketch {
    let storyboard: CompiledStoryboard
    do {
      storyboard = try CompiledStoryboard(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw inputError(path, error)
    }
    var identifiers = storyboard.nibNamesByIdentifier.keys.sorted()
    if let entry = storyboard.entryPointIdentifier, let index = identifiers.firstIndex(of: entry) {
      identifiers.insert(identifiers.remove(at: index), at: 0)
    }
    if let requested {
      guard identifiers.contains(requested) else {
        throw UsageError(
          message: "no scene '\(requested)' in \(name(path)) (scenes: \(identifiers.joined(separator: ", ")))")
      }
      identifiers = [requested]
    }
    var merged = Sketch()
    var prefixes: Set<String> = []
    for identifier in identifiers.prefix(SketchBuilder.maximumScenes) {
      guard let controllerURL = storyboard.nibURL(forIdentifier: identifier) else { continue }
      let controllerTable = try readObjectTable(controllerURL.path)
      var sceneTable = controllerTable
      // The view nib of the scene's own controller (a top-level object), not of a child a container embeds.
      let viewNib = controllerTable.topLevel.lazy.compactMap { index -> String? in
        guard controllerTable.objects.indices.contains(index) else { return nil }
        let object = controllerTable.objects[index]
        return NibRecord(name: object.className, fields: object.fields).string("UINibName")
      }.first
      if let viewNib, FileManager.default.fileExists(atPath: storyboard.nibURL(named: viewNib).path) {
        sceneTable = try readObjectTable(storyboard.nibURL(named: viewNib).path)
      }
      let (registry, options) = drawingSetup(sceneTable)
      var part: Sketch
      do {
        var builder = SketchBuilder(
          table: sceneTable, instance: try drawable(sceneTable, registry: registry, options: options, path: path))
        part = try builder.sketch(scene: nil)
      } catch let error as ArchiveError {
        throw inputError(path, error)
      }
      for index in part.scenes.indices {
        part.scenes[index].caption = "\(identifier) (\(part.scenes[index].className))"
      }
      // Ids are prefixed with the scene's nib name, made unique when two identifiers share a nib.
      var prefix = controllerURL.deletingPathExtension().lastPathComponent
      while !prefixes.insert(prefix).inserted { prefix += "'" }
      merged.append(part, prefix: prefix)
    }
    return merged
  }

  /// The loaded graph to draw: the document as the loader instantiates it or, when a connection cannot be made
  /// with the catalog's classes (an action a catalog class does not implement, an outlet it has no key for), the
  /// document without its actions and runtime attributes, then without any connection, with a warning. The
  /// connections are still listed from the document; they do not change what is drawn.
  /// - Throws: the first instantiation's error when none succeeds.
  private mutating func drawable(
    _ table: ObjectTable, registry: ClassRegistry, options: NibOptions, path: String
  ) throws -> NibInstance {
    let fileName = name(path)
    let nib = { (table: ObjectTable) in Nib(table: table, name: fileName, registry: registry) }
    let owner = GenericNibObject(className: "FilesOwner")
    do {
      return try nib(table).instantiateGraph(owner: owner, options: options)
    } catch let error as ArchiveError {
      var outletsOnly = table
      outletsOnly.connections.removeAll { $0.kind != .outlet && $0.kind != .outletCollection }
      outletsOnly.runtimeAttributes = []
      var bare = outletsOnly
      bare.connections = []
      for reduced in [outletsOnly, bare] {
        if let instance = try? nib(reduced).instantiateGraph(owner: owner, options: options) {
          let reason = error.description.split(separator: "\n").first.map(String.init) ?? error.message
          errors += "keyed: \(name(path)): warning: drawn without the connections that failed: \(reason)\n"
          return instance
        }
      }
      throw error
    }
  }
}
