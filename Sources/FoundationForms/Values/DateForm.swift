import Foundation

/// `NSDate` (ARC-031): seconds since 2001-01-01T00:00:00Z in `NS.time`, a real (an integer as stored).
package struct DateForm: Hashable, Sendable {
  package var seconds: CanonicalNumber

  package init(seconds: CanonicalNumber) { self.seconds = seconds }

  /// Reads the keyed form.
  /// - Throws: ``FormMismatch`` without a number in `NS.time`.
  package init(keyed source: inout some KeyedFormSource) throws {
    try self.init(time: source.field(FoundationKeys.nsTime))
  }

  /// Reads the keyed form from its one field, `NS.time` (a decoder that reads it in place calls this directly).
  /// - Throws: ``FormMismatch`` without a number in `NS.time`.
  package init(time field: KeyedFormField?) throws {
    switch field {
    case .value(.double(let value))?: seconds = .real(value)
    case .value(.float(let value))?: seconds = .real(Double(value))
    case .value(.integer(let value))?: seconds = .integer(value)
    case nil:
      throw FormMismatch(
        .corruptData, "\(FoundationClass.date) without \(FoundationKeys.nsTime)", key: FoundationKeys.nsTime)
    case let other?:
      throw FormMismatch(.typeMismatch, "expected a real, found \(other.kindName)", key: FoundationKeys.nsTime)
    }
  }

  /// The date.
  package var date: Date { Date(timeIntervalSinceReferenceDate: seconds.doubleValue) }
}

/// `NSUUID` (ARC-032): exactly 16 bytes in `NS.uuidbytes`.
package struct UUIDForm: Hashable, Sendable {
  package var uuid: UUID

  /// Reads the keyed form.
  /// - Throws: ``FormMismatch`` without 16 bytes of `NS.uuidbytes`.
  package init(keyed source: inout some KeyedFormSource) throws {
    let key = FoundationKeys.nsUUIDBytes
    guard let bytes = try source.data(key), bytes.count == 16 else {
      throw FormMismatch(.corruptData, "expected 16 bytes of \(key)", key: key)
    }
    // Copied out at once: each subscript of `Data` is a call.
    let b = [UInt8](bytes)
    uuid = UUID(
      uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
  }

  /// What it means.
  package var value: FoundationValue { .uuid(uuid) }
}

extension DateForm {
  /// Writes the keyed form: `NS.time`, an inline real.
  package static func write(_ date: Date, to sink: inout some KeyedFormSink) {
    sink.inline(.double(date.timeIntervalSinceReferenceDate), forKey: FoundationKeys.nsTime)
  }
}

extension UUIDForm {
  /// Writes the keyed form: the 16 bytes inline in `NS.uuidbytes`.
  package static func write(_ uuid: UUID, to sink: inout some KeyedFormSink) {
    sink.inline(.bytes(withUnsafeBytes(of: uuid.uuid) { Data($0) }), forKey: FoundationKeys.nsUUIDBytes)
  }
}
