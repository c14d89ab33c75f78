import ArchiveCoding
import InterfaceObjects
import NibLoading

/// The table cell of `TableViewCell.xib` (archived name `TableViewCell`): two labels and a button whose `bt:`
/// action is connected to the cell.
public final class ScenarioTableViewCell: TableViewCell {
  /// The first label (an outlet).
  @Outlet public var lb1: Label?
  /// The second label (an outlet).
  @Outlet public var lb2: Label?
  /// How many times the button was tapped.
  public private(set) var taps = 0

  /// The button's action.
  public func bt(_ sender: Any?) { taps += 1 }

  /// Clears the labels before reuse.
  public override func prepareForReuse() {
    super.prepareForReuse()
    lb1?.text = nil
    lb2?.text = nil
  }

  /// `bt:`.
  public override class var actions: [Action] { [Action("bt:", bt)] }
}

/// A data source that keeps one cached `Nib` of `TableViewCell.xib` and fills cells per section.
public final class ScenarioDataSource {
  /// The sections' rows.
  public let sections: [[String]]
  /// The cached nib.
  public let nib: Nib
  /// Cells made from the nib (not reused).
  public private(set) var instantiated = 0

  /// Creates a data source over a nib.
  public init(sections: [[String]], nib: Nib) {
    self.sections = sections
    self.nib = nib
  }

  /// A cell for a row: a reused one from the table, or a new one from the cached nib.
  public func cell(section: Int, row: Int, in table: TableView) throws -> ScenarioTableViewCell {
    let cell: ScenarioTableViewCell
    if let reused = try? table.dequeueReusableCell(withIdentifier: "TableViewCell") as? ScenarioTableViewCell {
      cell = reused
    } else {
      guard let made = try nib.instantiate(owner: nil).first as? ScenarioTableViewCell else {
        throw ArchiveError(.typeMismatch, "TableViewCell.xib has no TableViewCell at its top level")
      }
      instantiated += 1
      cell = made
    }
    cell.lb1?.text = "Section \(section)"
    cell.lb2?.text = sections[section][row]
    return cell
  }
}
