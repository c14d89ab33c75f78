import ArchiveCoding
import Foundation
import KeyedArchive
import NibLoading
import PropertyList
import XIB

extension Context {
  /// `keyed compile FILE -o OUT [--format binary|xml]` (CLI-040): a XIB becomes one keyed-archive nib; a
  /// storyboard becomes `OUT/` (a `.storyboardc` folder) with one nib per scene and an `Info.plist`.
  mutating func compile(_ arguments: [String]) throws {
    let parsed = try parse(arguments, flags: [], valued: ["-o", "--output", "--format"])
    let path = try singleInput(parsed)
    let out = try outputPath(parsed, missing: "missing -o OUT")
    let formatName = parsed.values["--format"] ?? "binary"
    guard let format = PropertyListFormat(rawValue: formatName) else {
      throw UsageError(message: "unknown format '\(formatName)' (expected binary or xml)")
    }
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
