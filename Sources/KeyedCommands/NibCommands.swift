import ArchiveCoding
import Foundation
import InterfaceObjects
import NibLoading

extension Context {
  /// Reads a XIB, storyboard, compiled nib or `.nib` directory into an object table, with one-line diagnostics.
  func readObjectTable(_ path: String) throws -> ObjectTable {
    do {
      if path == "-" { return try NibReader.objectTable(from: try standardInput(), fileName: "<stdin>") }
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw InputError(message: "\(path): no such file", status: KeyedTool.ExitCode.failure)
      }
      if !isDirectory.boolValue, !Self.isRegularFile(path) {
        return try NibReader.objectTable(from: readStream(path), fileName: path)
      }
      // Refused before they are read: the file, or each file of a `.nib` directory.
      let members =
        isDirectory.boolValue
        ? ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).map { "\(path)/\($0)" } : [path]
      for member in members where Self.isRegularFile(member) { try Self.checkSize(member) }
      return try NibReader.objectTable(contentsOf: URL(fileURLWithPath: path))
    } catch let error as ArchiveError {
      if error.code == .fileIO {
        throw InputError(message: "\(name(path)): \(error.message)", status: KeyedTool.ExitCode.failure)
      }
      throw inputError(path, error)
    }
  }

  /// `true` when the input is a XIB, storyboard, NIBArchive or nib directory (keyed-archive nibs are archives).
  func isNibInput(_ path: String) -> Bool {
    func isNib(_ head: Data) -> Bool {
      let format = NibReader.format(of: head.prefix(2048))
      return format == .xib || format == .nibArchive
    }
    if path == "-" {
      guard let input = try? standardInput() else { return false }  // the read's error is met again when read
      return isNib(input)
    }
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
      return path.hasSuffix(".nib")
    }
    // A pipe, FIFO or device is read once (``readStream(_:)``); opening it only to peek could block.
    if !Self.isRegularFile(path) {
      guard let data = try? readStream(path) else { return false }
      return isNib(data)
    }
    guard let handle = FileHandle(forReadingAtPath: path) else { return false }
    defer { try? handle.close() }
    return isNib(handle.readData(ofLength: 2048))
  }

  mutating func instantiate(_ arguments: [String]) throws {
    let parsed = try parse(arguments, flags: ["--stats", "--json", "--trace", "--trace-all"], valued: ["--owner"])
    let path = try singleInput(parsed)
    let table = try readObjectTable(path)
    InterfaceCatalog.register()
    var events: [NibEvent] = []
    var warnings: [String] = []
    var options = NibOptions(missingOwnerPolicy: .skipConnections)
    options.trace = { events.append($0) }
    options.warning = { warnings.append($0) }
    for object in table.objects {
      if case .external(let identifier)? = object.placeholder {
        options.externalObjects[identifier] = GenericNibObject(className: object.className)
      }
    }
    let owner = GenericNibObject(className: parsed.values["--owner"] ?? "FilesOwner")
    let instance: NibInstance
    do {
      instance = try Nib(table: table, name: name(path)).instantiateGraph(owner: owner, options: options)
    } catch let error as ArchiveError {
      throw inputError(path, error)
    }
    for warning in warnings { errors += "keyed: \(name(path)): warning: \(warning)\n" }
    if parsed.flags.contains("--trace") || parsed.flags.contains("--trace-all") {
      // `--trace` prints exactly the five forms of cli.md; `--trace-all` adds attribute and segue events.
      let all = parsed.flags.contains("--trace-all")
      for event in events where all || event.isContractForm { output += "\(event)\n" }
      return
    }
    let stats = instance.statistics
    if parsed.flags.contains("--json") {
      output +=
        "{\"objects\": \(stats.objects), \"placeholders\": \(stats.placeholders), \"topLevel\": \(stats.topLevel), "
        + "\"outlets\": \(stats.outlets), \"outletCollections\": \(stats.outletCollections), "
        + "\"actions\": \(stats.actions), \"segues\": \(stats.segues), \"awakened\": \(stats.awakened)}\n"
      return
    }
    if parsed.flags.contains("--stats") {
      output += """
        objects: \(stats.objects)
        placeholders: \(stats.placeholders)
        topLevel: \(stats.topLevel)
        outlets: \(stats.outlets)
        outletCollections: \(stats.outletCollections)
        actions: \(stats.actions)
        segues: \(stats.segues)
        awakened: \(stats.awakened)

        """
      return
    }
    output += "Top-level objects:\n"
    for object in instance.topLevelObjects { describe(object, indent: 1) }
    output += "\nConnections, in order:\n"
    for event in events {
      switch event {
      case .outlet, .collection, .action, .segue, .attribute: output += "  \(event)\n"
      default: break
      }
    }
    let awakened = events.compactMap { if case .awake(let id) = $0 { id } else { nil } }
    output += "\nawakeFromNib sent to \(awakened.count) objects: \(awakened.prefix(12).joined(separator: ", "))"
    output += awakened.count > 12 ? ", …\n" : "\n"
  }

  /// One line per object: class, frame, text; views list their subviews below them.
  mutating func describe(_ object: AnyObject, indent: Int) {
    let pad = String(repeating: "  ", count: indent)
    var line = pad
    switch object {
    case let view as View:
      line += "\(view.unknownClassName ?? String(describing: type(of: view))) frame=\(view.frame)"
      if let label = view as? Label, let text = label.text { line += " text=\"\(text)\"" }
      if let button = view as? Button, let title = button.title(for: .normal) { line += " title=\"\(title)\"" }
      output += line + "\n"
      for subview in view.subviews { describe(subview, indent: indent + 1) }
    case let controller as ViewController:
      output += line + "\(controller.unknownClassName ?? String(describing: type(of: controller)))\n"
      if controller.isViewLoaded { describe(controller.view, indent: indent + 1) }
    case let generic as GenericNibObject:
      output += line + "\(generic.className) (generic)\n"
    default:
      output += line + "\(type(of: object))\n"
    }
  }
}
