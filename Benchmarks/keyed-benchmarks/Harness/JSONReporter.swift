import ArchiveSupport
import Foundation

/// Collects one JSON row per (case, peer), plus one for the bare walk (`"peer": "bare-walk"`), and prints them as one
/// JSON array.
///
/// Fixed fields: `case`, `ours_ms`, `ours_n`, `peer`, `peer_ms`, `peer_n`, `speedup`, `ours_peak_mb`; more follow
/// (see Benchmarks/README.md). Times are the median of a whole run of N objects, in milliseconds; `speedup` is the
/// peer's time per object divided by ours's; memory is in MiB. Unknown values are `null`. A peer's row gives as
/// `ours_ms` the median its `speedup` is taken from (``CaseResult/oursMedian(against:)``: ours's runs between that
/// peer's), and ours's median over all its runs as `ours_all_ms`.
struct JSONReporter {
  private var rows: [String] = []

  mutating func add(_ result: CaseResult) {
    let sides = result.peers + (result.floor.map { [$0] } ?? [])
    for side in sides {
      let peerName = side.role == .floor ? "bare-walk" : side.label
      var fields: [(String, String)] = [
        ("case", string(result.name)),
        ("ours_ms", milliseconds(result.oursMedian(against: side))),
        ("ours_n", integer(result.ours.map(\.n))),
        ("peer", string(peerName)),
        ("peer_ms", milliseconds(side.median)),
        ("peer_n", integer(side.failure == nil ? side.n : nil)),
        ("speedup", number(result.speedup(over: side), format: "%.4g")),
        ("ours_peak_mb", number(result.ours?.peakMiB, format: "%.1f")),
      ]
      fields += [
        ("ours_all_ms", milliseconds(result.ours?.median)),
        ("ours_between_runs", integer(side.oursBetween.count)),
        ("speedup_all_runs", number(result.speedupOverAllRuns(over: side), format: "%.4g")),
        ("ours_min_ms", milliseconds(result.ours?.minimum)),
        ("ours_max_ms", milliseconds(result.ours?.maximum)),
        ("ours_bytes", integer(result.ours?.bytes)),
        ("ours_exponent", number(result.ours?.growth?.exponent, format: "%.3f")),
        ("ours_error", optionalString(result.ours?.failure)),
        ("peer_label", string(side.label)),
        ("peer_min_ms", milliseconds(side.minimum)),
        ("peer_max_ms", milliseconds(side.maximum)),
        ("peer_bytes", integer(side.failure == nil ? side.bytes : nil)),
        ("peer_peak_mb", number(side.peakMiB, format: "%.1f")),
        ("peer_exponent", number(side.growth?.exponent, format: "%.3f")),
        ("peer_budget_limited", side.budgetLimited ? "true" : "false"),
        ("peer_extrapolated_ms", milliseconds(side.extrapolatedSeconds)),
        ("peer_vs_walk", number(result.timesFloor(side), format: "%.4g")),
        ("peer_error", optionalString(side.failure)),
        ("n", integer(result.n)),
      ]
      rows.append("{" + fields.map { "\(string($0.0)): \($0.1)" }.joined(separator: ", ") + "}")
    }
  }

  /// The whole array, one row per line.
  var text: String { rows.isEmpty ? "[]" : "[\n" + rows.joined(separator: ",\n") + "\n]" }

  private func milliseconds(_ seconds: Double?) -> String { number(seconds.map { $0 * 1e3 }, format: "%.4f") }

  private func number(_ value: Double?, format: String) -> String {
    guard let value, value.isFinite else { return "null" }
    return String(format: format, value)
  }

  private func integer(_ value: Int?) -> String { value.map(String.init) ?? "null" }

  private func optionalString(_ value: String?) -> String { value.map(string) ?? "null" }

  private func string(_ value: String) -> String { value.quoted(escapingControls: .json) }
}
