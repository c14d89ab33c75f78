import ArchiveCoding
import KeyedArchive

/// One object's fields, prepared for the lookups of its `init(coder:)`: an interface class tries several keys per
/// property (`"hidden"`, then UIKit's `"UIHidden"`), most of them absent, so a lookup must reject a missing key
/// without comparing strings. Each entry keeps its key's UTF-8 length, which rejects nearly
/// every other key with one integer comparison, and what can be worked out once: the number a text value reads as
/// (XIB attributes are text), and the Swift value of a field that refers to no object (geometry, records, text),
/// which every instantiation would otherwise build again.
///
/// A class, so that each object's coder holds it with one reference count.
final class FieldIndex: @unchecked Sendable {
  // Unchecked: `constant` holds only immutable values (primitives, `ArchivedValue`, `NibRecord`, arrays of them).
  //
  // An entry is a class: reading one field of `entries[i]` then costs one reference count, not a copy of every
  // field. The scan for a key reads only `keys` and `keyLengths`, which are contiguous.
  final class Entry {
    let key: String
    let length: Int
    let value: FieldValue
    /// `Double(text)` of a `.string` value, else `nil`.
    let number: Double?
    /// The boolean a `.string` value spells (`"YES"`, `"true"`, `"1"`; `"NO"`, `"false"`, `"0"`, `""`), else `nil`.
    let flag: Bool?
    /// `true` when the value refers to no object, so ``constant`` is its Swift value.
    let isConstant: Bool
    /// The value ``NibInstantiator/value(of:key:)`` gives for the field, when ``isConstant``.
    let constant: Any?
    /// The record of a `.record` value, typed (a cast from `Any` costs more than the rest of a lookup).
    let record: NibRecord?
    /// The index of the object a `.string` value names by its document id (XIB attributes that refer to objects,
    /// such as a constraint's `firstItem="lb0"`, reach the table as text), else `nil`.
    let namedObject: Int?
    /// The indexes of the objects of an `.array` value whose elements are all object references, else `nil`.
    let elementObjects: [Int]?
    /// The index of the object the value refers to: a reference, or text naming an object (``namedObject``).
    let referencedObject: Int?

    init(
      key: String, length: Int, value: FieldValue, number: Double?, flag: Bool?, isConstant: Bool, constant: Any?,
      record: NibRecord?, namedObject: Int?
    ) {
      self.key = key
      self.length = length
      self.value = value
      self.number = number
      self.flag = flag
      self.isConstant = isConstant
      self.constant = constant
      self.record = record
      self.namedObject = namedObject
      elementObjects = Self.objectIndexes(value)
      if case .object(let index) = value {
        referencedObject = index
      } else {
        referencedObject = namedObject
      }
    }

    private static func objectIndexes(_ value: FieldValue) -> [Int]? {
      guard case .array(let elements) = value else { return nil }
      var indexes: [Int] = []
      indexes.reserveCapacity(elements.count)
      for element in elements {
        guard case .object(let index) = element else { return nil }
        indexes.append(index)
      }
      return indexes
    }
  }

  let entries: [Entry]
  /// The key of each entry.
  let keys: [String]
  /// The UTF-8 length of each key.
  let keyLengths: [Int]
  /// Bit `length % 64` is set for the UTF-8 length of each key: a key whose bit is clear is absent, which most
  /// keys a catalog initialiser tries are, and then no entry is read.
  let lengths: UInt64
  /// The longest string (UTF-8 bytes) read as a number, a flag or an object's id.
  static let maxScalarTextLength = 256

  init(_ fields: [ObjectField], indexByID: [String: Int]) {
    var lengths: UInt64 = 0
    entries = fields.map { field in
      var number: Double?
      var namedObject: Int?
      var flag: Bool?
      // Only a short string can be a number, a flag or an object's id: a long one (a file may give a megabyte
      // string to 100,000 fields) is not parsed or hashed for each field.
      if case .string(let text) = field.value, text.utf8.count <= Self.maxScalarTextLength {
        number = Double(text)
        switch text {
        case "YES", "true", "1": flag = true
        case "NO", "false", "0", "": flag = false
        default: break
        }
        namedObject = indexByID[text]
      }
      var record: NibRecord?
      if case .record(let name, let fields) = field.value, !CompiledNibWireNames.dictionaryClasses.contains(name) {
        record = NibRecord(name: name, fields: fields)
      }
      let constant = record.map { (isConstant: true, value: $0 as Any?) } ?? Self.constant(field.value)
      let length = field.key.utf8.count
      lengths |= 1 << UInt64(length & 63)
      return Entry(
        key: field.key, length: length, value: field.value, number: number, flag: flag,
        isConstant: constant.isConstant, constant: constant.value, record: record, namedObject: namedObject)
    }
    self.lengths = lengths
    keys = entries.map(\.key)
    keyLengths = entries.map(\.length)
  }

  /// The position of the first field with the key, or `nil`.
  @inline(__always)
  func position(of key: String) -> Int? {
    let length = key.utf8.count
    guard lengths & (1 << UInt64(length & 63)) != 0 else { return nil }
    return keyLengths.withUnsafeBufferPointer { lengths in
      for i in lengths.indices where lengths[i] == length && keys[i] == key { return i }
      return nil
    }
  }

  /// The value of the first field with the key, or `nil`.
  @inline(__always)
  func value(of key: String) -> FieldValue? {
    guard let i = position(of: key) else { return nil }
    return entries[i].value
  }

  /// The Swift value of a field that refers to no object, as ``NibInstantiator/value(of:key:)`` makes it.
  static func constant(_ value: FieldValue) -> (isConstant: Bool, value: Any?) {
    struct ReferencesAnObject: Error {}
    do {
      return (true, try value.nibValue { _ in throw ReferencesAnObject() })
    } catch {
      return (false, nil)
    }
  }

}
