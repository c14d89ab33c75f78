import ArchiveCoding
import Foundation
import InterfaceObjects
import NibLoading

/// `keyed instantiate FILE [--owner CLASS] [--stats] [--json] [--trace | --trace-all]` (CLI-030, CLI-031): loads a
/// document through the full pipeline with the interface catalog and prints what happened.
struct InstantiateCommand: Command {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "instantiate", abstract: "Load a XIB, storyboard or nib through the full pipeline.",
      overview: """
        Load a XIB, storyboard or compiled nib through the full pipeline (decode, outlets, actions, awake)
        with the built-in interface object catalog.
        """)
  }

  @Option(
    "--owner", value: "CLASS",
    help: "The class name of File's Owner (a generic object accepting every outlet and action).")
  var owner: String?
  @Flag("--stats", help: "Print the counts of objects, placeholders, connections and awakened objects.")
  var stats: Bool
  @Flag("--json", help: "With --stats (or alone): the counts as one JSON object.")
  var json: Bool
  @Flag(
    "--trace", help: "Print the pipeline's events in order: decode, outlet, collection, action, awake.", group: "trace")
  var trace: Bool
  @Flag(
    "--trace-all", help: "As --trace, with the runtime attributes set and the segues recorded as well.",
    group: "trace")
  var traceAll: Bool
  @Argument("FILE", help: "A .xib, .storyboard, .nib file or .nib directory, or - for standard input.")
  var path: String

  func run(_ context: inout Context) throws {
    let table = try context.readObjectTable(path)
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
    let owner = GenericNibObject(className: owner ?? "FilesOwner")
    let instance: NibInstance
    do {
      instance = try Nib(table: table, name: context.name(path)).instantiateGraph(owner: owner, options: options)
    } catch let error as ArchiveError {
      throw context.inputError(path, error)
    }
    for warning in warnings { context.errors += "keyed: \(context.name(path)): warning: \(warning)\n" }
    if trace || traceAll {
      // `--trace` prints exactly the five forms of cli.md; `--trace-all` adds attribute and segue events.
      for event in events where traceAll || event.isContractForm { context.output += "\(event)\n" }
      return
    }
    let stats = instance.statistics
    if json {
      context.output +=
        "{\"objects\": \(stats.objects), \"placeholders\": \(stats.placeholders), \"topLevel\": \(stats.topLevel), "
        + "\"outlets\": \(stats.outlets), \"outletCollections\": \(stats.outletCollections), "
        + "\"actions\": \(stats.actions), \"segues\": \(stats.segues), \"awakened\": \(stats.awakened)}\n"
      return
    }
    if self.stats {
      context.output += """
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
    context.output += "Top-level objects:\n"
    for object in instance.topLevelObjects { context.output += Self.describe(object, indent: 1) }
    context.output += "\nConnections, in order:\n"
    for event in events {
      switch event {
      case .outlet, .collection, .action, .segue, .attribute: context.output += "  \(event)\n"
      default: break
      }
    }
    let awakened = events.compactMap { if case .awake(let id) = $0 { id } else { nil } }
    context.output += "\nawakeFromNib sent to \(awakened.count) objects: "
    context.output += awakened.prefix(12).joined(separator: ", ") + (awakened.count > 12 ? ", …\n" : "\n")
  }

  /// One line per object: class, frame, text; views list their subviews below them.
  static func describe(_ object: AnyObject, indent: Int) -> String {
    let pad = String(repeating: "  ", count: indent)
    var line = pad
    switch object {
    case let view as View:
      line += "\(view.unknownClassName ?? String(describing: type(of: view))) frame=\(view.frame)"
      if let label = view as? Label, let text = label.text { line += " text=\"\(text)\"" }
      if let button = view as? Button, let title = button.title(for: .normal) { line += " title=\"\(title)\"" }
      return line + "\n" + view.subviews.map { describe($0, indent: indent + 1) }.joined()
    case let controller as ViewController:
      let text = line + "\(controller.unknownClassName ?? String(describing: type(of: controller)))\n"
      return text + (controller.isViewLoaded ? describe(controller.view, indent: indent + 1) : "")
    case let generic as GenericNibObject:
      return line + "\(generic.className) (generic)\n"
    default:
      return line + "\(type(of: object))\n"
    }
  }
}
