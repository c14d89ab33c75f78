/// A part of a form that the canonical view does not need but typed decoding does (a calendar's time zone, a
/// URL's base): read without making the whole object something other than its form.
package enum KeyedFormPart<Value> {
  /// The object does not store it (or stores `$null`).
  case absent
  /// The part.
  case present(Value)
  /// The object stores something else: typed decoding reports ``FormMismatch/error``.
  case invalid(FormMismatch)

  /// The part, `nil` when absent.
  /// - Throws: the ``FormMismatch``'s error when the object stores something else.
  package func get() throws -> Value? {
    switch self {
    case .absent: return nil
    case .present(let value): return value
    case .invalid(let mismatch): throw mismatch.error
    }
  }

  /// The part when present and valid, else `nil`.
  package var value: Value? {
    if case .present(let value) = self { return value }
    return nil
  }
}

extension KeyedFormSource {
  /// Reads a part with `read`, turning a ``FormMismatch`` into ``KeyedFormPart/invalid(_:)``.
  /// - Throws: any other error (corrupt data).
  package mutating func part<Value>(_ read: (inout Self) throws -> Value?) throws -> KeyedFormPart<Value> {
    do {
      guard let value = try read(&self) else { return .absent }
      return .present(value)
    } catch let mismatch as FormMismatch {
      return .invalid(mismatch)
    }
  }
}
