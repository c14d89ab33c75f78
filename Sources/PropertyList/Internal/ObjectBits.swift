/// One bit per object of a list: which objects a pass over it has met.
struct ObjectBits {
  private var words: [UInt64]

  /// No object met, of `count`.
  init(count: Int) { words = [UInt64](repeating: 0, count: (count + 63) / 64) }

  /// Whether object `index` (below the count) was met.
  subscript(index: Int) -> Bool {
    @inline(__always) get { words[index >> 6] & (1 << UInt64(index & 63)) != 0 }
    @inline(__always) set {
      let bit = UInt64(1) << UInt64(index & 63)
      if newValue { words[index >> 6] |= bit } else { words[index >> 6] &= ~bit }
    }
  }
}
