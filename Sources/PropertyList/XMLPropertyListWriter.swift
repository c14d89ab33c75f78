import ArchiveCoding
import Foundation

/// Writes XML property lists in Apple's layout (the `plist` DOCTYPE, tab indentation), with keyed-archiver UIDs
/// as `<dict><key>CF$UID</key><integer>N</integer></dict>`.
///
/// Lossless for everything the XML form can hold: reals are written in their shortest round-tripping form (NaN
/// and infinities as `nan`, `+infinity`, `-infinity`), control characters and carriage returns as character
/// references, dates with a fraction of a second only when they have one. The XML form has one real type, so a
/// 32-bit real reads back as a 64-bit real of the same value; sets are written as arrays.
package enum XMLPropertyListWriter {
  /// What ``write(_:sets:)`` does with a set, which the XML form cannot hold.
  package enum SetHandling: Sendable {
    /// Written as an array (what Foundation's XML property lists hold instead).
    case asArray
    /// Refused with `invalidValue`, for a caller that promises no loss (`keyed convert`).
    case refuse
  }

  /// Encodes a value as an XML property list.
  /// - Throws: ``ArchiveError`` with code `invalidValue` for a dictionary key that is not a string (the XML form
  ///   only has string keys), for a null object (the XML form has no element for it), naming its key path, or for
  ///   a set when `sets` is `.refuse`.
  package static func write(_ value: PropertyListValue, sets: SetHandling = .asArray) throws -> Data {
    var out: [UInt8] = []
    out.reserveCapacity(4096)
    append(&out, header)
    try write(value, into: &out, indent: 0, path: "", sets: sets)
    append(&out, footer)
    return Data(out)
  }

  /// What comes before the top value: the XML declaration, the DOCTYPE and the `plist` element.
  static var header: String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">

    """
  }
  /// What comes after the top value.
  static var footer: String { "</plist>\n" }

  static func append(_ out: inout [UInt8], _ text: String) {
    out.append(contentsOf: text.utf8)
  }

  /// Appends `<tag>text</tag>` and a newline; `text` needs no escaping.
  static func element(_ out: inout [UInt8], _ tag: String, _ text: String) {
    append(&out, "<\(tag)>\(text)</\(tag)>\n")
  }

  static func indent(_ out: inout [UInt8], _ level: Int) {
    for _ in 0..<level { out.append(0x09) }
  }

  static func write(
    _ value: PropertyListValue, into out: inout [UInt8], indent level: Int, path: String, sets: SetHandling
  ) throws {
    indent(&out, level)
    switch value {
    case .null:
      throw ArchiveError(
        .invalidValue, "XML property lists have no null object (binary ones do)",
        at: .init(keyPath: path.isEmpty ? "(root)" : path))
    case .bool(let v): append(&out, v ? "<true/>\n" : "<false/>\n")
    case .integer(let v): element(&out, "integer", String(v))
    case .unsignedInteger(let v): element(&out, "integer", String(v))
    case .real(let v): element(&out, "real", format(v))
    case .float(let v): element(&out, "real", format(Double(v)))
    case .date(let v): element(&out, "date", format(v))
    case .data(let v): element(&out, "data", v.base64EncodedString())
    case .string(let v):
      append(&out, "<string>")
      escape(v, into: &out)
      append(&out, "</string>\n")
    case .uid(let v):
      append(&out, "<dict>\n")
      indent(&out, level + 1)
      append(&out, "<key>CF$UID</key>\n")
      indent(&out, level + 1)
      element(&out, "integer", String(v))
      indent(&out, level)
      append(&out, "</dict>\n")
    case .array(let elements), .set(let elements):
      if case .set = value, sets == .refuse {
        throw ArchiveError(
          .invalidValue, "XML property lists have no sets, found a set of \(elements.count) (binary ones do)",
          at: .init(keyPath: path.isEmpty ? nil : path))
      }
      if elements.isEmpty {
        append(&out, "<array/>\n")
        return
      }
      append(&out, "<array>\n")
      for (i, element) in elements.enumerated() {
        try write(element, into: &out, indent: level + 1, path: "\(path)[\(i)]", sets: sets)
      }
      indent(&out, level)
      append(&out, "</array>\n")
    case .dictionary(let dictionary):
      if dictionary.isEmpty {
        append(&out, "<dict/>\n")
        return
      }
      append(&out, "<dict>\n")
      for entry in dictionary.entries {
        guard case .string(let key) = entry.key else {
          throw ArchiveError(
            .invalidValue, "XML property lists need string keys, found a \(entry.key.typeName) key",
            at: .init(keyPath: path.isEmpty ? nil : path))
        }
        indent(&out, level + 1)
        append(&out, "<key>")
        escape(key, into: &out)
        append(&out, "</key>\n")
        try write(
          entry.value, into: &out, indent: level + 1, path: path.isEmpty ? key : "\(path).\(key)", sets: sets)
      }
      indent(&out, level)
      append(&out, "</dict>\n")
    }
  }

  static func escape(_ text: String, into out: inout [UInt8]) {
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "&"): append(&out, "&amp;")
      case UInt8(ascii: "<"): append(&out, "&lt;")
      case UInt8(ascii: ">"): append(&out, "&gt;")
      case 0x09, 0x0A: out.append(byte)
      case 0..<0x20, 0x7F: append(&out, "&#x\(String(byte, radix: 16, uppercase: true));")
      default: out.append(byte)
      }
    }
  }

  /// The shortest text that reads back as the same Double.
  static func format(_ value: Double) -> String {
    if value.isNaN { return "nan" }
    if value.isInfinite { return value < 0 ? "-infinity" : "+infinity" }
    return "\(value)"
  }

  /// `YYYY-MM-DDTHH:MM:SSZ`, with the fraction of a second when there is one.
  static func format(_ date: Date) -> String {
    let interval = date.timeIntervalSinceReferenceDate
    guard interval.isFinite, abs(interval) < 1e15 else { return "0001-01-01T00:00:00Z" }
    let whole = interval.rounded(.down)
    let c = CivilTime.components(seconds: Int64(whole))
    func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
    var year = String(abs(c.year))
    while year.count < 4 { year = "0" + year }
    if c.year < 0 { year = "-" + year }
    var text = "\(year)-\(two(c.month))-\(two(c.day))T\(two(c.hour)):\(two(c.minute)):\(two(c.second))"
    let fraction = interval - whole
    if fraction > 0 {
      // Enough digits to read back the same Double, without an exponent and without the leading zero.
      var digits = "\(fraction)"
      if digits.contains("e") {
        let places = min(1074, 17 - Int(log10(fraction).rounded(.down)))
        digits = String(format: "%.\(places)f", fraction)
      }
      text += String(digits.dropFirst())
    }
    return text + "Z"
  }
}
