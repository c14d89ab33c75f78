import Foundation
import PropertyList
import TestSupport

/// A library-neutral description of a random object graph, turned into Foundation values with either side's twin
/// class (``FoundationTwin`` or ``OurTwin``).
indirect enum GraphValue {
  case string(String)
  case integer(Int64)
  case unsigned(UInt64)
  case double(Double)
  case float(Float)
  case bool(Bool)
  case data(Data)
  case date(Double)
  case uuid(UUID)
  case url(relative: String, base: String?)
  case null
  case array([GraphValue])
  case dictionary([(key: GraphValue, value: GraphValue)])
  case set([GraphValue])
  case twin(TwinSpec)
}

/// One twin object of a random graph. The same spec used twice is one shared instance.
final class TwinSpec {
  let id: Int
  var label: String?
  var count: Int64 = 0
  var small: Int32 = 0
  var flag = false
  var ratio = 0.0
  var single: Float = 0
  var bytes: Data?
  var weird: Int64 = 0
  var payload: GraphValue?
  var buddy: TwinSpec?
  init(id: Int) { self.id = id }
}

/// Which library writes the archive, which decides what the generator must avoid.
enum GraphWriter {
  /// The toolchain's `NSKeyedArchiver`. Workarounds for its known bugs (research note §10), never applied to our
  /// own implementation:
  /// - bug 3, uniquing by value: `true`, `1` and `1.0` (and any numbers that compare equal as `NSNumber`s) would
  ///   merge into one `$objects` entry and decode as one type, so no two numbers of different kinds in one graph
  ///   are numerically equal;
  /// - corelibs' `NSNumber` stores an infinite `Float` as a double (`objCType` `d`), so no infinite 32-bit real
  ///   objects (in either direction: it decodes a 4-byte infinity the same way);
  /// - corelibs archives a URL that has a base as its absolute string with `NS.base` nil (Darwin keeps the base,
  ///   see the ComplexTest corpus archive), so only URLs without a base;
  /// - bug 6, forward conditional references dropped: no conditional references at all;
  /// - its XML writer prints `-0.0` as `0.0`: no negative zero in XML archives;
  /// - its `NSNull`s are equal but hash by identity, which traps its uniquing dictionary: one `NSNull` per graph
  ///   (see ``GraphMaterializer/foundation``).
  case foundation
  /// ``KeyedArchiver``, read back by the toolchain's `NSKeyedUnarchiver`, whose XML reader drops a string's leading
  /// U+FEFF (even its own output, and even written as `&#xFEFF;`): no string starting with U+FEFF in XML archives;
  /// no infinite 32-bit real objects (as above).
  /// (It also drops a URL's base when decoding; the comparison resolves URLs instead, see
  /// ``ValueSnapshot/resolvingRelativeURLs()``.)
  case ours
}

/// Builds random acyclic graphs (the toolchain's unarchiver overflows its stack on cycles, bug 1).
///
/// Format-level restrictions for both writers: the string `"$null"` is left out (any `$objects` entry equal to it
/// decodes as `nil`, ARC-023), and XML archives hold no 32-bit real object (XML has one real type, ARC-010).
struct RandomGraph {
  var rng: SplitMix64
  let writer: GraphWriter
  let format: PropertyListFormat
  private var budget: Int
  private var nextTwinID = 0
  private var finishedTwins: [TwinSpec] = []
  private var numberKinds: [UInt64: Int] = [:]

  init(seed: UInt64, writer: GraphWriter, format: PropertyListFormat, size: Int = 40) {
    rng = SplitMix64(seed: seed &* 0x2545_F491_4F6C_DD1D &+ 17)
    self.writer = writer
    self.format = format
    budget = size
  }

  static let strings = [
    "", "a", "hello", "Grüße, Jürgen", "日本語のテキスト", "🎉 party 🇨🇭", "e\u{301}", "tab\there", "line\nbreak",
    "quote\" back\\slash <tag> & amp", "$dollar", "$0", "NS.objects", String(repeating: "long ", count: 60),
    "\u{FEFF}bom", "\u{10FFFF}", "ümlaut and 🎉 mixed", "cr\rlf",
  ]
  static let integers: [Int64] = [
    0, 1, -1, 2, 42, 127, 128, 255, 256, -255, 65535, 65536, Int64(Int32.max), Int64(Int32.min), 4_294_967_295,
    4_294_967_296, Int64.max, Int64.min, Int64.max - 1, -9_007_199_254_740_993,
  ]
  static let unsigneds: [UInt64] = [UInt64(Int64.max) + 1, UInt64.max, 0xDEAD_BEEF_CAFE_BABE]
  static let doubles: [Double] = [
    0.0, -0.0, 0.1, -1.5, .pi, 1e300, -1e-300, .leastNonzeroMagnitude, .nan, .infinity, -.infinity,
    .greatestFiniteMagnitude,
    123_456_789.123_456_78, 2.5,
  ]
  static let floats: [Float] = [0.5, -2.25, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 3.14159, .infinity, -7]
  static let dates: [Double] = [0, -1_000_000_000, 1_234_567.891, 700_000_000, 63_113_904_000, -0.001]
  static let urls: [(String, String?)] = [
    ("https://www.swift.org/", nil), ("index.xml", "https://www.swift.org"), ("file:///tmp/a%20b.txt", nil),
    ("../up/x?q=1#frag", "https://h.example/a/b/"), ("mailto:someone@example.com", nil),
    ("https://example.com/%E6%97%A5%E6%9C%AC", nil),
  ]

  mutating func int(_ range: Range<Int>) -> Int { Int.random(in: range, using: &rng) }
  mutating func chance(_ percent: Int) -> Bool { int(0..<100) < percent }

  /// The root of a new graph.
  mutating func root() -> GraphValue {
    switch int(0..<4) {
    case 0: return .twin(twin())
    case 1: return container(depth: 0)
    default: return value(depth: 0)
    }
  }

  mutating func value(depth: Int) -> GraphValue {
    budget -= 1
    if budget <= 0 || depth >= 5 { return scalar() }
    switch int(0..<10) {
    case 0, 1, 2, 3: return scalar()
    case 4, 5, 6: return container(depth: depth)
    default:
      if !finishedTwins.isEmpty, chance(30) {
        return .twin(finishedTwins[int(0..<finishedTwins.count)])  // a shared reference
      }
      return .twin(twin(depth: depth))
    }
  }

  mutating func container(depth: Int) -> GraphValue {
    switch int(0..<3) {
    case 0: return .array((0..<int(0..<6)).map { _ in value(depth: depth + 1) })
    case 1:
      var seen: Set<String> = []
      var entries: [(key: GraphValue, value: GraphValue)] = []
      for _ in 0..<int(0..<6) {
        let key = hashableScalar()
        guard seen.insert(Self.text(key)).inserted else { continue }
        entries.append((key, value(depth: depth + 1)))
      }
      return .dictionary(entries)
    default:
      var seen: Set<String> = []
      var members: [GraphValue] = []
      for _ in 0..<int(0..<6) {
        let member = hashableScalar()
        if seen.insert(Self.text(member)).inserted { members.append(member) }
      }
      return .set(members)
    }
  }

  static func text(_ value: GraphValue) -> String {
    switch value {
    case .string(let s): "s" + s.unicodeScalars.map { String($0.value) }.joined(separator: ",")
    case .integer(let i): "i\(i)"
    default: "?"
    }
  }

  /// Dictionary keys and set members: strings and integers.
  mutating func hashableScalar() -> GraphValue {
    chance(60) ? .string(string()) : number(kind: 1)
  }

  mutating func string() -> String {
    if chance(70) {
      let choice = Self.strings[int(0..<Self.strings.count)]
      return writer == .ours && format == .xml && choice.hasPrefix("\u{FEFF}") ? "bom" : choice
    }
    let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789 ßçø€")
    return String((0..<int(0..<24)).map { _ in alphabet[int(0..<alphabet.count)] })
  }

  mutating func scalar() -> GraphValue {
    switch int(0..<12) {
    case 0, 1: return .string(string())
    case 2: return number(kind: 0)
    case 3, 4: return number(kind: 1)
    case 5: return number(kind: 2)
    case 6: return format == .xml ? number(kind: 2) : number(kind: 3)
    case 7: return .data(data())
    case 8: return .date(Self.dates[int(0..<Self.dates.count)] + (chance(50) ? Double(int(0..<1000)) / 8 : 0))
    case 9: return .uuid(UUID(uuid: uuidBytes()))
    case 10:
      let choices = writer == .foundation ? Self.urls.filter { $0.1 == nil } : Self.urls
      let (relative, base) = choices[int(0..<choices.count)]
      return .url(relative: relative, base: base)
    default: return .null
    }
  }

  mutating func data() -> Data {
    let count = [0, 1, 16, 300][int(0..<4)]
    return Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) })
  }

  mutating func uuidBytes() -> uuid_t {
    var b = (0..<16).map { _ in UInt8.random(in: 0...255, using: &rng) }
    b[6] = b[6] & 0x0F | 0x40
    b[8] = b[8] & 0x3F | 0x80
    return (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15])
  }

  /// A number of kind 0 (boolean), 1 (integer), 2 (64-bit real) or 3 (32-bit real). For Foundation-written
  /// graphs, a number whose value equals one of another kind already in the graph is redrawn (bug 3).
  mutating func number(kind: Int) -> GraphValue {
    for _ in 0..<20 {
      let candidate: GraphValue
      let numeric: Double
      switch kind {
      case 0:
        let b = chance(50)
        candidate = .bool(b)
        numeric = b ? 1 : 0
      case 1:
        if chance(10) {
          let u = Self.unsigneds[int(0..<Self.unsigneds.count)]
          candidate = .unsigned(u)
          numeric = Double(u)
        } else {
          let i = chance(70) ? Self.integers[int(0..<Self.integers.count)] : Int64(int(-100_000..<100_000))
          candidate = .integer(i)
          numeric = Double(i)
        }
      case 2:
        var d = chance(70) ? Self.doubles[int(0..<Self.doubles.count)] : Double(int(-1000..<1000)) / 7
        if writer == .foundation, format == .xml, d == 0 { d = 0.0 }
        candidate = .double(d)
        numeric = d
      default:
        let choices = Self.floats.filter(\.isFinite)
        let f = choices[int(0..<choices.count)]
        candidate = .float(f)
        numeric = Double(f)
      }
      guard writer == .foundation else { return candidate }
      let key = numeric.isNaN ? UInt64.max : (numeric == 0 ? 0 : numeric.bitPattern)
      if let existing = numberKinds[key], existing != kind { continue }
      numberKinds[key] = kind
      return candidate
    }
    return .string(string())
  }

  mutating func twin(depth: Int = 0) -> TwinSpec {
    let spec = TwinSpec(id: nextTwinID)
    nextTwinID += 1
    spec.label = chance(80) ? string() : nil
    spec.count = chance(50) ? Self.integers[int(0..<Self.integers.count)] : Int64(int(-5000..<5000))
    spec.small = Int32.random(in: Int32.min...Int32.max, using: &rng)
    spec.flag = chance(50)
    spec.ratio = Self.doubles[int(0..<Self.doubles.count)]
    if writer == .foundation, format == .xml, spec.ratio == 0 { spec.ratio = 0.0 }
    spec.single = Self.floats[int(0..<Self.floats.count)]
    spec.bytes = chance(50) ? data() : nil
    spec.weird = Int64(int(-99..<99))
    spec.payload = chance(85) ? value(depth: depth + 1) : nil
    if writer == .ours, chance(40) {
      // A conditional reference: to a finished twin (kept when that twin is in the graph) or to a twin that is
      // referenced only conditionally (dropped).
      if !finishedTwins.isEmpty, chance(70) {
        spec.buddy = finishedTwins[int(0..<finishedTwins.count)]
      } else {
        let orphan = TwinSpec(id: nextTwinID)
        nextTwinID += 1
        orphan.label = "orphan"
        spec.buddy = orphan
      }
    }
    finishedTwins.append(spec)
    return spec
  }
}

/// Turns a graph into Swift/Foundation values, with one twin instance per ``TwinSpec``.
struct GraphMaterializer<Twin: AnyObject> {
  let makeTwin: (TwinSpec) -> Twin
  let fill: (Twin, TwinSpec, inout GraphMaterializer<Twin>) -> Void
  /// One `NSNull` for the whole graph, or a new one per use.
  let sharedNull: NSNull?
  private var twins: [Int: Twin] = [:]

  init(
    sharedNull: NSNull?, makeTwin: @escaping (TwinSpec) -> Twin,
    fill: @escaping (Twin, TwinSpec, inout GraphMaterializer<Twin>) -> Void
  ) {
    self.sharedNull = sharedNull
    self.makeTwin = makeTwin
    self.fill = fill
  }

  mutating func twin(_ spec: TwinSpec) -> Twin {
    if let existing = twins[spec.id] { return existing }
    let twin = makeTwin(spec)
    twins[spec.id] = twin
    fill(twin, spec, &self)
    return twin
  }

  mutating func value(_ graph: GraphValue) -> Any {
    switch graph {
    case .string(let v): return v
    case .integer(let v): return Int(v)
    case .unsigned(let v): return v
    case .double(let v): return v
    case .float(let v): return v
    case .bool(let v): return v
    case .data(let v): return v
    case .date(let v): return Date(timeIntervalSinceReferenceDate: v)
    case .uuid(let v): return v
    case .url(let relative, let base):
      return URL(string: relative, relativeTo: base.flatMap { URL(string: $0) }) ?? URL(fileURLWithPath: "/invalid")
    case .null: return sharedNull ?? NSNull()
    case .array(let elements): return elements.map { value($0) }
    case .dictionary(let entries):
      var result: [AnyHashable: Any] = [:]
      for entry in entries {
        if let key = value(entry.key) as? AnyHashable { result[key] = value(entry.value) }
      }
      return result
    case .set(let members): return Set(members.compactMap { value($0) as? AnyHashable })
    case .twin(let spec): return twin(spec)
    }
  }

  /// corelibs' `NSNull` instances are all equal but hash by identity, so two of them in one archive break the
  /// archiver's uniquing dictionary (a "Duplicate keys" trap, found by these tests): Foundation-written graphs use
  /// one `NSNull`.
  static var foundation: GraphMaterializer<FoundationTwin> {
    GraphMaterializer<FoundationTwin>(
      sharedNull: NSNull(),
      makeTwin: { _ in FoundationTwin() },
      fill: { twin, spec, materializer in
        twin.label = spec.label
        twin.count = spec.count
        twin.small = spec.small
        twin.flag = spec.flag
        twin.ratio = spec.ratio
        twin.single = spec.single
        twin.bytes = spec.bytes
        twin.weird = spec.weird
        twin.payload = spec.payload.map { materializer.value($0) }
        twin.buddy = spec.buddy.map { materializer.twin($0) }
      })
  }

  static var ours: GraphMaterializer<OurTwin> {
    GraphMaterializer<OurTwin>(
      sharedNull: nil,
      makeTwin: { _ in OurTwin() },
      fill: { twin, spec, materializer in
        twin.label = spec.label
        twin.count = spec.count
        twin.small = spec.small
        twin.flag = spec.flag
        twin.ratio = spec.ratio
        twin.single = spec.single
        twin.bytes = spec.bytes
        twin.weird = spec.weird
        twin.payload = spec.payload.map { materializer.value($0) }
        twin.buddy = spec.buddy.map { materializer.twin($0) }
      })
  }
}
