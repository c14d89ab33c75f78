import Foundation

/// `NSTimeZone` (ARC-150): its name (`NS.name`, an IANA identifier or a fixed offset such as `GMT+0100`) and its
/// rules (`NS.data`, TZif bytes; empty for a fixed offset).
package struct TimeZoneForm: Hashable, Sendable {
  package var name: String
  package var data: Data?

  package init(name: String, data: Data?) {
    self.name = name
    self.data = data
  }

  /// Reads the keyed form.
  /// - Throws: ``FormMismatch`` without a string `NS.name`.
  package init(keyed source: inout some KeyedFormSource) throws {
    name = try source.requiredString(FoundationKeys.nsName, of: FoundationClass.timeZone)
    data = try source.part { try $0.data(FoundationKeys.nsData) }.value
  }

  /// What it means.
  package var value: FoundationValue { .timeZone(name: name) }
}
