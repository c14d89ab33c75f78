import ArchiveCoding
import Foundation
import InterfaceObjects
import KeyedArchive
import NibLoading

extension Context {
  /// `keyed render FILE -o OUT.svg|OUT.html [--scene ID]` (CLI-090…CLI-093): loads the document with the catalog
  /// and draws the loaded graph.
  mutating func render(_ arguments: [String]) throws {
    let parsed = try parse(arguments, flags: [], valued: ["-o", "--output", "--scene"])
    let path = try singleInput(parsed)
    let out = try outputPath(parsed, missing: "missing -o OUT.svg or -o OUT.html")
    let isHTML = out.lowercased().hasSuffix(".html") || out.lowercased().hasSuffix(".htm")
    guard isHTML || out.lowercased().hasSuffix(".svg") else {
      throw UsageError(message: "the output '\(out)' must end in .svg or .html")
    }
    let table = try readObjectTable(path)
    // The catalog alone: a custom class is drawn as its base class, and no app code runs while drawing.
    let registry = ClassRegistry()
    InterfaceCatalog.register(in: registry)
    // Warnings are not printed: every custom class falls back to its base class here, by design.
    var options = NibOptions(missingOwnerPolicy: .skipConnections)
    options.warning = { _ in }
    for object in table.objects {
      if case .external(let identifier)? = object.placeholder {
        options.externalObjects[identifier] = GenericNibObject(className: object.className)
      }
    }
    let sketch: Sketch
    do {
      let instance = try drawable(table, registry: registry, options: options, path: path)
      var builder = SketchBuilder(table: table, instance: instance)
      sketch = try builder.sketch(scene: parsed.values["--scene"])
    } catch let error as ArchiveError {
      throw inputError(path, error)
    } catch let error as SketchBuilder.UnknownScene {
      let names = error.available.isEmpty ? "none" : error.available.joined(separator: ", ")
      throw UsageError(message: "no scene '\(error.requested)' in \(name(path)) (scenes: \(names))")
    }
    let title = path == "-" ? "<stdin>" : URL(fileURLWithPath: path).lastPathComponent
    let text = isHTML ? SketchHTMLWriter.html(sketch, title: title) : SketchSVGWriter.svg(sketch)
    try AtomicFile.write(Data(text.utf8), to: URL(fileURLWithPath: out))
    let scenes = sketch.scenes.count == 1 ? "1 scene" : "\(sketch.scenes.count) scenes"
    output += "\(name(path)): \(scenes) drawn to \(out)\n"
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
