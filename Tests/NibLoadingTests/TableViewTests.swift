import ArchiveCoding
import Foundation
import InterfaceObjects
import NibLoading
import Testing

@Suite("Table views")
struct TableViewTests {
  static let cellXIB = xib(
    """
    <tableViewCell reuseIdentifier="Row" id="c1">
        <tableViewCellContentView key="contentView" id="cv1">
            <subviews><label text="row" id="l1"/></subviews>
        </tableViewCellContentView>
    </tableViewCell>
    """)

  @Test("NIB-099: dequeueReusableCell(withIdentifier:) returns nil when nothing is registered or reusable")
  func unregisteredIsNil() throws {
    let table = TableView(frame: .zero)
    #expect(try table.dequeueReusableCell(withIdentifier: "Row") == nil)
    let cell = TableViewCell(style: .default, reuseIdentifier: "Row")
    table.enqueueReusableCell(cell)
    #expect(try table.dequeueReusableCell(withIdentifier: "Row") === cell)
    #expect(cell.reuseCount == 1)
    #expect(try table.dequeueReusableCell(withIdentifier: "Row") == nil)
  }

  @Test("NIB-099: dequeueReusableCell(withIdentifier:for:) makes a registered cell and names what is missing")
  func forIndexPath() throws {
    let table = TableView(frame: .zero)
    do {
      _ = try table.dequeueReusableCell(withIdentifier: "Row", for: IndexPath(row: 3, section: 1))
      Issue.record("expected an error")
    } catch let error as ArchiveError {
      #expect(error.message.contains("\"Row\" (row 3, section 1)"), "\(error)")
    }
    table.register(Nib(data: Self.cellXIB, registry: testRegistry), forCellReuseIdentifier: "Row")
    let cell = try table.dequeueReusableCell(withIdentifier: "Row", for: IndexPath(row: 0, section: 0))
    #expect(cell.reuseIdentifier == "Row")
    #expect((cell.contentView.subviews.first as? Label)?.text == "row")
    table.register(TableViewCell.self, forCellReuseIdentifier: "Plain")
    #expect(try table.dequeueReusableCell(withIdentifier: "Plain")?.reuseIdentifier == "Plain")
  }

  @Test(
    "NIB-099: TableViewCell(style:reuseIdentifier:) has a text label, and a detail label except in the default style")
  func styles() {
    let plain = TableViewCell(style: .default, reuseIdentifier: "a")
    plain.textLabel?.text = "Title"
    #expect(plain.textLabel?.text == "Title")
    #expect(plain.textLabel?.superview === plain.contentView)
    #expect(plain.detailTextLabel == nil)
    let subtitle = TableViewCell(style: .subtitle, reuseIdentifier: "b")
    subtitle.detailTextLabel?.text = "Detail"
    #expect(subtitle.detailTextLabel?.text == "Detail")
    #expect(subtitle.detailTextLabel?.superview === subtitle.contentView)
    #expect(subtitle.style == .subtitle)
  }
}
