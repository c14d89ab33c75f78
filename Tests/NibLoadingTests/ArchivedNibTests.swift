import ArchiveCoding
import Foundation
import InterfaceObjects
import KeyedArchive
import NibLoading
import Testing

/// Nibs archived inside nibs (`UINib` / `NSNib` objects): the prototype cells of Apple's compiled storyboards and
/// the cell views of AppKit table views.
@Suite("Archived nibs")
struct ArchivedNibTests {
  static let cellXIB = xib(
    """
    <placeholder placeholderIdentifier="IBFilesOwner" id="-1"/>
    <tableViewCell reuseIdentifier="Row" id="c1">
        <tableViewCellContentView key="contentView" id="cv1">
            <subviews><label text="generated row" id="l1"/></subviews>
        </tableViewCellContentView>
    </tableViewCell>
    """)

  static var quiet: NibOptions {
    var options = NibOptions()
    options.missingOwnerPolicy = .skipConnections
    options.warning = nil
    return options
  }

  /// A compiled (keyed-archive) nib holding a table view whose `UITableViewCellPrototypeNibs` archives `cells`, as
  /// Apple's tools write a storyboard's table view.
  static func tableNib(archiving cells: [String: Data]) throws -> Data {
    var table = try Nib(data: xib(#"<tableView id="tv1"/>"#), registry: testRegistry).objectTable()
    let tableView = try #require(table.index(ofID: "tv1"))
    var entries: [ObjectField] = []
    for (identifier, data) in cells.sorted(by: { $0.key < $1.key }) {
      table.objects.append(
        ObjectRecord(
          id: "nib-\(identifier)", className: "UINib", fields: [ObjectField(key: "archiveData", value: .data(data))]))
      entries.append(ObjectField(key: identifier, value: .object(table.objects.count - 1)))
    }
    table.objects[tableView].fields.append(
      ObjectField(key: "UITableViewCellPrototypeNibs", value: .record("NSMutableDictionary", entries)))
    return try NibCompiler.compile(table)
  }

  static func tableView(in data: Data) throws -> TableView {
    let objects = try Nib(data: data, registry: testRegistry).instantiate(owner: nil, options: quiet)
    return try #require(objects.compactMap { $0 as? TableView }.first)
  }

  @Test("NIB-106: a table view archiving UINib objects registers them; each dequeue instantiates a fresh cell")
  func generatedPrototypeNibs() throws {
    let table = try Self.tableView(in: try Self.tableNib(archiving: ["Row": Self.cellXIB, "Other": Self.cellXIB]))
    #expect(table.registeredNibIdentifiers == ["Other", "Row"])
    let first = try #require(try table.dequeueReusableCell(withIdentifier: "Row"))
    let second = try #require(try table.dequeueReusableCell(withIdentifier: "Row"))
    #expect(first !== second)
    #expect(first.reuseIdentifier == "Row")
    #expect((first.contentView.subviews.first as? Label)?.text == "generated row")
    #expect(try table.dequeueReusableCell(withIdentifier: "Missing") == nil)
    #expect(table.instantiatedCellCount == 2)
  }

  @Test("NIB-106: archived nib bytes that do not parse fail at the dequeue with a located error, never at the load")
  func hostileArchivedNib() throws {
    let table = try Self.tableView(in: try Self.tableNib(archiving: ["Row": Data("NIBArchive garbage".utf8)]))
    #expect(table.registeredNibIdentifiers == ["Row"])
    do {
      _ = try table.dequeueReusableCell(withIdentifier: "Row")
      Issue.record("expected an error")
    } catch let error as ArchiveError {
      #expect(error.description.contains("archived nib"), "\(error)")
    }
  }

  @Test("NIB-106: a UINib without archiveData or NSNibFileData is an error naming both keys")
  func archivedNibWithoutBytes() throws {
    var table = try Nib(data: xib(#"<tableView id="tv1"/>"#), registry: testRegistry).objectTable()
    let tableView = try #require(table.index(ofID: "tv1"))
    table.objects.append(ObjectRecord(id: "empty", className: "UINib"))
    table.objects[tableView].fields.append(
      ObjectField(
        key: "UITableViewCellPrototypeNibs",
        value: .record("NSMutableDictionary", [ObjectField(key: "Row", value: .object(table.objects.count - 1))])))
    #expect {
      try Nib(data: try NibCompiler.compile(table), registry: testRegistry).instantiate(owner: nil, options: Self.quiet)
    } throws: { error in
      let text = "\(error)"
      return text.contains("archiveData") && text.contains("NSNibFileData")
    }
  }

  @Test("NIB-106: an ArchivedNib archives its bytes under UIKit's class name and key, and reads them back")
  func archivedNibRoundTrip() throws {
    let archive = try KeyedArchiver.archivedData(withRootObject: ArchivedNib(data: Self.cellXIB))
    let text = String(decoding: archive, as: UTF8.self)
    #expect(text.contains("UINib") && text.contains("archiveData"))
    let read = try #require(
      try KeyedUnarchiver.unarchivedRootObject(from: archive, registry: testRegistry) as? ArchivedNib)
    #expect(read.data == Self.cellXIB)
    let cell = try read.nib.instantiate(owner: nil, options: Self.quiet).first as? TableViewCell
    #expect(cell?.reuseIdentifier == "Row")
  }
}

/// The corpus's compiled nibs whose table views archive their cells' nibs.
@Suite(
  "Archived nibs: corpus",
  .enabled(if: CompiledNibCorpus.isAvailable, Comment(rawValue: CompiledNibCorpus.absentMessage)))
struct ArchivedNibCorpusTests {
  /// Every corpus nib that holds `key`, with the identifiers of each table view's archived nibs, read from the
  /// nib's own table (not through the table view).
  static func files(holding key: String) throws -> [(file: CompiledNibCorpus.File, identifiers: [[String]])] {
    try CompiledNibCorpus.files.compactMap { file in
      guard let data = try? Data(contentsOf: file.url), data.range(of: Data(key.utf8)) != nil else { return nil }
      let table = try NibReader.objectTable(from: data, fileName: file.name)
      let identifiers = table.objects.compactMap { object -> [String]? in
        guard case .record(_, let entries)? = object.field(key) else { return nil }
        return entries.map(\.key).sorted()
      }
      return (file, identifiers)
    }
  }

  static func tableViews(in file: CompiledNibCorpus.File) throws -> [TableView] {
    let instance = try Nib(contentsOf: file.url, registry: testRegistry).instantiateGraph(
      owner: nil, options: ArchivedNibTests.quiet)
    return instance.objectsByID.values.compactMap { $0 as? TableView }
  }

  @Test("NIB-106: every UIKit prototype cell of the corpus's compiled storyboards dequeues as a cell of its identifier")
  func uiKitPrototypeCells() throws {
    let files = try Self.files(holding: "UITableViewCellPrototypeNibs")
    #expect(files.count >= 6, "the corpus has six scenes with prototype cells")
    for (file, identifiers) in files {
      let tables = try Self.tableViews(in: file)
      #expect(
        tables.map(\.registeredNibIdentifiers).sorted { $0.description < $1.description }
          == identifiers.sorted { $0.description < $1.description }, "\(file)")
      for table in tables {
        for identifier in table.registeredNibIdentifiers {
          let cell = try #require(try table.dequeueReusableCell(withIdentifier: identifier), "\(file) \(identifier)")
          #expect(cell.reuseIdentifier == identifier, "\(file)")
          #expect(cell.contentView.superview === cell, "\(file)")
          #expect(try table.dequeueReusableCell(withIdentifier: identifier) !== cell)
        }
      }
    }
  }

  @Test("NIB-106: the search results cell comes out with its archived text label")
  func searchResultsCell() throws {
    let file = try CompiledNibCorpus.file(
      "nib/appium-ios-uicatalog/2019/Base.lproj/SearchViewControllers.storyboardc/Thx-B6-QkK-view-QvM-3S-GbD.nib")
    let table = try #require(try Self.tableViews(in: file).first)
    let cell = try #require(try table.dequeueReusableCell(withIdentifier: "searchResultsCell"))
    #expect(cell.textLabel?.text == "Search results cell")
    #expect(cell.textLabel?.superview === cell.contentView)
  }

  @Test("NIB-106: an AppKit outline view's archived cell view comes out of makeView(withIdentifier:owner:)")
  func appKitCellViews() throws {
    let files = try Self.files(holding: "NSTableViewArchivedReusableViewsKey")
    #expect(!files.isEmpty)
    for (file, identifiers) in files {
      let tables = try Self.tableViews(in: file)
      #expect(tables.map(\.registeredNibIdentifiers).filter { !$0.isEmpty }.count == identifiers.count, "\(file)")
      for table in tables {
        for identifier in table.registeredNibIdentifiers {
          let view = try #require(try table.makeView(withIdentifier: identifier, owner: nil), "\(file) \(identifier)")
          #expect(try table.makeView(withIdentifier: identifier, owner: nil) !== view)
        }
        #expect(try table.makeView(withIdentifier: "no such identifier", owner: nil) == nil)
      }
    }
    let outline = try CompiledNibCorpus.file("nib/viraptor-ibtool/correct/outline_cellview.nib")
    let table = try #require(try Self.tableViews(in: outline).first { !$0.registeredNibIdentifiers.isEmpty })
    let cell = try #require(try table.makeView(withIdentifier: "Name", owner: nil) as? TableViewCell)
    #expect(cell.textField != nil, "the cell view's textField outlet is connected in its own nib")
  }
}
