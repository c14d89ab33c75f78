import ArchiveCoding
import FoundationForms
import PropertyList

/// The class chains one archive's entries were decoded with, and the allowed-class set each last passed the
/// secure-coding check with: decoding many objects of one class with one set (the elements of an array) checks
/// once.
///
/// Chain indexes below ``plainChainCount`` are the plain entries' (``plainChains``, whose checks are kept in
/// place); index `i` above them is `chains[i - plainChainCount]`, a class met in this archive. The plain chains are
/// not copied into each archive's table.
struct SecureCodingMemo {
  /// A class chain and the allowed-class set it last passed the check with. Sets compare by identity first.
  struct ChainEntry {
    var chain: [String]
    var passedAllowed: Set<String>?

    /// `true` when the chain last passed the check with `allowed`. The set a call passes down to every nested
    /// decode is recognised by its storage reference, without the retains and the call of `==`.
    @inline(__always)
    func hasPassed(_ allowed: Set<String>) -> Bool { Self.passed(passedAllowed, matches: allowed) }

    /// `true` when `passed`, the set a chain last passed the check with, is `allowed`.
    @inline(__always)
    static func passed(_ passed: Set<String>?, matches allowed: Set<String>) -> Bool {
      guard let passed else { return false }
      if MemoryLayout<Set<String>>.size == MemoryLayout<Int>.size,
        unsafeBitCast(passed, to: Int.self) == unsafeBitCast(allowed, to: Int.self)
      {
        return true
      }
      return passed == allowed
    }
  }

  /// The allowed-class sets the four ``plainChains`` last passed the check with, in place.
  struct PlainChainPasses {
    private var string: Set<String>?
    private var data: Set<String>?
    private var date: Set<String>?
    private var number: Set<String>?

    subscript(index: Int) -> Set<String>? {
      @inline(__always) get {
        switch index {
        case 0: string
        case 1: data
        case 2: date
        default: number
        }
      }
      @inline(__always) set {
        switch index {
        case 0: string = newValue
        case 1: data = newValue
        case 2: date = newValue
        default: number = newValue
        }
      }
    }
  }

  /// The chains of the classes met in this archive (kept between archives by ``UnarchiverTables``).
  var chains: [ChainEntry] = []
  private var plainPasses = PlainChainPasses()

  /// The chain at `index` (a plain entry's or a class's).
  func chain(at index: Int) -> [String] {
    index < Self.plainChainCount ? Self.plainChains[index] : chains[index - Self.plainChainCount].chain
  }

  /// `true` when the chain at `index` last passed the check with `allowed`.
  @inline(__always)
  func hasPassed(_ index: Int, _ allowed: Set<String>) -> Bool {
    index < Self.plainChainCount
      ? ChainEntry.passed(plainPasses[index], matches: allowed)
      : chains[index - Self.plainChainCount].hasPassed(allowed)
  }

  /// Records that the chain at `index` passed the check with `allowed`.
  @inline(__always)
  mutating func setPassed(_ index: Int, _ allowed: Set<String>?) {
    if index < Self.plainChainCount {
      plainPasses[index] = allowed
    } else {
      chains[index - Self.plainChainCount].passedAllowed = allowed
    }
  }

  /// Adds the chain of a class met for the first time, and gives its index.
  mutating func append(_ chain: [String]) -> Int32 {
    let index = Int32(Self.plainChainCount + chains.count)
    chains.append(ChainEntry(chain: chain))
    return index
  }

  /// The number of ``plainChains`` (a constant: the array's count is read through its global's accessor).
  static var plainChainCount: Int { 4 }

  /// The chains of plain `$objects` entries, at the first chain indexes.
  static let plainChains: [[String]] = [
    [FoundationClass.string, FoundationClass.object], [FoundationClass.data, FoundationClass.object],
    [FoundationClass.date, FoundationClass.object],
    [FoundationClass.number, FoundationClass.value, FoundationClass.object],
  ]

  /// The index in `plainChains` of `NSNumber`'s chain (integers, reals and booleans).
  static var numberChainIndex: Int { 3 }

  /// The index in `plainChains` of the value ``KeyedUnarchiver/plainValue(_:header:)`` makes of an entry of this
  /// kind (read from the kind: a cast of the value would look up its type).
  static func plainChainIndex(of kind: BinaryPropertyListReader.Kind) -> Int {
    switch kind {
    case .asciiString, .utf16String: 0
    case .data: 1
    case .date: 2
    default: numberChainIndex
    }
  }
}
