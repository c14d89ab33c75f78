import ArchiveComparison
import Foundation

extension ArchiveDifference {
  /// The most differences a failure message lists.
  static let listedLimit = 20

  /// The differences between two archives by meaning (``ArchiveComparison``), one a line after a newline, for a
  /// failure message (ARC-176): at most ``listedLimit``, then how many more; empty when there are none or when
  /// either archive cannot be read (the check that called reports its own error then).
  static func listing(between expected: Data, and actual: Data) -> String {
    guard let differences = try? ArchiveComparison.differences(between: expected, and: actual), !differences.isEmpty
    else { return "" }
    var text = "\nDifferences (expected -> actual):"
    for difference in differences.prefix(listedLimit) { text += "\n  \(difference)" }
    if differences.count > listedLimit { text += "\n  … and \(differences.count - listedLimit) more" }
    return text
  }
}
