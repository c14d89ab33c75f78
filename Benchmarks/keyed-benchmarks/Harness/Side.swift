import Foundation

/// One contender in a case: ours, a peer, or the bare-walk floor.
///
/// A side is a recipe that builds its inputs for a given size (untimed) and returns the measured closure, so the
/// harness can run a peer at a smaller size than ours when the time budget demands it. Use the builders in
/// `Side+Builders.swift`; ours plugs in through `Cases/Ours.swift`.
struct Side {
  /// What a side is in its case.
  enum Role: String {
    case ours
    case peer
    case floor
  }

  /// The name shown in reports ("NSKeyedUnarchiver", "ours").
  var label: String
  var role: Role = .peer
  /// Builds the inputs of `n` objects (through the cache, untimed) and returns the measured run.
  var prepare: (_ n: Int, _ inputs: InputCache) throws -> PreparedRun
  /// For decoding sides: the archive this side reads at size `n`, so that the bare walk can read the same bytes.
  var archive: ((_ n: Int, _ inputs: InputCache) throws -> Data)?

  /// Creates a side from its parts; prefer the builders.
  init(
    label: String, role: Role = .peer, prepare: @escaping (_ n: Int, _ inputs: InputCache) throws -> PreparedRun,
    archive: ((_ n: Int, _ inputs: InputCache) throws -> Data)? = nil
  ) {
    self.label = label
    self.role = role
    self.prepare = prepare
    self.archive = archive
  }

  /// The same side in another role.
  func with(role: Role) -> Side {
    var copy = self
    copy.role = role
    return copy
  }
}
