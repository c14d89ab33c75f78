import ArchiveComparison
import Foundation

extension ArchiveDifference {
  /// The most differences a failure message lists.
  static let listedLimit = 20

  /// The differences, one a line after a newline, for a failure message (ARC-313): at most ``listedLimit``, then
  /// how many more; empty when there are none.
  static func listing(_ differences: [ArchiveDifference]) -> String {
    guard !differences.isEmpty else { return "" }
    var text = "\nDifferences (expected -> actual):"
    for difference in differences.prefix(listedLimit) { text += "\n  \(difference)" }
    if differences.count > listedLimit { text += "\n  … and \(differences.count - listedLimit) more" }
    return text
  }

  /// The differences between two archives by meaning (``ArchiveComparison``), listed (``listing(_:)``); empty
  /// when either archive cannot be read (the check that called reports its own error then).
  static func listing(between expected: Data, and actual: Data) -> String {
    listing((try? ArchiveComparison.differences(between: expected, and: actual)) ?? [])
  }
}
