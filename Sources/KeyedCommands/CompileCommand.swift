import ArchiveCoding
import Foundation
import KeyedArchive
import NibLoading
import PropertyList
import XIB

/// `keyed compile FILE -o OUT [--format binary|xml]` (CLI-040): a XIB becomes one keyed-archive nib; a storyboard
/// becomes `OUT/` (a `.storyboardc` folder) with one nib per scene and an `Info.plist`.
struct CompileCommand: Command {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "compile", abstract: "Compile a XIB into a nib, or a storyboard into a .storyboardc folder.",
      overview: """
        Compile a XIB into a keyed-archive nib (Apple's iOS nib keys), or each storyboard scene into
        OUT.storyboardc/ with an Info.plist.
        """)
  }

  @Argument("FILE", help: "A .xib or .storyboard file, or - for standard input.")
  var path: String
  @Option(
    "-o", "--output", value: "OUT",
    help: "The nib file (or storyboardc folder) to write; files are written atomically.")
  var out: String
  @Option("--format", value: "FORMAT", choices: ["binary", "xml"], help: "binary (default) or xml.")
  var formatName: String?

  func run(_ context: inout Context) throws {
    try context.compile(path, to: out, format: formatName.flatMap(PropertyListFormat.init(rawValue:)) ?? .binary)
  }
}

extension Context {
  /// Compiles `path` into `out` (CLI-040).
  mutating func compile(_ path: String, to out: String, format: PropertyListFormat) throws {
    let data = try read(path)
    guard NibReader.format(of: data) == .xib else {
      throw InputError(message: "\(name(path)): not a XIB or storyboard document", status: KeyedTool.ExitCode.dataError)
    }
    let document: XIBDocument
    do {
      document = try XIBDocument(
        parsing: [UInt8](data), fileName: path == "-" ? "<stdin>" : URL(fileURLWithPath: path).lastPathComponent)
    } catch let error as ArchiveError {
      throw inputError(path, error)
    }
    for warning in document.warnings { errors += "\(warning)\n" }
    let table = document.objectTable()
    let outURL = URL(fileURLWithPath: out)
    guard document.kind == .storyboard else {
      try AtomicFile.write(try NibCompiler.compile(table, format: format), to: outURL)
      return
    }
    try FileManager.default.createDirectory(at: outURL, withIntermediateDirectories: true)
    var identifiers = PropertyListDictionary()
    var entryPoint: String?
    let scenes: [(String, XIBScene, [Int])]
    do {
      scenes = try Storyboard.scenes(of: document, table: table)
    } catch let error as ArchiveError {
      throw inputError(path, error)
    }
    var taken: Set<String> = []
    // One pass for all the scenes, each keeping where its segues to the others lead.
    let tables = Storyboard.namingSegueDestinations(in: table, scenes: scenes).restricted(toEach: scenes.map(\.2))
    for ((identifier, scene, _), sceneTable) in zip(scenes, tables) {
      // A file name per scene, unique even when two identifiers differ only where "/" became "_".
      let base = identifier.replacingOccurrences(of: "/", with: "_")
      var nibName = base
      var suffix = 2
      while !taken.insert(nibName).inserted {
        nibName = "\(base)-\(suffix)"
        suffix += 1
      }
      try AtomicFile.write(
        try NibCompiler.compile(sceneTable, format: format),
        to: outURL.appendingPathComponent("\(nibName).nib"))
      identifiers[identifier] = .string(nibName)
      if let initial = document.initialViewControllerID, initial == scene.controllerID { entryPoint = identifier }
    }
    var info = PropertyListDictionary()
    info["UIViewControllerIdentifiersToNibNames"] = .dictionary(identifiers)
    if let entryPoint { info["UIStoryboardDesignatedEntryPointIdentifier"] = .string(entryPoint) }
    info["UIStoryboardVersion"] = .integer(1)
    try AtomicFile.write(
      try PropertyListWriter.write(.dictionary(info), format: .binary), to: outURL.appendingPathComponent("Info.plist"))
  }
}
