import ArchiveCoding
import Foundation
import FoundationForms
import PropertyList

extension KeyedArchiver {
  /// Encodes a Foundation value with the class and keys Apple writes, and returns its UID.
  func encodeFoundationValue(_ value: Any) -> Int {
    // Value types go through protocol dispatch: casting a Swift array to a Foundation class would bridge it
    // element by element on every attempt. Class instances (Foundation's reference types) are matched below,
    // mutable classes before their immutable superclasses.
    if Swift.type(of: value) == [String: Any].self, let dictionary = value as? [String: Any] {
      return encodeStringKeyedDictionary(dictionary)
    }
    if !(Swift.type(of: value) is AnyObject.Type), let archivable = value as? any KeyedArchiveValue {
      return archivable.archiveReference(in: self)
    }
    switch value {
    case let v as NSMutableString:
      return foundationObject(className: FoundationClass.mutableString, identity: v) {
        $0.append(ArchiveField(key: FoundationKeys.nsString, value: .inline(.string(String(v)))))
      }
    case let v as NSString: return plainReference(.string(String(v)))
    case let v as NSDecimalNumber: return encodeDecimal(v.decimalValue)
    case let v as NSNumber: return plainReference(Self.plainValue(of: v))
    case let v as NSMutableData:
      return foundationObject(className: FoundationClass.mutableData, identity: v) {
        $0.append(ArchiveField(key: FoundationKeys.nsData, value: .inline(.data(Data(v)))))
      }
    case let v as NSData: return plainReference(.data(Data(v)))
    case let v as Unit: return unitReference(v)
    case let v as NSNull:
      return foundationObject(className: FoundationClass.null, identity: v) { _ in }
    case let v as ArchivedObject:
      return encodeArchivedObject(v)
    case let v as ArchivedObject.BackReference:
      return v.object.map(encodeArchivedObject) ?? 0
    case let v as NSMutableArray:
      return foundationObject(className: FoundationClass.mutableArray, identity: v) { fields in
        let uids = v.map { self.reference(for: $0) }
        fields.append(ArchiveField(key: FoundationKeys.nsObjects, value: .uids(uids)))
      }
    case let v as NSSet:
      let name = v is NSMutableSet ? FoundationClass.mutableSet : FoundationClass.set
      return foundationObject(className: name, identity: v) { fields in
        // Members in a stable order (by type and description), so the same set always gives the same bytes.
        let members = v.allObjects.map { member in
          (key: (member as? AnyHashable).map(Self.sortKey) ?? "\(type(of: member))", member: member)
        }
        let uids = members.sorted { $0.key < $1.key }.map { self.reference(for: $0.member) }
        fields.append(ArchiveField(key: FoundationKeys.nsObjects, value: .uids(uids)))
      }
    case let v as NSMutableDictionary:
      return foundationObject(className: FoundationClass.mutableDictionary, identity: v) { fields in
        self.encodeDictionaryFields(Self.sortedEntries(v), into: &fields)
      }
    case let v as NSOrderedSet:
      let name = v is NSMutableOrderedSet ? FoundationClass.mutableOrderedSet : FoundationClass.orderedSet
      return foundationObject(className: name, identity: v) { fields in
        for (index, element) in v.array.enumerated() {
          fields.append(ArchiveField(key: FoundationKeys.nsObject(index), value: .uid(self.reference(for: element))))
        }
      }
    case let v as NSError:
      return foundationObject(className: FoundationClass.error, identity: v) { fields in
        fields.append(ArchiveField(key: FoundationKeys.nsDomain, value: .uid(self.plainReference(.string(v.domain)))))
        fields.append(ArchiveField(key: FoundationKeys.nsCode, value: .inline(.integer(Int64(v.code)))))
        let info = v.userInfo.isEmpty ? 0 : self.reference(for: v.userInfo)
        fields.append(ArchiveField(key: FoundationKeys.nsUserInfo, value: .uid(info)))
      }
    case let v as NSAttributedString:
      return encodeAttributedString(v)
    case let v as NSArray:
      return foundationObject(className: FoundationClass.array, identity: v) { fields in
        let uids = v.map { self.reference(for: $0) }
        fields.append(ArchiveField(key: FoundationKeys.nsObjects, value: .uids(uids)))
      }
    case let v as NSDictionary:
      return foundationObject(className: FoundationClass.dictionary, identity: v) { fields in
        self.encodeDictionaryFields(Self.sortedEntries(v), into: &fields)
      }
    case let v as ArchivedValue:
      return encodeArchivedValue(v)
    default:
      failWithError(
        ArchiveError(
          .invalidValue,
          "cannot archive a value of type \(type(of: value)): it is neither a Coding class nor a Foundation value"))
      return 0
    }
  }

  func encodeDictionaryFields(_ entries: [(key: Any, value: Any)], into fields: inout ArchiveFieldSink) {
    var keys: [Int] = []
    var values: [Int] = []
    for entry in entries {
      keys.append(reference(for: entry.key))
      values.append(reference(for: entry.value))
    }
    fields.append(ArchiveField(key: FoundationKeys.nsKeys, value: .uids(keys)))
    fields.append(ArchiveField(key: FoundationKeys.nsObjects, value: .uids(values)))
  }

  /// Dictionary entries in a stable order, so the same dictionary always gives the same bytes.
  static func sortedEntries(_ dictionary: [AnyHashable: Any]) -> [(key: Any, value: Any)] {
    dictionary.sorted { sortKey($0.key) < sortKey($1.key) }.map { ($0.key.base, $0.value) }
  }

  static func sortedEntries(_ dictionary: NSDictionary) -> [(key: Any, value: Any)] {
    var entries: [(key: AnyHashable, value: Any)] = []
    for (key, value) in dictionary {
      if let hashable = key as? AnyHashable { entries.append((hashable, value)) }
    }
    return entries.sorted { sortKey($0.key) < sortKey($1.key) }.map { ($0.key.base, $0.value) }
  }

  static func sortKey(_ key: AnyHashable) -> String {
    if let string = key.base as? String { return "String\u{0}" + string }
    return "\(type(of: key.base))\u{0}\(key)"
  }

  /// `[String: Any]`, the commonest dictionary, as `NSDictionary` with its keys in the order ``sortKey(_:)`` gives
  /// (for string keys, the strings' own order) without building a sort key per comparison.
  private func encodeStringKeyedDictionary(_ dictionary: [String: Any]) -> Int {
    foundationObject(className: FoundationClass.dictionary) { fields in
      var keys: [Int] = []
      var values: [Int] = []
      keys.reserveCapacity(dictionary.count)
      values.reserveCapacity(dictionary.count)
      for entry in dictionary.sorted(by: { $0.key < $1.key }) {
        keys.append(self.stringReference(entry.key))
        values.append(self.reference(for: entry.value))
      }
      fields.append(ArchiveField(key: FoundationKeys.nsKeys, value: .uids(keys)))
      fields.append(ArchiveField(key: FoundationKeys.nsObjects, value: .uids(values)))
    }
  }

  /// The plain value an `NSNumber` archives as, by its Objective-C type.
  static func plainValue(of number: NSNumber) -> PropertyListValue {
    switch String(cString: number.objCType) {
    case "B": .bool(number.boolValue)
    case "c" where String(describing: type(of: number)).contains("Boolean"): .bool(number.boolValue)
    case "f": .float(number.floatValue)
    case "d": .real(number.doubleValue)
    case "Q", "L", "I", "S", "C": .integer(unsigned: number.uint64Value)
    default: .integer(number.int64Value)
    }
  }

  private func encodeArchivedValue(_ value: ArchivedValue) -> Int {
    formObject(className: FoundationClass.value) { ValueForm(value).write(to: &$0) }
  }
}
