import ArchiveCoding
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

extension TimeZoneForm {
  /// The time zone its name names: an identifier the system knows, or a fixed offset (`GMT+0100`, `GMT-05:30`,
  /// `UTC+2`).
  /// - Throws: ``/ArchiveCoding/ArchiveError`` (`corruptData`, naming `NS.name`) for a name that is neither.
  package func timeZone() throws -> TimeZone {
    if let zone = TimeZone(identifier: name) { return zone }
    if let offset = Self.offsetFromGMT(name), let zone = TimeZone(secondsFromGMT: offset) { return zone }
    throw ArchiveError(.corruptData, "unknown time zone \"\(name)\"", at: .init(keyPath: FoundationKeys.nsName))
  }

  /// The form of `zone`: its identifier, and no rules (as the toolchain writes a time zone).
  package init(_ zone: TimeZone) { self.init(name: zone.identifier, data: Data()) }

  /// The offset `GMT+0100`, `GMT-05:30` or `UTC+2` names, in seconds.
  package static func offsetFromGMT(_ name: String) -> Int? {
    guard name.hasPrefix("GMT") || name.hasPrefix("UTC") else { return nil }
    let rest = name.dropFirst(3)
    if rest.isEmpty { return 0 }
    guard let sign = rest.first, sign == "+" || sign == "-" else { return nil }
    let digits = rest.dropFirst().filter { $0 != ":" }
    guard !digits.isEmpty, digits.count <= 4, digits.allSatisfy(\.isASCII), let number = Int(digits) else {
      return nil
    }
    let (hours, minutes) = digits.count <= 2 ? (number, 0) : (number / 100, number % 100)
    guard hours <= 18, minutes < 60 else { return nil }
    return (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
  }
}

extension TimeZoneForm {
  /// Writes the keyed form: `NS.name` and `NS.data`.
  package func write(to sink: inout some KeyedFormSink) {
    sink.plain(.string(name), forKey: FoundationKeys.nsName)
    sink.plain(.bytes(data ?? Data()), forKey: FoundationKeys.nsData)
  }
}
