import Foundation

/// A seeded pseudo-random generator (SplitMix64), so every run of the benchmarks builds the same inputs.
///
/// The helpers below are our own rather than the standard library's `random(in:using:)`, whose algorithms may change
/// between toolchains: the inputs must stay byte-for-byte identical across machines and versions.
struct SplitMix64 {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A value in `0..<bound` (multiply-high reduction; the bias is irrelevant for benchmark inputs).
  mutating func int(below bound: Int) -> Int {
    precondition(bound > 0, "SplitMix64.int(below:) needs a positive bound")
    return Int(truncatingIfNeeded: next().multipliedFullWidth(by: UInt64(bound)).high)
  }

  /// An integer whose magnitude varies from one byte to eight, so encoders meet every integer width.
  mutating func mixedWidthInt() -> Int {
    let shift = UInt64(int(below: 64))
    let magnitude = Int(truncatingIfNeeded: next() >> shift)
    return next() & 1 == 0 ? magnitude : -magnitude
  }

  /// A double in `0..<1` with 53 random bits.
  mutating func unitDouble() -> Double { Double(next() >> 11) * 0x1p-53 }

  mutating func bool() -> Bool { next() & 1 == 1 }

  /// `count` random bytes.
  mutating func data(count: Int) -> Data {
    var bytes = [UInt8]()
    bytes.reserveCapacity(count)
    while bytes.count < count {
      var word = next()
      for _ in 0..<min(8, count - bytes.count) {
        bytes.append(UInt8(truncatingIfNeeded: word))
        word >>= 8
      }
    }
    return Data(bytes)
  }

  /// A lowercase ASCII word of `length` letters.
  mutating func word(length: Int) -> String {
    var scalars = [UInt8]()
    scalars.reserveCapacity(length)
    for _ in 0..<length { scalars.append(UInt8(ascii: "a") + UInt8(int(below: 26))) }
    return String(decoding: scalars, as: UTF8.self)
  }
}
