import ArchiveCoding
import Foundation

/// Materialisation: building the ``PropertyListValue`` of an object and everything it contains, within the limits.
extension BinaryPropertyListReader {
  /// Materialises the object and everything it contains. A string or data object of more than
  /// ``sharedPayloadLength`` bytes, and a container reached more than once, is materialised once and shared by
  /// every reference to it (ARC-007, ARC-043).
  /// - Throws: ``/ArchiveCoding/ArchiveError`` when content is invalid, containers nest deeper than the limit or contain
  ///   themselves, a dictionary key is a container, or expansion of shared containers exceeds the limit.
  package func value(of object: Int) throws -> PropertyListValue {
    try value(of: object, memo: MaterialisationMemo(keepingValues: false))
  }

  /// ``value(of:)`` for one of many objects of the list materialised one after another (the inline containers of a
  /// keyed archive's fields): `memo` keeps what each call counted, so that a container reached from many calls is
  /// counted once and a call costs what it materialises, not the size of the list; and, when it keeps values, what
  /// each call made, so that a string, data or container reached from many calls is made once and shared (ARC-007,
  /// ARC-043). The expansion limit applies to each call.
  /// - Throws: what ``value(of:)`` throws.
  package func value(of object: Int, memo: MaterialisationMemo) throws -> PropertyListValue {
    var state = Materialization(budget: options.maxExpandedValueCount, expansions: nil)
    // A container is counted first (linear: each shared container is counted once), so a hostile file is refused
    // before any allocation instead of after building a huge tree. The count also checks what
    // ``Validation/onAccess`` left unchecked: nesting, cycles and dictionary keys. A count that failed leaves
    // containers marked as being counted: its memo is dropped. A scalar needs no count.
    if try header(of: object).kind.isContainer {
      var expansions = memo.expansions ?? ExpansionMemo(objectCount: objectCount)
      memo.expansions = nil
      try countExpansion(of: object, into: &expansions)
      state = Materialization(budget: options.maxExpandedValueCount, expansions: expansions)
      memo.expansions = consume expansions
    }
    guard memo.keepsValues else { return try materialize(object, &state) }
    state.keepsContainers = true
    state.shared = memo.values
    memo.values = [:]
    defer { memo.values = state.shared }
    return try materialize(object, &state)
  }

  /// Checks that the object and everything it contains can be materialised, as ``value(of:)`` checks it, without
  /// building the value: the same errors, found in the same order (a reader of the whole file that walks it in
  /// place, such as `keyed dump`, refuses what materialising it refuses).
  /// - Throws: what ``value(of:)`` throws.
  package func checkValue(of object: Int) throws {
    if isValidated, try checkTree(from: object) { return }
    var memo = try countedExpansion(of: object)
    // What materialising reads beyond the headers the count read: the contents of strings and integers, in the
    // order it reads them, each container once (the count bounded the rest).
    try readInPreOrder(from: object) { object, _ in
      // In a list checked when it was read (``Validation/full``), only integers, ASCII strings and containers are
      // read further: another object is known by its marker.
      if isValidated, !hasContainerMarker(object), !hasIntegerOrASCIIStringMarker(object) { return .next }
      let header = try header(of: object)
      guard header.kind.isContainer else {
        try readContent(header, object: object)
        return .next
      }
      // A container reached again was read at its first appearance (a scalar read again costs less than a mark).
      return memo.markRead(object) ? .open(header) : .next
    }
  }

  /// Reads what materialising an integer or an ASCII string reads beyond its header, for its error: the integer,
  /// and the string only when it holds a byte that is not ASCII (making the string costs more than the check).
  /// Nothing for another kind.
  private func readContent(_ header: Header, object: Int) throws {
    switch header.kind {
    case .integer: _ = try integer(header, object: object)
    case .asciiString:
      if !Self.isASCII(bytes[header.start..<(header.start + header.count)]) { _ = try string(header, object: object) }
    default: break
    }
  }

  /// What a reading in pre-order does after an object (``readInPreOrder(from:_:)``).
  private enum PreOrderStep {
    /// Goes on to the next object.
    case next
    /// Reads the container's children next.
    case open(Header)
    /// Ends the reading.
    case stop
  }

  /// Reads `object` and, in pre-order, the children of every container `read` opens, a dictionary's keys and values
  /// by turns: the order materialising reads them in. `read` is given each object and the number of containers open
  /// above it. A stack of the containers being read, not of the objects still to read: the `$objects` array of an
  /// archive holds every object.
  /// - Returns: `false` when `read` ended the reading (``PreOrderStep/stop``).
  @discardableResult
  private func readInPreOrder(from object: Int, _ read: (Int, Int) throws -> PreOrderStep) rethrows -> Bool {
    var open: [(header: Header, next: Int)] = []
    func step(_ object: Int) throws -> Bool {
      switch try read(object, open.count) {
      case .next: return true
      case .open(let header):
        open.append((header, 0))
        return true
      case .stop: return false
      }
    }
    guard try step(object) else { return false }
    while let last = open.indices.last {
      let (header, next) = open[last]
      let count = header.kind == .dictionary ? 2 * header.count : header.count
      guard next < count else {
        open.removeLast()
        continue
      }
      open[last].next = next + 1
      let child =
        header.kind == .dictionary
        ? (next % 2 == 0 ? element(header, next / 2) : dictionaryValue(header, next / 2)) : element(header, next)
      guard try step(child) else { return false }
    }
    return true
  }

  /// ``checkValue(of:)`` of a list checked when it was read (``Validation/full``) whose containers reached from
  /// `object` form a tree, as archivers write them: no container reached twice, none deeper than the limit. One pass
  /// in the order ``checkValue(of:)`` reads, counting as ``countedExpansion(of:)`` counts, with a bit per object
  /// where the count keeps seven bytes; the first error of a read is kept until the count is known, so that the
  /// errors come in the same order. `false`, having thrown nothing, at the first container reached twice or too
  /// deep: the general check then finds what that means (a shared container, a cycle, nesting past the limit).
  func checkTree(from object: Int) throws -> Bool {
    guard object >= 0, object < objectCount else { return false }
    var seen = ObjectBits(count: objectCount)
    var count = 0
    var firstError: (any Error)?
    let isTree = readInPreOrder(from: object) { object, depth in
      count += 1
      let marker = marker(of: object)
      guard Self.isContainer(marker: marker) else {
        if firstError == nil, Self.isIntegerOrASCIIString(marker: marker) {
          do { try readContent(header(of: object), object: object) } catch { firstError = error }
        }
        return .next
      }
      // A container reached again, or deeper than the limit: the general check says what it means.
      guard !seen[object], depth < options.maxDepth, let header = try? header(of: object) else { return .stop }
      seen[object] = true
      return .open(header)
    }
    guard isTree else { return false }
    guard count <= options.maxExpandedValueCount else { throw try expansionLimitError(object) }
    if let firstError { throw firstError }
    return true
  }

  /// The containers reached more than once from the object, after counting what materialising it would make
  /// (`countedExpansion(of:)`): the same checks and errors as ``value(of:)`` before it builds anything.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` when containers nest deeper than the limit or contain themselves, a dictionary key
  ///   is a container, or the expansion of shared containers exceeds the limit.
  package func sharedContainers(from object: Int) throws -> Set<Int> {
    try countedExpansion(of: object).sharedContainers
  }

  /// Counts what `object` expands to (``expansion(of:depth:memo:)``), refusing more than the options allow.
  private func countedExpansion(of object: Int) throws -> ExpansionMemo {
    var memo = ExpansionMemo(objectCount: objectCount)
    try countExpansion(of: object, into: &memo)
    return memo
  }

  /// Counts what `object` expands to into `memo`, which may hold the counts of other objects already (each
  /// container is counted once), refusing more than the options allow.
  private func countExpansion(of object: Int, into memo: inout ExpansionMemo) throws {
    let expanded = try expansion(of: object, depth: 1, memo: &memo).count
    guard expanded <= options.maxExpandedValueCount else { throw try expansionLimitError(object) }
  }

  private func expansionLimitError(_ object: Int) throws -> ArchiveError {
    ArchiveError(
      .limitExceeded,
      "the property list expands to more than \(options.maxExpandedValueCount) values (shared containers)",
      at: .init(byteOffset: try offset(of: object), objectIndex: object))
  }

  /// Strings and data longer than this are materialised once per object and shared.
  static let sharedPayloadLength = 15

  /// What a materialisation has left to spend, and the shared values it made.
  private struct Materialization {
    var budget: Int
    /// The count of the expansion, which marks the containers reached more than once: each is materialised once and
    /// its value shared (arrays and dictionaries share their storage), so a small file of shared containers does
    /// not become a large tree in memory.
    let expansions: ExpansionMemo?
    var shared: [Int: PropertyListValue] = [:]
    /// Every container is kept in ``shared`` (a memo that keeps values), not only those reached more than once.
    var keepsContainers = false

    init(budget: Int, expansions: ExpansionMemo?) {
      self.budget = budget
      self.expansions = expansions
    }
  }

  /// What a container expands to: the number of values (saturating just above the limit) and the depth of the
  /// containers inside it, itself included; `height` is -1 while the container is being counted.
  struct Expansion {
    var count: Int
    var height: Int
    /// `true` once the container is reached a second time: it is then materialised once and shared.
    var shared = false
  }

  /// The expansions counted so far, by object number, in arrays (a keyed archive holds a container per object).
  struct ExpansionMemo {
    /// 0 not counted, 1 being counted, 2 counted; 4 added once reached again.
    private var states: [UInt8]
    /// Counts past `UInt32.max` are kept as that (only a limit above it could tell them apart).
    private var counts: [UInt32]
    private var heights: [UInt16]

    init(objectCount: Int) {
      states = Array(repeating: 0, count: objectCount)
      counts = Array(repeating: 0, count: objectCount)
      heights = Array(repeating: 0, count: objectCount)
    }

    subscript(object: Int) -> Expansion? {
      switch states[object] & 3 {
      case 0: nil
      case 1: Expansion(count: 0, height: -1)
      default: Expansion(count: Int(counts[object]), height: Int(heights[object]), shared: states[object] & 4 != 0)
      }
    }

    mutating func begin(_ object: Int) { states[object] = 1 }

    mutating func finish(_ object: Int, _ expansion: Expansion) {
      states[object] = 2
      counts[object] = UInt32(clamping: expansion.count)
      heights[object] = UInt16(clamping: expansion.height)
    }

    mutating func markShared(_ object: Int) { states[object] |= 4 }

    /// Marks a counted container as read, once; `false` when it was already.
    mutating func markRead(_ object: Int) -> Bool {
      guard states[object] & 8 == 0 else { return false }
      states[object] |= 8
      return true
    }

    /// The containers reached more than once.
    var sharedContainers: Set<Int> { Set(states.indices.lazy.filter { states[$0] & 4 != 0 }) }

    /// `true` for a container reached more than once.
    func isShared(_ object: Int) -> Bool { states[object] & 4 != 0 }
  }

  /// The expansion of the object reached at `depth` (the number of containers on the path, itself included).
  /// Recursion is bounded: it stops with an error past the depth limit, and a container met again while it is
  /// being counted contains itself.
  private func expansion(of object: Int, depth: Int, memo: inout ExpansionMemo) throws -> Expansion {
    // A reference the reader has not checked (``Validation/onAccess``) is refused before the memo is indexed by it.
    guard object >= 0, object < objectCount else { throw referenceError(object) }
    // In a list checked when it was read (``Validation/full``), an object that is not a container is known by its
    // marker.
    if isValidated, !hasContainerMarker(object) { return Expansion(count: 1, height: 0) }
    if let known = memo[object] {
      guard known.height >= 0 else {
        throw ArchiveError(
          .corruptData, "container object \(object) contains itself",
          at: .init(byteOffset: try offset(of: object), objectIndex: object))
      }
      guard depth - 1 + known.height <= options.maxDepth else { throw depthError(object) }
      memo.markShared(object)
      return known
    }
    let header = try header(of: object)
    guard header.kind.isContainer else { return Expansion(count: 1, height: 0) }
    guard depth <= options.maxDepth else { throw depthError(object) }
    memo.begin(object)
    let ceiling = options.maxExpandedValueCount + 1
    var total = 1
    var height = 1
    let elements = header.kind == .dictionary ? 2 * header.count : header.count
    for i in 0..<elements {
      let child = element(header, i)
      // A checked list's keys were checked (``Validation/full``).
      if header.kind == .dictionary, i < header.count, !isValidated, try self.header(of: child).kind.isContainer {
        throw ArchiveError(
          .corruptData, "dictionary key \(i) is a container (object \(child)); keys must be scalars",
          at: .init(byteOffset: try offset(of: object), objectIndex: object))
      }
      let inner = try expansion(of: child, depth: depth + 1, memo: &memo)
      total = min(ceiling, total + inner.count)
      height = max(height, inner.height + 1)
      if total == ceiling { break }
    }
    let result = Expansion(count: total, height: height)
    memo.finish(object, result)
    return result
  }

  private func depthError(_ object: Int) -> ArchiveError {
    ArchiveError(
      .limitExceeded, "containers nest deeper than the limit of \(options.maxDepth)",
      at: .init(byteOffset: (try? offset(of: object)) ?? 0, objectIndex: object))
  }

  /// Materialises the top object.
  package func topValue() throws -> PropertyListValue { try value(of: topObject) }

  private func materialize(_ object: Int, _ state: inout Materialization) throws -> PropertyListValue {
    state.budget -= 1
    guard state.budget >= 0 else {
      throw ArchiveError(
        .limitExceeded,
        "the property list expands to more than \(options.maxExpandedValueCount) values (shared containers)",
        at: .init(byteOffset: try offset(of: object), objectIndex: object))
    }
    let header = try header(of: object)
    switch header.kind {
    case .null: return .null
    case .bool: return .bool(header.count == 1)
    case .integer: return try integer(header, object: object)
    case .real: return real(header)
    case .date: return .date(date(header))
    case .data, .asciiString, .utf16String:
      if header.count <= Self.sharedPayloadLength {
        return header.kind == .data ? .data(data(header)) : .string(try string(header, object: object))
      }
      if let made = state.shared[object] { return made }
      let made: PropertyListValue =
        header.kind == .data ? .data(data(header)) : .string(try string(header, object: object))
      state.shared[object] = made
      return made
    case .uid: return .uid(uid(header))
    case .array, .set, .dictionary:
      let isShared = state.keepsContainers || state.expansions?.isShared(object) == true
      if isShared, let made = state.shared[object] { return made }
      let made: PropertyListValue
      if header.kind == .dictionary {
        var dictionary = PropertyListDictionary()
        for i in 0..<header.count {
          let key = try materialize(element(header, i), &state)
          dictionary[key] = try materialize(dictionaryValue(header, i), &state)
        }
        made = .dictionary(dictionary)
      } else {
        var elements: [PropertyListValue] = []
        elements.reserveCapacity(header.count)
        for i in 0..<header.count { elements.append(try materialize(element(header, i), &state)) }
        made = header.kind == .array ? .array(elements) : .set(elements)
      }
      if isShared { state.shared[object] = made }
      return made
    }
  }
}

/// What materialising objects of one binary property list one after another keeps from one call to the next
/// (``BinaryPropertyListReader/value(of:memo:)``): the expansion of every container counted (seven bytes per object
/// of the list, made at the first call), and, for a reader that keeps what it reads, the strings, data and
/// containers made, by object. A reference type, so that readers whose reads do not change them (a keyed archive's
/// graph) keep one; used on one thread.
package final class MaterialisationMemo {
  /// Whether the values made are kept and shared by later calls.
  package let keepsValues: Bool
  var expansions: BinaryPropertyListReader.ExpansionMemo?
  var values: [Int: PropertyListValue] = [:]

  /// An empty memo; `keepingValues` keeps the values made, not only the counts.
  package init(keepingValues: Bool) {
    self.keepsValues = keepingValues
  }
}
