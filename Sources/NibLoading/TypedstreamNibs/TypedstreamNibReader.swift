import ArchiveCoding
import Foundation
import Typedstream

/// Reads the groups of a nib's data object in order: the root, the parent table, the name table and the
/// connections (NIB-201 to NIB-203).
struct TypedstreamNibReader {
  /// What the data object holds.
  struct Layout {
    var root: Int?
    var parents: [(child: Int?, parent: Int?)] = []
    var names: [Int: String] = [:]
    var connections: [TypedstreamNib.Connection] = []
  }

  let decoder: TypedstreamDecoder
  let ordinal: Int
  private var values: [TypedstreamValue] = []
  private var index = 0

  init(decoder: TypedstreamDecoder, ordinal: Int) {
    self.decoder = decoder
    self.ordinal = ordinal
    values = decoder.fields[ordinal]
  }

  private func error(_ message: String) -> ArchiveError {
    ArchiveError(
      .corruptData, "\(message), field \(index)",
      at: .init(objectIndex: ordinal, className: decoder.className(of: ordinal)))
  }

  private mutating func next() throws -> TypedstreamValue {
    guard index < values.count else { throw error("expected another field, found the end of the data object") }
    defer { index += 1 }
    return values[index]
  }

  private mutating func object() throws -> Int? {
    switch try next() {
    case .object(.reference(let ordinal)?): return ordinal
    case .object(nil): return nil
    default: throw error("expected an object")
    }
  }

  private mutating func count() throws -> Int {
    let value: Int?
    switch try next() {
    case .signed(_, let v): value = Int(exactly: v)
    case .unsigned(_, let v): value = Int(exactly: v)
    default: value = nil
    }
    // Each entry takes at least one field: a count past the fields left is corrupt.
    guard let value, value >= 0, value <= values.count - index else { throw error("expected a table's count") }
    return value
  }

  /// Text of a string object or a C string field.
  private func text(_ value: TypedstreamValue) throws -> String? {
    switch value {
    case .object(nil), .cString(nil): return nil
    case .cString(.literal(let raw)?): return TypedstreamDecoder.text(raw)
    case .object(.reference(let ordinal)?):
      guard case .string(let text) = try decoder.form(of: ordinal) else { return nil }
      return text
    default: return nil
    }
  }

  /// The root, the parent table (`i` then child and parent pairs), the name table (`i` then object and name
  /// pairs), then the connections: an `NSArray` of connectors in a Mac OS X nib, a `List` in a NeXTSTEP one,
  /// the first object after the names that holds connectors.
  mutating func read() throws -> Layout {
    var layout = Layout()
    layout.root = try object()
    for _ in 0..<(try count()) { layout.parents.append((try object(), try object())) }
    for _ in 0..<(try count()) {
      let object = try object()
      if let object, let name = try text(try next()) { layout.names[object] = name }
    }
    while index < values.count {
      guard case .object(.reference(let container)?) = try next() else { continue }
      let members = try connectors(in: container)
      if !members.isEmpty {
        layout.connections = try members.map { try connection($0) }
        break
      }
    }
    return layout
  }

  /// The connector objects a collection holds: an `NSArray`'s members, or the objects of a `List`'s array.
  private func connectors(in container: Int) throws -> [Int] {
    var members: [Int] = []
    if case .array(let list) = try decoder.form(of: container) {
      members = list.compactMap { $0 }
    } else if decoder.className(of: container) == "List" {
      for case .array(_, let elements) in decoder.fields[container] {
        for case .object(.reference(let member)?) in elements { members.append(member) }
      }
    }
    return members.filter { TypedstreamNib.appKitName(decoder.className(of: $0)).hasSuffix("Connector") }
  }

  /// A connector's source, destination and label (an `NSString` or a C string).
  private func connection(_ connector: Int) throws -> TypedstreamNib.Connection {
    let name = TypedstreamNib.appKitName(decoder.className(of: connector))
    let fields = decoder.fields[connector]
    func member(_ i: Int) -> Int? {
      guard i < fields.count, case .object(.reference(let ordinal)?) = fields[i] else { return nil }
      return ordinal
    }
    guard fields.count >= 3, let label = try text(fields[2]) else {
      throw ArchiveError(
        .corruptData, "expected a connector's source, destination and label",
        at: .init(objectIndex: connector, className: decoder.className(of: connector)))
    }
    return TypedstreamNib.Connection(
      kind: name.contains("Outlet") ? .outlet : .action, source: member(0), destination: member(1), label: label)
  }

  /// The class a custom object stands for: its first field, an `NSString` or a C string.
  func customClassName(_ object: Int) -> String? {
    guard TypedstreamNib.appKitName(decoder.className(of: object)) == "NSCustomObject",
      let first = decoder.fields[object].first
    else { return nil }
    return try? text(first)
  }
}
