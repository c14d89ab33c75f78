import Foundation

/// Number formatting for the reports.
enum Units {
  /// `812 ns`, `12.3 µs`, `4.56 ms`, `3.06 s`.
  static func duration(_ seconds: Double) -> String {
    switch seconds {
    case ..<1e-6: return String(format: "%.0f ns", seconds * 1e9)
    case ..<1e-3: return String(format: "%.3g µs", seconds * 1e6)
    case ..<1: return String(format: "%.3g ms", seconds * 1e3)
    case ..<1000: return String(format: "%.3g s", seconds)
    default: return "\(count(Int(seconds.rounded()))) s"
    }
  }

  /// `1,234,567`.
  static func count(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var grouped = ""
    for (index, digit) in digits.enumerated() {
      if index > 0, (digits.count - index) % 3 == 0 { grouped.append(",") }
      grouped.append(digit)
    }
    return value < 0 ? "-" + grouped : grouped
  }

  /// `950`, `33.2 k`, `1.23 M`.
  static func rate(_ value: Double) -> String {
    switch value {
    case ..<1e3: return String(format: "%.3g", value)
    case ..<1e6: return String(format: "%.3g k", value / 1e3)
    case ..<1e9: return String(format: "%.3g M", value / 1e6)
    default: return String(format: "%.3g G", value / 1e9)
    }
  }

  /// `512 B`, `17.9 kB`, `17.9 MB` (powers of 10).
  static func bytes(_ value: Int) -> String {
    let amount = Double(value)
    switch amount {
    case ..<1e3: return "\(value) B"
    case ..<1e6: return String(format: "%.3g kB", amount / 1e3)
    default: return String(format: "%.3g MB", amount / 1e6)
    }
  }

  /// A throughput in MB/s: `0.52`, `17.9`, `3830`.
  static func megabytes(_ value: Double) -> String {
    value >= 1000 ? String(format: "%.0f", value) : String(format: "%.3g", value)
  }

  /// `3.1×`, `0.25×`, `320×`.
  static func ratio(_ value: Double) -> String {
    value >= 100 ? String(format: "%.0f×", value) : String(format: "%.3g×", value)
  }

  /// The size label of a case name: 1k, 100k, 1m.
  static func sizeLabel(_ n: Int) -> String {
    if n >= 1_000_000, n % 1_000_000 == 0 { return "\(n / 1_000_000)m" }
    if n >= 1_000, n % 1_000 == 0 { return "\(n / 1_000)k" }
    return String(n)
  }
}
