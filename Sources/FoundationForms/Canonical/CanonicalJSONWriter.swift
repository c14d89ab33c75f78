import Foundation

/// Writes the canonical view as JSON bytes while it is walked (cli.md's canonical JSON): one line, or indented two
/// spaces a level with `pretty`.
///
/// The bytes go to `sink` in pieces of about 64 KiB as they are written, so a large archive is never held as one
/// document; without a sink they stay in ``bytes``. The elements of an array written in another order than the
/// walk's (a set's members, the entries of a dictionary whose keys are objects: ``CanonicalOrder``) are held
/// until the array ends, then sorted and written.
package struct CanonicalJSONWriter: CanonicalVisitor {
  /// `true` for the indented layout.
  package let pretty: Bool
  /// The bytes written and not yet given to the sink.
  package private(set) var bytes: [UInt8] = []
  private let sink: (([UInt8]) -> Void)?
  /// The bytes are given to the sink once they reach this many (and no sorted array holds some back).
  private static let flushSize = 1 << 16

  /// An object or array being written.
  private struct Level {
    var isObject: Bool
    var order: CanonicalOrder
    /// The members written so far.
    var count = 0
    /// For a pair `[key, value]` of a ``CanonicalOrder/byKeyText`` array: where its key's text starts and ends.
    var keyStart = 0
    var keyEnd: Int?
  }

  private var levels: [Level] = []
  /// For each array being written in another order, its elements so far: each one's text, and the sort key's
  /// bytes within it.
  private var heldMembers: [[(text: [UInt8], key: Range<Int>)]] = []
  /// The output an element of a sorted array is being held back from (the element's own text is ``bytes``).
  private var heldBack: [[UInt8]] = []
  /// `true` between a key and its value.
  private var afterKey = false

  /// A writer.
  /// - Parameters:
  ///   - pretty: the indented layout.
  ///   - sink: where the bytes go as they are written; `nil` to keep them in ``bytes``.
  package init(pretty: Bool = false, sink: (([UInt8]) -> Void)? = nil) {
    self.pretty = pretty
    self.sink = sink
  }

  /// The text written, for a writer without a sink.
  package var text: String { String(decoding: bytes, as: UTF8.self) }

  /// Gives what is written to the sink (a writer without one keeps it).
  package mutating func flush() {
    guard let sink, heldBack.isEmpty, !bytes.isEmpty else { return }
    sink(bytes)
    bytes.removeAll(keepingCapacity: true)
  }

  /// Forgets what was written (a writer without a sink that measures one value after another).
  package mutating func reset() {
    bytes.removeAll(keepingCapacity: true)
    levels.removeAll(keepingCapacity: true)
    heldMembers.removeAll()
    heldBack.removeAll()
    afterKey = false
    pendingPairKey = nil
  }

  /// Appends a line break after the value (the end of a document).
  package mutating func endLine() {
    bytes.append(UInt8(ascii: "\n"))
    flush()
  }

  // MARK: Layout

  private mutating func newline(indent: Int) {
    bytes.append(UInt8(ascii: "\n"))
    for _ in 0..<indent { bytes.append(contentsOf: [UInt8(ascii: " "), UInt8(ascii: " ")]) }
  }

  /// What goes before a value: nothing after a key; in an array, the separator, or the start of an element held
  /// back for sorting.
  private mutating func beginValue() {
    if afterKey {
      afterKey = false
      return
    }
    guard let last = levels.indices.last else { return }
    if levels[last].order != .asWalked {
      heldBack.append(bytes)
      bytes = []
      return
    }
    separate(last)
    if last > 0, levels[last - 1].order == .byKeyText, levels[last].count == 1 {
      levels[last].keyStart = bytes.count
    }
  }

  /// The separator before member number `count` of level `index`, and the line break of the indented layout.
  private mutating func separate(_ index: Int) {
    if levels[index].count > 0 { bytes.append(UInt8(ascii: ",")) }
    levels[index].count += 1
    if pretty { newline(indent: index + 1) }
  }

  /// After a whole value: an element held back for sorting is put aside, a pair's key has ended.
  private mutating func endValue() {
    guard let last = levels.indices.last else {
      if bytes.count >= Self.flushSize { flush() }
      return
    }
    if levels[last].order != .asWalked {
      var text: [UInt8] = []
      swap(&text, &bytes)
      bytes = heldBack.removeLast()
      var key = 0..<text.count
      if levels[last].order == .byKeyText, let pair = pendingPairKey {
        key = pair
        pendingPairKey = nil
      }
      heldMembers[heldMembers.count - 1].append((text, key))
      return
    }
    if last > 0, levels[last - 1].order == .byKeyText, levels[last].count == 1, levels[last].keyEnd == nil {
      levels[last].keyEnd = bytes.count
    }
    if heldBack.isEmpty, bytes.count >= Self.flushSize { flush() }
  }

  /// The key range of the pair just ended, for the sorted array holding it.
  private var pendingPairKey: Range<Int>?

  private mutating func open(_ bracket: UInt8, isObject: Bool, order: CanonicalOrder) {
    beginValue()
    bytes.append(bracket)
    levels.append(Level(isObject: isObject, order: order))
    if order != .asWalked { heldMembers.append([]) }
  }

  private mutating func close(_ bracket: UInt8) {
    var level = levels.removeLast()
    if level.order != .asWalked {
      let members = heldMembers.removeLast()
      let sorted: [(text: [UInt8], key: Range<Int>)]
      if pretty {
        let keys = members.map { CanonicalText.compacted($0.text[$0.key]) }
        sorted = members.indices.sorted { CanonicalText.precedes(keys[$0], keys[$1]) }.map { members[$0] }
      } else {
        sorted = members.sorted { CanonicalText.precedes($0.text[$0.key], $1.text[$1.key]) }
      }
      levels.append(Level(isObject: false, order: .asWalked))
      for member in sorted {
        separate(levels.count - 1)
        bytes.append(contentsOf: member.text)
      }
      level = levels.removeLast()
    } else if let keyEnd = level.keyEnd, let parent = levels.last, parent.order == .byKeyText {
      pendingPairKey = level.keyStart..<keyEnd
    }
    if level.count > 0, pretty { newline(indent: levels.count) }
    bytes.append(bracket)
    endValue()
  }

  // MARK: CanonicalVisitor

  package mutating func beginObject() { open(UInt8(ascii: "{"), isObject: true, order: .asWalked) }

  package mutating func visitKey(_ name: String) {
    separate(levels.count - 1)
    CanonicalText.appendQuoted(name, to: &bytes)
    bytes.append(UInt8(ascii: ":"))
    if pretty { bytes.append(UInt8(ascii: " ")) }
    afterKey = true
  }

  package mutating func endObject() { close(UInt8(ascii: "}")) }

  package mutating func beginArray(_ order: CanonicalOrder) { open(UInt8(ascii: "["), isObject: false, order: order) }

  package mutating func endArray() { close(UInt8(ascii: "]")) }

  package mutating func visitNull() { visitRaw("null") }

  package mutating func visitBool(_ value: Bool) { visitRaw(value ? "true" : "false") }

  package mutating func visitNumber(_ value: CanonicalNumber) {
    switch value {
    case .integer(let integer):
      beginValue()
      CanonicalText.appendInteger(integer, to: &bytes)
      endValue()
    case .unsignedInteger(let integer):
      beginValue()
      CanonicalText.appendUnsigned(integer, to: &bytes)
      endValue()
    case .real(let real):
      if let name = CanonicalText.nonFiniteName(real) {
        beginObject()
        visitKey(CanonicalMember.real)
        visitString(name)
        endObject()
      } else {
        visitRaw(CanonicalText.realText(real))
      }
    }
  }

  package mutating func visitString(_ value: String) {
    beginValue()
    CanonicalText.appendQuoted(value, to: &bytes)
    endValue()
  }

  package mutating func visitData(_ data: Data) {
    beginObject()
    visitKey(CanonicalMember.data)
    beginValue()
    bytes.append(UInt8(ascii: "\""))
    // Copied out at once: each element of `Data` read through its iterator is a call.
    CanonicalText.appendBase64([UInt8](data), to: &bytes)
    bytes.append(UInt8(ascii: "\""))
    endValue()
    endObject()
  }

  /// A value whose JSON text is made already (`null`, a number, a quoted string).
  package mutating func visitRaw(_ text: String) {
    beginValue()
    bytes.append(contentsOf: text.utf8)
    endValue()
  }
}
