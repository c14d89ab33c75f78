import ArchiveCoding
import Foundation
import KeyedArchive

// Foundation values in their classes' sequential forms (TS-071 to TS-078), with the class chains and versions
// `NSArchiver` writes (COD-124).
extension TypedstreamArchiver {
  /// The class chains of Foundation's classes, with the versions Apple's `NSArchiver` stores.
  enum FoundationChain {
    static let object: ChainLink = ("NSObject", 0)
    static let string: [ChainLink] = [("NSString", 1), object]
    static let mutableString: [ChainLink] = [("NSMutableString", 1)] + string
    static let value: [ChainLink] = [("NSValue", 0), object]
    static let number: [ChainLink] = [("NSNumber", 0)] + value
    static let data: [ChainLink] = [("NSData", 0), object]
    static let date: [ChainLink] = [("NSDate", 0), object]
    static let url: [ChainLink] = [("NSURL", 0), object]
    static let array: [ChainLink] = [("NSArray", 0), object]
    static let set: [ChainLink] = [("NSSet", 0), object]
    static let dictionary: [ChainLink] = [("NSDictionary", 0), object]
    static let attributedString: [ChainLink] = [("NSAttributedString", 0), object]
    static let mutableAttributedString: [ChainLink] = [("NSMutableAttributedString", 0)] + attributedString
    static let null: [ChainLink] = [("NSNull", 0), object]
  }

  /// The class chain of a Foundation value and what writes its fields.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` (`invalidValue`) for a value without a sequential form.
  func foundationForm(_ object: Any) throws -> (chain: [ChainLink], write: () throws -> Void) {
    let checked: (@escaping () -> Void) -> () throws -> Void = { body in
      {
        body()
        if let error = self.error { throw error }
      }
    }
    if let number = Self.numberForm(object) {
      return (FoundationChain.number, checked { self.writeNumber(number.type, number.value) })
    }
    switch object {
    case let string as NSMutableString:
      return (FoundationChain.mutableString, checked { self.encodeBytes(Data(String(string).utf8)) })
    case let string as String:
      return (FoundationChain.string, checked { self.encodeBytes(Data(string.utf8)) })
    case let data as Data:
      return (FoundationChain.data, checked { self.writeData(data) })
    case let date as Date:
      return (
        FoundationChain.date,
        checked { self.encodeValue(.double(date.timeIntervalSinceReferenceDate), ofObjCType: "d") }
      )
    case let url as URL:
      return (
        FoundationChain.url,
        checked {
          self.encodeValue(.integer(url.baseURL == nil ? 0 : 1), ofObjCType: "c")
          if let base = url.baseURL { self.encodeObject(base) }
          self.encodeObject(url.baseURL == nil ? url.absoluteString : url.relativeString)
        }
      )
    case is NSNull:
      return (FoundationChain.null, {})
    case let attributed as NSAttributedString:
      let chain =
        attributed is NSMutableAttributedString
        ? FoundationChain.mutableAttributedString : FoundationChain.attributedString
      return (chain, checked { self.writeAttributedString(attributed) })
    case let value as ArchivedValue:
      guard let form = Self.valueForm(value) else {
        throw ArchiveError(
          .invalidValue, "an NSValue \(value) has no sequential form (points, sizes, rectangles, ranges)")
      }
      return (
        FoundationChain.value,
        checked {
          self.encodeValue(.cString(Data(form.type.utf8)), ofObjCType: "*")
          self.encodeValue(form.value, ofObjCType: form.type)
        }
      )
    case let array as [Any]:
      return (
        FoundationChain.array,
        checked {
          self.encodeValue(.integer(Int64(array.count)), ofObjCType: "i")
          for element in array { self.encodeObject(element) }
        }
      )
    case let set as Set<AnyHashable>:
      return (
        FoundationChain.set,
        checked {
          self.encodeValue(.integer(Int64(set.count)), ofObjCType: "I")
          for member in Self.ordered(Array(set)) { self.encodeObject(member.base) }
        }
      )
    case let dictionary as [AnyHashable: Any]:
      return (FoundationChain.dictionary, checked { self.writeDictionary(dictionary) })
    default:
      throw ArchiveError(.invalidValue, "a \(type(of: object)) has no sequential form and is not a Coding class")
    }
  }

  /// Members in the order of their descriptions, so that the stream does not depend on hashing.
  private static func ordered(_ members: [AnyHashable]) -> [AnyHashable] {
    members.map { (String(describing: $0.base), $0) }.sorted { $0.0 < $1.0 }.map(\.1)
  }

  /// A Swift number's `NSNumber` type code and value: `Bool` as `B`, `Int` and `Int64` as `q`, and so on.
  private static func numberForm(_ object: Any) -> (type: String, value: SequentialValue)? {
    // Exact types only: a cast through `as?` may bridge one number type to another (a `Double` to an `Int`).
    switch ObjectIdentifier(type(of: object)) {
    case ObjectIdentifier(Bool.self): ("B", .bool(object as? Bool ?? false))
    case ObjectIdentifier(Int.self): ("q", .integer(Int64(object as? Int ?? 0)))
    case ObjectIdentifier(Int64.self): ("q", .integer(object as? Int64 ?? 0))
    case ObjectIdentifier(Int32.self): ("i", .integer(Int64(object as? Int32 ?? 0)))
    case ObjectIdentifier(Int16.self): ("s", .integer(Int64(object as? Int16 ?? 0)))
    case ObjectIdentifier(Int8.self): ("c", .integer(Int64(object as? Int8 ?? 0)))
    case ObjectIdentifier(UInt.self): ("Q", .unsignedInteger(UInt64(object as? UInt ?? 0)))
    case ObjectIdentifier(UInt64.self): ("Q", .unsignedInteger(object as? UInt64 ?? 0))
    case ObjectIdentifier(UInt32.self): ("I", .unsignedInteger(UInt64(object as? UInt32 ?? 0)))
    case ObjectIdentifier(UInt16.self): ("S", .unsignedInteger(UInt64(object as? UInt16 ?? 0)))
    case ObjectIdentifier(UInt8.self): ("C", .unsignedInteger(UInt64(object as? UInt8 ?? 0)))
    case ObjectIdentifier(Float.self): ("f", .float(object as? Float ?? 0))
    case ObjectIdentifier(Double.self): ("d", .double(object as? Double ?? 0))
    default: (object as? NSNumber).map(numberForm)
    }
  }

  /// An `NSNumber` instance (such as an attribute value bridged by `NSAttributedString`): `q` for a whole number
  /// stored as one, else `d`. A real prints with a point or an exponent (`1139.0`), an integer without
  /// (`1139`): the toolchain's `NSNumber` offers its stored type only as a C string pointer.
  private static func numberForm(_ number: NSNumber) -> (type: String, value: SequentialValue) {
    let isReal = number.description.contains { ".eEn".contains($0) }
    if !isReal, Double(number.int64Value) == number.doubleValue { return ("q", .integer(number.int64Value)) }
    return ("d", .double(number.doubleValue))
  }

  private func writeNumber(_ type: String, _ value: SequentialValue) {
    encodeValue(.cString(Data(type.utf8)), ofObjCType: "*")
    encodeValue(value, ofObjCType: type)
  }

  private func writeData(_ data: Data) {
    encodeValue(.integer(Int64(data.count)), ofObjCType: "i")
    if !data.isEmpty { encodeValue(.bytes(data), ofObjCType: "[\(data.count)c]") }
  }

  private func writeDictionary(_ dictionary: [AnyHashable: Any]) {
    encodeValue(.integer(Int64(dictionary.count)), ofObjCType: "i")
    for key in Self.ordered(Array(dictionary.keys)) {
      encodeObject(key.base)
      encodeObject(dictionary[key])
    }
  }

  /// The string object, then each run's attribute dictionary index (from 1) and length, with the dictionary after
  /// its first run (TS-077).
  private func writeAttributedString(_ attributed: NSAttributedString) {
    encodeObject(attributed.string)
    var dictionaries: [NSDictionary] = []
    attributed.enumerateAttributes(in: NSRange(location: 0, length: attributed.length)) { attributes, range, _ in
      var plain: [String: Any] = [:]
      for (key, value) in attributes { plain[key.rawValue] = value }
      let dictionary = NSDictionary(dictionary: plain)
      if let index = dictionaries.firstIndex(where: { $0.isEqual(dictionary) }) {
        encodeValues([.integer(Int64(index + 1)), .unsignedInteger(UInt64(range.length))], ofObjCTypes: "iI")
      } else {
        dictionaries.append(dictionary)
        encodeValues([.integer(Int64(dictionaries.count)), .unsignedInteger(UInt64(range.length))], ofObjCTypes: "iI")
        encodeObject(plain)
      }
    }
  }

  /// An `NSValue`'s type encoding and value, in the 64-bit Core Graphics forms.
  private static func valueForm(_ value: ArchivedValue) -> (type: String, value: SequentialValue)? {
    switch value {
    case .point(let x, let y):
      ("{CGPoint=dd}", .structure([.double(x), .double(y)]))
    case .size(let width, let height):
      ("{CGSize=dd}", .structure([.double(width), .double(height)]))
    case .rect(let x, let y, let width, let height):
      (
        "{CGRect={CGPoint=dd}{CGSize=dd}}",
        .structure([.structure([.double(x), .double(y)]), .structure([.double(width), .double(height)])])
      )
    case .range(let location, let length):
      ("{_NSRange=QQ}", .structure([.integer(location), .integer(length)]))
    default:
      nil
    }
  }
}
