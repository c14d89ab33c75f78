import ArchiveCoding
import CompiledNib
import Foundation
import NibLoading
import Testing

/// Every compiled nib of the corpus, through the table builder and the whole pipeline.
@Suite(
  "Compiled nib tables: corpus",
  .enabled(if: CompiledNibCorpus.isAvailable, Comment(rawValue: CompiledNibCorpus.absentMessage)))
struct CompiledNibCorpusTests {
  @Test("NIBA-044, NIBA-050: every NIBArchive and keyed-archive nib of the corpus builds a table and instantiates")
  func everyNibInstantiates() throws {
    let files = CompiledNibCorpus.files
    // The corpus MANIFEST lists 214 NIBArchive files and 18 keyed-archive nibs; archives/ adds 5 skim nibs.
    #expect(files.filter { $0.format == .nibArchive }.count == 214)
    #expect(files.filter { $0.format == .keyedArchive }.count == 23)
    for file in files {
      let data = try Data(contentsOf: file.url)
      let table = try NibReader.objectTable(from: data, fileName: file.name)
      // The Application placeholder (NSApplication.delegate = File's Owner in four macOS nibs) has a generic stand-in
      // when the options supply none (NIB-010), so those nibs instantiate like the others.
      let run = try CompiledNibRun(data: data, name: file.name)
      let statistics = run.instance.statistics
      #expect(
        run.table.platform
          == (file.name.contains("appium") || file.name.contains("fastlane")
            || file.name.contains("nskeyedunarchiver") ? .uiKit : .appKit),
        "\(file)")
      // Every object of the table that is not a placeholder is created, once.
      #expect(statistics.objects == table.objects.filter { $0.placeholder == nil }.count, "\(file): objects")
      #expect(statistics.awakened == statistics.objects, "\(file)")
      #expect(statistics.placeholders == run.table.objects.filter { $0.placeholder != nil }.count, "\(file)")
      #expect(run.instance.objectsByID.count == statistics.objects, "\(file)")
      // ids are container indexes (NIBA-040): unique decimal numbers.
      #expect(Set(run.table.objects.map(\.id)).count == run.table.objects.count, "\(file)")
      #expect(run.table.objects.allSatisfy { Int($0.id) != nil }, "\(file)")
    }
  }

  @Test(
    "NIBA-045, NIBA-046, NIBA-047: classes, placeholders, top level, connections and statistics equal the Python count",
    .enabled(if: CompiledNibCorpus.python != nil, "python3 not found on PATH"))
  func matchesPythonCount() throws {
    let files = CompiledNibCorpus.files
    let expected = try CompiledNibCorpus.pythonTables(files)
    #expect(expected.count == files.count)
    var totals = NibStatistics()
    for file in files {
      let oracle = try #require(expected[file.url.path], "\(file) missing from the Python output")
      let run = try CompiledNibRun(data: try Data(contentsOf: file.url), name: file.name, application: true)
      let table = run.table

      #expect(oracle["platform"] as? String == table.platform.rawValue, "\(file): platform")
      let classes = try #require(oracle["classes"] as? [String: String])
      #expect(
        Dictionary(uniqueKeysWithValues: table.objects.map { ($0.id, $0.className) }) == classes, "\(file): classes")
      let placeholders = try #require(oracle["placeholders"] as? [String: String])
      let tablePlaceholders = Dictionary(
        uniqueKeysWithValues: table.objects.compactMap { record in record.placeholder.map { (record.id, $0.kindName) } }
      )
      #expect(tablePlaceholders == placeholders, "\(file): placeholders")
      let topLevel = try #require(oracle["topLevel"] as? [Int]).map(String.init)
      #expect(table.topLevel.map { table.objects[$0].id } == topLevel, "\(file): top level")
      #expect(table.runtimeAttributes.count == oracle["runtimeAttributes"] as? Int, "\(file): runtime attributes")

      let connections = try #require(oracle["connections"] as? [[Any]])
      let tableConnections: [[String]] = table.connections.map { connection in
        [
          connection.kind.rawValue, table.id(connection.source) ?? "-", connection.label,
          table.id(connection.destination) ?? "nil", connection.eventMask.map(String.init) ?? "nil",
        ]
      }
      let oracleConnections: [[String]] = connections.map { row in
        row.map { cell in
          switch cell {
          case let text as String: text
          case let number as NSNumber: number.stringValue
          default: "nil"
          }
        }
      }
      #expect(tableConnections == oracleConnections, "\(file): connections")

      // The pipeline: statistics, and exactly the objects the count predicts are decoded.
      let stats = try #require(oracle["stats"] as? [String: Int])
      let statistics = run.instance.statistics
      let actual = [
        "objects": statistics.objects, "placeholders": statistics.placeholders, "topLevel": statistics.topLevel,
        "outlets": statistics.outlets, "outletCollections": statistics.outletCollections,
        "actions": statistics.actions, "segues": statistics.segues, "awakened": statistics.awakened,
      ]
      #expect(actual == stats, "\(file): statistics")
      let decoded = Set(
        run.events.compactMap { event -> String? in
          if case .decode(let id, _) = event { return id }
          return nil
        })
      #expect(decoded == Set(classes.keys).subtracting(placeholders.keys), "\(file): decoded objects")
      totals.objects += statistics.objects
      totals.outlets += statistics.outlets
      totals.actions += statistics.actions
    }
    // The corpus exercises the pipeline broadly, not only trivially.
    #expect(totals.objects > 5000)
    #expect(totals.outlets > 500)
    #expect(totals.actions > 500)
  }

  @Test("NIBA-045, NIBA-046: NIBArchive tables agree with the raw reader's nib structure (NIBA-024 to NIBA-027)")
  func agreesWithNibStructure() throws {
    for file in CompiledNibCorpus.files where file.format == .nibArchive {
      let data = try Data(contentsOf: file.url)
      let structure = try NIBArchiveDocument(data: data).nibStructure()
      let table = try NibReader.objectTable(from: data, fileName: file.name)
      let ids = Set(table.objects.map(\.id))
      let owner = try #require(structure.filesOwner, "\(file): no File's Owner")
      let ownerIndex = try #require(table.index(ofID: String(owner)), "\(file): File's Owner not in the table")
      #expect(table.objects[ownerIndex].placeholder == .filesOwner, "\(file)")
      #expect(Set(structure.objects.map(String.init)).isSubset(of: ids), "\(file): document objects")
      let expectedTop = (structure.flavor == .appKit ? [owner] : []) + structure.topLevelObjects
      #expect(table.topLevel.map { table.objects[$0].id } == unique(expectedTop).map(String.init), "\(file): top level")
      #expect(table.visibleWindows.map { table.objects[$0].id } == structure.visibleWindows.map(String.init), "\(file)")
      for kind in [NIBArchiveConnection.Kind.outlet, .action] {
        let records = structure.connections.filter { $0.kind == kind && $0.source != nil && $0.label != nil }
        let made = table.connections.filter { $0.kind.rawValue == kind.name }
        #expect(made.count == records.count, "\(file): \(kind) records")
        #expect(made.map { $0.id ?? "" } == records.map { String($0.objectIndex) }, "\(file): \(kind) order")
        #expect(made.map(\.label) == records.map { $0.label ?? "" }, "\(file): \(kind) labels")
      }
    }
  }

  /// `true` when an outlet or action goes from the Application placeholder to another placeholder.
  private func unique(_ values: [Int]) -> [Int] {
    var seen: Set<Int> = []
    return values.filter { seen.insert($0).inserted }
  }
}
