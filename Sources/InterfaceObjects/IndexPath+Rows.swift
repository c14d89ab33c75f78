import Foundation

extension IndexPath {
  /// An index path to a row of a section, as UIKit's `IndexPath(row:section:)`.
  public init(row: Int, section: Int) { self.init(indexes: [section, row]) }

  /// The section: the first index (0 when there is none).
  public var section: Int { count > 0 ? self[0] : 0 }

  /// The row: the second index (0 when there is none).
  public var row: Int { count > 1 ? self[1] : 0 }
}
