import ArchiveCoding
import Foundation

// The archiver delegate's say on each object (COD-103).
extension KeyedArchiver {
  /// What to write for an object once its delegate was asked: an object (or `nil`) or a Foundation value.
  enum DelegatedChoice {
    case object(AnyObject?)
    case value(Any)
  }

  /// Asks `delegate` what to write for `original`, whose own `replacementObject(for:)` gave `replacement`, and tells
  /// it when the object written is not `original`.
  func delegatedChoice(
    for original: AnyObject, replacement: AnyObject?, delegate: any KeyedArchiverDelegate
  ) -> DelegatedChoice {
    let chosen = replacement.flatMap { Self.unwrapped(delegate.archiver(self, willEncode: $0)) }
    if let chosen, !(Swift.type(of: chosen) is AnyObject.Type) {
      delegate.archiver(self, willReplace: original, with: chosen)
      return .value(chosen)
    }
    // A class instance: the cast only changes its static type.
    let object = chosen.map { $0 as AnyObject }
    if object !== original { delegate.archiver(self, willReplace: original, with: object) }
    return .object(object)
  }
}
