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
    var state = Materialization(budget: options.maxExpandedValueCount)
    state.sharedContainers = try sharedContainers(from: object)
    return try materialize(object, &state)
  }

  /// Counts what materialising the object and everything it contains would make, without making it, and returns
  /// the containers reached more than once. Linear: each shared container is counted once, so a hostile file is
  /// refused before any allocation instead of after building a huge tree. The count also checks what
  /// ``Validation/onAccess`` left unchecked: nesting, cycles and dictionary keys.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` when containers nest deeper than the limit or contain themselves, a dictionary key
  ///   is a container, or the expansion of shared containers exceeds the limit.
  package func sharedContainers(from object: Int) throws -> Set<Int> {
    var memo: [Int: Expansion] = [:]
    let expanded = try expansion(of: object, depth: 1, memo: &memo).count
    guard expanded <= options.maxExpandedValueCount else {
      throw ArchiveError(
        .limitExceeded,
        "the property list expands to more than \(options.maxExpandedValueCount) values (shared containers)",
        at: .init(byteOffset: try offset(of: object), objectIndex: object))
    }
    var shared = Set<Int>()
    for (container, expansion) in memo where expansion.shared { shared.insert(container) }
    return shared
  }

  /// Strings and data longer than this are materialised once per object and shared.
  static let sharedPayloadLength = 15

  /// What a materialisation has left to spend, and the shared values it made.
  private struct Materialization {
    var budget: Int
    var shared: [Int: PropertyListValue] = [:]
    /// Containers reached more than once: each is materialised once and its value shared (arrays and dictionaries
    /// share their storage), so a small file of shared containers does not become a large tree in memory.
    var sharedContainers = Set<Int>()
  }

  /// What a container expands to: the number of values (saturating just above the limit) and the depth of the
  /// containers inside it, itself included; `height` is -1 while the container is being counted.
  private struct Expansion {
    var count: Int
    var height: Int
    /// `true` once the container is reached a second time: it is then materialised once and shared.
    var shared = false
  }

  /// The expansion of the object reached at `depth` (the number of containers on the path, itself included).
  /// Recursion is bounded: it stops with an error past the depth limit, and a container met again while it is
  /// being counted contains itself.
  private func expansion(of object: Int, depth: Int, memo: inout [Int: Expansion]) throws -> Expansion {
    if let known = memo[object] {
      guard known.height >= 0 else {
        throw ArchiveError(
          .corruptData, "container object \(object) contains itself",
          at: .init(byteOffset: try offset(of: object), objectIndex: object))
      }
      guard depth - 1 + known.height <= options.maxDepth else { throw depthError(object) }
      memo[object]?.shared = true
      return known
    }
    let header = try header(of: object)
    guard header.kind.isContainer else { return Expansion(count: 1, height: 0) }
    guard depth <= options.maxDepth else { throw depthError(object) }
    memo[object] = Expansion(count: 0, height: -1)
    let ceiling = options.maxExpandedValueCount + 1
    var total = 1
    var height = 1
    let elements = header.kind == .dictionary ? 2 * header.count : header.count
    for i in 0..<elements {
      let child = element(header, i)
      if header.kind == .dictionary, i < header.count, try self.header(of: child).kind.isContainer {
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
    memo[object] = result
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
      let isShared = !state.sharedContainers.isEmpty && state.sharedContainers.contains(object)
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
