import Foundation

/// `NSValue` (ARC-033): `NS.special` selects the kind, whose fields follow: 1 a point (`NS.pointval`, `"{x, y}"`),
/// 2 a size (`NS.sizeval`), 3 a rectangle (`NS.rectval`, `"{{x, y}, {w, h}}"`), 4 a range (`NS.rangeval.location`
/// and `.length`, numbers, 0 when absent), 10 an affine transform (six inline reals `NS.atval.*`), 11 and 12 edge
/// insets (inline reals `NS.edgeval.*`).
package enum ValueForm: Hashable, Sendable {
  /// A point, size, rectangle or range.
  case geometry(GeometryValue)
  /// An affine transform: `a b c d tx ty`.
  case transform([Double])
  /// Edge insets: top, left, bottom, right, and the `NS.special` number (11 UIKit, 12 AppKit).
  case edgeInsets([Double], special: Int64)

  /// Reads the keyed form.
  /// - Throws: ``FormMismatch``: `unsupportedFormat` for another kind, `corruptData` for a geometry string that is
  ///   not exactly the kind's numbers or a range part that is not a number.
  package init(keyed source: inout some KeyedFormSource) throws {
    let special = try source.integer(FoundationKeys.nsSpecial) ?? 0
    switch special {
    case 1: self = .geometry(.point(try Self.numbers(&source, FoundationKeys.nsPointValue, count: 2)))
    case 2: self = .geometry(.size(try Self.numbers(&source, FoundationKeys.nsSizeValue, count: 2)))
    case 3: self = .geometry(.rect(try Self.numbers(&source, FoundationKeys.nsRectValue, count: 4)))
    case 4:
      self = .geometry(
        .range(
          location: try Self.number(&source, FoundationKeys.nsRangeLocation),
          length: try Self.number(&source, FoundationKeys.nsRangeLength)))
    case 10: self = .transform(try FoundationKeys.nsTransformValues.map { try source.real($0) ?? 0 })
    case 11, 12:
      let keys = [
        FoundationKeys.nsEdgeTop, FoundationKeys.nsEdgeLeft, FoundationKeys.nsEdgeBottom, FoundationKeys.nsEdgeRight,
      ]
      self = .edgeInsets(try keys.map { try source.real($0) ?? 0 }, special: special)
    default:
      throw FormMismatch(
        .unsupportedFormat, "\(FoundationClass.value) with \(FoundationKeys.nsSpecial) \(special) is not supported",
        key: FoundationKeys.nsSpecial)
    }
  }

  /// The `count` numbers of the geometry string under `key`.
  private static func numbers(_ source: inout some KeyedFormSource, _ key: String, count: Int) throws -> [Double] {
    let text = try source.string(key) ?? ""
    guard let numbers = GeometryText.numbers(in: text), numbers.count == count else {
      throw FormMismatch(.corruptData, "expected \(count) numbers in \(CanonicalText.quoted(text))", key: key)
    }
    return numbers
  }

  /// A range's location or length: a number, 0 when absent.
  private static func number(_ source: inout some KeyedFormSource, _ key: String) throws -> CanonicalNumber {
    guard let field = try source.field(key) else { return .integer(0) }
    switch field.codedValue {
    case .integer(let value)?: return .integer(value)
    case .unsignedInteger(let value)?: return .unsignedInteger(value)
    case .double(let value)?: return .real(value)
    case .float(let value)?: return .real(Double(value))
    default: throw FormMismatch(.typeMismatch, "expected a number, found \(field.kindName)", key: key)
    }
  }

  /// What it means in the canonical view: a point, size, rectangle or range; `nil` for the other kinds, which the
  /// view writes as class objects.
  package var value: FoundationValue? {
    if case .geometry(let geometry) = self { return .value(geometry) }
    return nil
  }
}

/// The geometry strings of `NSValue` and the nibs (`"{x, y}"`, `"{{x, y}, {w, h}}"`).
package enum GeometryText {
  /// The numbers of a geometry string, in Darwin's formatting or Swift's, or `nil` when it holds anything else.
  package static func numbers(in text: String) -> [Double]? {
    var numbers: [Double] = []
    for part in text.split(whereSeparator: { "{}, \t\n".contains($0) }) {
      guard let number = Double(part) else { return nil }
      numbers.append(number)
    }
    return numbers
  }
}

extension ValueForm {
  /// The `NS.special` number of the kind.
  package var special: Int64 {
    switch self {
    case .geometry(.point): 1
    case .geometry(.size): 2
    case .geometry(.rect): 3
    case .geometry(.range): 4
    case .transform: 10
    case .edgeInsets(_, let special): special
    }
  }

  /// Writes the keyed form: `NS.special`, then the kind's fields (geometry as strings in Darwin's formatting, a
  /// range's parts as number entries, reals inline).
  package func write(to sink: inout some KeyedFormSink) {
    sink.inline(.integer(special), forKey: FoundationKeys.nsSpecial)
    switch self {
    case .geometry(.point(let n)): sink.plain(.string(GeometryText.text(n)), forKey: FoundationKeys.nsPointValue)
    case .geometry(.size(let n)): sink.plain(.string(GeometryText.text(n)), forKey: FoundationKeys.nsSizeValue)
    case .geometry(.rect(let n)):
      let text = "{\(GeometryText.text(Array(n.prefix(2)))), \(GeometryText.text(Array(n.dropFirst(2))))}"
      sink.plain(.string(text), forKey: FoundationKeys.nsRectValue)
    case .geometry(.range(let location, let length)):
      for (key, number) in [(FoundationKeys.nsRangeLocation, location), (FoundationKeys.nsRangeLength, length)] {
        switch number {
        case .integer(let value): sink.plain(.integer(value), forKey: key)
        case .unsignedInteger(let value): sink.plain(.unsignedInteger(value), forKey: key)
        case .real(let value): sink.plain(.double(value), forKey: key)
        }
      }
    case .transform(let values):
      for (key, value) in zip(FoundationKeys.nsTransformValues, values) { sink.inline(.double(value), forKey: key) }
    case .edgeInsets(let values, _):
      let keys = [
        FoundationKeys.nsEdgeTop, FoundationKeys.nsEdgeLeft, FoundationKeys.nsEdgeBottom, FoundationKeys.nsEdgeRight,
      ]
      for (key, value) in zip(keys, values) { sink.inline(.double(value), forKey: key) }
    }
  }
}

extension GeometryText {
  /// `{a, b}` with numbers as Darwin prints them (`%.17g`: `400`, not `400.0`).
  package static func text(_ numbers: [Double]) -> String {
    "{" + numbers.map(number).joined(separator: ", ") + "}"
  }

  /// A number as Darwin prints it in a geometry string.
  package static func number(_ value: Double) -> String {
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return String(format: "%.17g", value)
  }
}
