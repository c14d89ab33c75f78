import ArchiveCoding

extension CanonicalJSON {
  /// The canonical form of a field of an ``ObjectTable`` (CLI-013): geometry as `{"rect": […]}`, `{"point": […]}`,
  /// `{"size": […]}`, structured values as objects with `"$record"`, and each reference to another object of the
  /// table as `reference` writes it.
  /// - Throws: what `reference` throws.
  package static func node(
    _ value: FieldValue, reference: (Int) throws -> Node
  ) rethrows -> Node {
    switch value {
    case .null: return .raw("null")
    case .bool(let v): return .raw(v ? "true" : "false")
    case .integer(let v): return .raw(String(v))
    case .real(let v): return real(v)
    case .string(let v): return .raw(string(v))
    case .data(let v): return .object([("$data", .raw(string(v.base64EncodedString())))])
    case .array(let elements): return .array(try elements.map { try node($0, reference: reference) })
    case .point(let x, let y): return .object([("point", .array([real(x), real(y)]))])
    case .size(let w, let h): return .object([("size", .array([real(w), real(h)]))])
    case .rect(let x, let y, let w, let h): return .object([("rect", .array([x, y, w, h].map(real)))])
    case .record(let name, let fields):
      return sortedObject(
        [("$record", .raw(string(name)))]
          + (try inKeyOrder(fields) { $0.key }.map { ($0.key, try node($0.value, reference: reference)) }))
    case .object(let index): return try reference(index)
    }
  }
}
