/// A plain-text table: the first column left-aligned, the others right-aligned, columns two spaces apart.
struct TextTable {
  var header: [String]
  var rows: [[String]] = []

  /// The lines of the table, each indented by `indent`.
  func lines(indent: String = "  ") -> [String] {
    let all = [header] + rows
    let columns = all.map(\.count).max() ?? 0
    var widths = [Int](repeating: 0, count: columns)
    for row in all {
      for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
    }
    return all.map { row in
      var line = indent
      for (index, cell) in row.enumerated() {
        let padding = String(repeating: " ", count: widths[index] - cell.count)
        if index == 0 {
          line += cell + (row.count > 1 ? padding : "")
        } else {
          line += "  " + padding + cell
        }
      }
      return line
    }
  }
}
