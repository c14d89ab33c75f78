import ArchiveCoding
import Foundation

/// The ``DecodingCoder`` one object's `init(coder:)` sees during an instantiation: its fields come from the
/// object's prepared ``FieldIndex``, references go back to the ``NibInstantiator``. One is made per decoded object,
/// so that its state is constant (`let`) and field lookups need no bookkeeping.
final class NibObjectCoder: DecodingCoder {
  let instantiator: NibInstantiator
  let object: NibPlan.Object
  let fields: FieldIndex

  init(instantiator: NibInstantiator, object: NibPlan.Object) {
    self.instantiator = instantiator
    self.object = object
    fields = object.fields
  }

  /// The class name the document gives the object being decoded.
  var className: String { object.className }

  var requiresSecureCoding: Bool { false }
  var decodingFailurePolicy: DecodingFailurePolicy { .throwError }
  var error: (any Error)? { instantiator.error }
  func failWithError(_ error: any Error) { instantiator.failWithError(error) }

  func containsValue(forKey key: String) -> Bool { fields.position(of: key) != nil }

  func decodeValue(forKey key: String) throws -> CodedValue? {
    guard let value = fields.value(of: key) else { return nil }
    switch value {
    case .null: return nil
    case .bool(let v): return .bool(v)
    case .integer(let v): return .integer(v)
    case .real(let v): return .double(v)
    case .string(let v): return .string(v)
    case .data(let v): return .bytes(v)
    case .object, .array, .point, .size, .rect, .record:
      throw ArchiveError(
        .typeMismatch, "expected a primitive value, found \(NibInstantiator.describe(value))", at: location(for: key))
    }
  }

  func decodeObject(forKey key: String, allowedClasses: Set<String>?) throws -> Any? {
    guard let value = fields.value(of: key) else { return nil }
    do {
      return try instantiator.value(of: value, key: key)
    } catch let error as ArchiveError {
      throw error.located(in: location(for: key))
    }
  }

  func decodeDeferred(
    forKey key: String, allowedClasses: Set<String>?, assign: @escaping (AnyObject, Any?) throws -> Void
  ) throws {
    guard let value = fields.value(of: key) else { return }
    instantiator.defer(value, key: key, of: object.index, assign: assign)
  }

  // Fast paths with the default implementations' results: the common field kinds are answered here, every other
  // case (and every error) goes through the default.

  func decodeDouble(forKey key: String) throws -> Double {
    guard let i = fields.position(of: key) else { return 0 }
    switch fields.entries[i].value {
    case .real(let v): return v
    case .integer(let v): return Double(v)
    case .null: return 0
    case .string: if let number = fields.entries[i].number { return number }
    default: break
    }
    return try defaultDecodeDouble(forKey: key)
  }

  func decodeBool(forKey key: String) throws -> Bool {
    guard let i = fields.position(of: key) else { return false }
    switch fields.entries[i].value {
    case .bool(let v): return v
    case .integer(let v): return v != 0
    case .null: return false
    case .string(let text):
      switch text {
      case "YES", "true", "1": return true
      case "NO", "false", "0", "": return false
      default: break
      }
    default: break
    }
    return try defaultDecodeBool(forKey: key)
  }

  func decodeInt64(forKey key: String) throws -> Int64 {
    guard let i = fields.position(of: key) else { return 0 }
    switch fields.entries[i].value {
    case .integer(let v): return v
    case .bool(let v): return v ? 1 : 0
    case .null: return 0
    case .string(let text): if let v = Int64(text) { return v }
    default: break
    }
    return try defaultDecodeInt64(forKey: key)
  }

  func decodeString(forKey key: String) throws -> String? {
    guard let i = fields.position(of: key) else { return nil }
    switch fields.entries[i].value {
    case .string(let v): return v
    case .null: return nil
    default: return try decodeObject(of: String.self, forKey: key)
    }
  }

  private func location(for key: String) -> ArchiveError.Location {
    var location = object.location
    location.className = object.className
    location.keyPath = key
    return location
  }
}
