import ArchiveCoding
import Foundation
import FoundationForms
import KeyedArchive

// Foundation's sequential forms (TS-071 to TS-078) as the Swift values the keyed unarchiver gives for the same
// classes (COD-123).
extension TypedstreamUnarchiver {
  /// The Swift value of a Foundation object whose fields ``TypedstreamDecoder/form(of:)`` read.
  func foundationValue(_ form: TypedstreamDecoder.Form, ordinal: Int, className: String) throws -> Any {
    switch form {
    case .string(let text):
      return text
    case .number(let value):
      return try number(value)
    case .data(let raw):
      return Data(raw)
    case .date(let seconds):
      return Date(timeIntervalSinceReferenceDate: seconds)
    case .url(let relative, let baseMember):
      var base: URL?
      if let baseMember {
        guard let url = try object(baseMember) as? URL else {
          throw ArchiveError(.corruptData, "expected an NSURL as the base URL, found object #\(baseMember)")
        }
        base = url
      }
      guard let url = URL(string: relative, relativeTo: base) else {
        throw ArchiveError(.corruptData, "\"\(relative)\" is not a URL")
      }
      return url
    case .array(let members):
      return try members.map { try member($0) }
    case .set(let members):
      var set = Set<AnyHashable>()
      for (index, value) in try members.map({ try member($0) }).enumerated() {
        set.insert(try hashable(value, index: index))
      }
      return set
    case .dictionary(let pairs):
      var dictionary = DecodedDictionary(capacity: pairs.count)
      for (index, pair) in pairs.enumerated() {
        let key = try member(pair.key)
        _ = try hashable(key, index: index)
        _ = dictionary.insert(try member(pair.value), forKey: key)
      }
      return dictionary.value
    case .attributedString(let stringMember, let runs):
      return try attributedString(
        stringMember, runs: runs, mutable: className == FoundationClass.mutableAttributedString)
    case .null:
      return NSNull()
    case .value(let type, let value):
      return try archivedValue(type: type, value)
    case .other:
      throw ArchiveError(.unsupportedFormat, "\(className) is not a Foundation class with a sequential form")
    }
  }

  /// A collection member: the object, `NSNull` for nil (as an `NSArray` cannot hold nil).
  private func member(_ ordinal: Int?) throws -> Any {
    guard let ordinal else { return NSNull() }
    return try object(ordinal)
  }

  private func hashable(_ value: Any, index: Int) throws -> AnyHashable {
    if let string = value as? String { return AnyHashable(string) }
    guard let hashable = value as? AnyHashable else {
      throw ArchiveError(
        .typeMismatch, "a \(type(of: value)) cannot be a set member or dictionary key", at: .init(keyPath: "[\(index)]")
      )
    }
    return hashable
  }

  /// `NSNumber`: signed types as `Int`, unsigned ones as `Int` when they fit (else `UInt64`), `B` as `Bool`, `f`
  /// as `Float` and `d` as `Double`, as the keyed unarchiver gives numbers.
  private func number(_ value: TypedstreamValue) throws -> Any {
    switch value {
    case .signed(_, let v): return Int(truncatingIfNeeded: v)
    case .unsigned(_, let v): return Int(exactly: v).map { $0 as Any } ?? v
    case .bool(let v): return v != 0
    case .float(let bits): return Float(bitPattern: bits)
    case .double(let bits): return Double(bitPattern: bits)
    default: throw ArchiveError(.corruptData, "expected a number's value, found another type")
    }
  }

  private func attributedString(
    _ stringMember: Int?, runs: [TypedstreamDecoder.Run], mutable: Bool
  ) throws
    -> NSAttributedString
  {
    guard let stringMember, let text = try object(stringMember) as? String else {
      throw ArchiveError(.corruptData, "expected the attributed string's text, an NSString")
    }
    let result = NSMutableAttributedString(string: text)
    let length = result.length
    for run in runs {
      guard run.length <= length - run.location else {
        throw ArchiveError(.corruptData, "the runs cover more than the string's \(length) UTF-16 units")
      }
      var attributes: [NSAttributedString.Key: Any] = [:]
      switch try member(run.attributes) {
      case let dictionary as [String: Any]:
        for (key, value) in dictionary { attributes[NSAttributedString.Key(key)] = value }
      case let dictionary as [AnyHashable: Any]:
        for (key, value) in dictionary {
          attributes[NSAttributedString.Key(key.base as? String ?? "\(key.base)")] = value
        }
      case is NSNull:
        break
      case let other:
        throw ArchiveError(.corruptData, "expected an attribute dictionary, found \(type(of: other))")
      }
      if run.length > 0 { result.setAttributes(attributes, range: NSRange(location: run.location, length: run.length)) }
    }
    return mutable ? result : NSAttributedString(attributedString: result)
  }

  /// `NSValue` of a point, size, rectangle or range structure (AppKit's `_NSPoint`, Core Graphics' `CGPoint`, ...).
  private func archivedValue(type: [UInt8], _ value: TypedstreamValue) throws -> ArchivedValue {
    let encoding = TypedstreamDecoder.text(type)
    var numbers: [Double] = []
    var integers: [Int64] = []
    func collect(_ value: TypedstreamValue) {
      switch value {
      case .float(let bits): numbers.append(Double(Float(bitPattern: bits)))
      case .double(let bits): numbers.append(Double(bitPattern: bits))
      case .signed(_, let v):
        numbers.append(Double(v))
        integers.append(v)
      case .unsigned(_, let v):
        numbers.append(Double(v))
        integers.append(Int64(bitPattern: v))
      case .structure(_, let fields), .array(_, let fields): fields.forEach(collect)
      default: numbers.append(.nan)
      }
    }
    collect(value)
    switch SequentialForm.geometryKind(ofType: type, numberCount: numbers.count) {
    case .point?: return .point(x: numbers[0], y: numbers[1])
    case .size?: return .size(width: numbers[0], height: numbers[1])
    case .rect?: return .rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
    case .range? where integers.count == 2: return .range(location: integers[0], length: integers[1])
    default:
      throw ArchiveError(.unsupportedFormat, "NSValue of type \"\(encoding)\" is not a point, size, rectangle or range")
    }
  }
}
