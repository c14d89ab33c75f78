import ArchiveCoding
import Foundation
import FoundationForms
import PropertyList

extension KeyedUnarchiver {
  /// Decodes the current object as an instance of the mutable Foundation class `className` (`NSMutableArray`, …).
  ///
  /// Collections are handed to the cache before their elements are decoded, so a collection that takes part in a
  /// reference cycle (it holds an object whose `init(coder:)` asks for the collection, or it contains itself)
  /// decodes to one instance instead of a cycle error. (On swift-corelibs-foundation, reading the elements of a
  /// collection that contains itself through Foundation collections only recurses forever in Foundation's
  /// bridging: such a collection can be decoded, but neither read nor archived there.)
  func decodeMutableInstance(className: String, uid: Int, allowed: Set<String>?) throws -> Any {
    defer { store.state.open.published[uid] = nil }
    switch className {
    case FoundationClass.mutableArray:
      let array = NSMutableArray()
      publishEarly(array, uid: uid)
      for element in try elements(allowed: allowed) { array.add(element) }
      return array
    case FoundationClass.mutableDictionary:
      let dictionary = NSMutableDictionary()
      publishEarly(dictionary, uid: uid)
      for entry in try dictionaryEntries(allowed: allowed, refusingKeysTo: uid) {
        dictionary.setObject(entry.value, forKey: entry.key)
      }
      return dictionary
    case FoundationClass.mutableSet:
      let set = NSMutableSet()
      publishEarly(set, uid: uid)
      let members = try refusingReferences(to: uid) { try elements(allowed: allowed, hashed: true) }
      for member in try hashables(members, key: FoundationKeys.nsObjects) { set.add(member) }
      return set
    case FoundationClass.mutableString:
      let value = try decodeFoundation(className: FoundationClass.string, uid: uid, allowed: nil)
      return NSMutableString(string: value as? String ?? "")
    default:
      let value = try decodeFoundation(className: FoundationClass.data, uid: uid, allowed: nil)
      return NSMutableData(data: value as? Data ?? Data())
    }
  }

  /// Empties `value` when it is a mutable collection (``decodeMutableInstance(className:uid:allowed:)``) that a
  /// failed decode takes back: an element of it may hold it (it is published before its elements), a cycle that
  /// would otherwise outlive the decode. Its elements are not read (reading a collection that contains itself
  /// recurses in Foundation's bridging).
  static func emptyMutableCollection(_ value: Any) {
    // Only a class instance can be one; a value is not boxed to find out.
    guard type(of: value) is AnyClass else { return }
    switch value as AnyObject {
    case let array as NSMutableArray: array.removeAllObjects()
    case let dictionary as NSMutableDictionary: dictionary.removeAllObjects()
    case let set as NSMutableSet: set.removeAllObjects()
    default: break
    }
  }

  /// Notes that mutable collection `uid`, published before its contents (``publishEarly(_:uid:)``), was handed out
  /// while they are decoded: the reference closes a cycle through it (``hashedElement(key:index:_:)``).
  func noteClosedCycle(_ uid: Int) {
    guard let depth = store.state.open.published[uid] else { return }
    store.state.open.cycleDepth = min(store.state.open.cycleDepth, depth)
  }

  /// Decodes a key or member of a hashed collection (a dictionary, a set, an ordered set) with `body`: one that
  /// closed a reference cycle through a mutable collection made inside it (a collection reached again while its
  /// contents were decoded) is refused unless it is an instance of a ``Coding`` class. Foundation compares
  /// collections by their contents, and comparing two such keys whose hashes collide recurses without end
  /// (ARC-042). A cycle through a collection outside the key (the one being filled, or one around it) leaves the key
  /// alone: that collection is still empty when the key is compared.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` (`referenceCycle`) located at `key` (`key[index]` for an index of 0 or
  ///   more), and what `body` throws.
  func hashedElement(key: String, index: Int, _ body: () throws -> Any?) throws -> Any? {
    let outer = store.state.open.cycleDepth
    store.state.open.cycleDepth = Int.max
    var inner = Int.max
    defer { store.state.open.cycleDepth = min(outer, inner) }
    let value = try body()
    inner = store.state.open.cycleDepth
    // The frames open now are the hashed collection's and those around it; a collection made inside the key had a
    // frame past them.
    if inner != Int.max, inner >= store.state.frames.count, let value, !(value is any Coding) {
      let path = FrameStack.pathComponent(key, index: index)
      throw ArchiveError(
        .referenceCycle,
        "\(path) holds a reference cycle through a mutable collection, and keys and members are compared by their "
          + "contents", at: .init(keyPath: path))
    }
    return value
  }

  /// Runs `body`, which decodes keys or members of mutable dictionary or set `uid` (published before its contents):
  /// a reference to the collection from there, the key itself or anything it holds, is a reference cycle
  /// (``ObjectCache/State/refusing``): hashing such a key while the collection is filled would read the collection
  /// during its own mutation, which Foundation traps (ARC-042).
  func refusingReferences<T>(to uid: Int, _ body: () throws -> T) rethrows -> T {
    store.state.cache[state: uid] = .refusing
    defer { store.state.cache[state: uid] = .published }
    return try body()
  }

  /// `NSDecimalNumber` in Darwin's layout (inline `NS.mantissa` data; see ``DecimalWireForm``), as a `Decimal`.
  func decimalNumber() throws -> Decimal {
    let bytes: Data
    switch try decodeValue(forKey: FoundationKeys.nsMantissa) {
    case .bytes(let data)?: bytes = data
    case nil: bytes = Data()
    case let other?:
      throw ArchiveError(
        .typeMismatch, "expected mantissa bytes, found \(other.typeName)", at: .init(keyPath: FoundationKeys.nsMantissa)
      )
    }
    let byteOrder =
      containsValue(forKey: FoundationKeys.nsMantissaByteOrder)
      ? try int(FoundationKeys.nsMantissaByteOrder) : DecimalWireForm.littleEndian
    let form = try DecimalWireForm(
      exponent: try int(FoundationKeys.nsExponent), length: try int(FoundationKeys.nsLength),
      negative: try decodeBool(forKey: FoundationKeys.nsNegative), mantissaBytes: bytes, byteOrder: byteOrder)
    return form.decimal
  }

  /// `NSNotification` (`NS.name`, `NS.object`, `NS.userinfo`) as a `Notification`. The object and the user info
  /// are decoded with the classes allowed for the notification plus the property-list classes.
  func notification(allowed: Set<String>?) throws -> Notification {
    guard let name = try string(FoundationKeys.nsName) else {
      throw ArchiveError(
        .corruptData, "NSNotification without \(FoundationKeys.nsName)", at: .init(keyPath: FoundationKeys.nsName))
    }
    let inner = allowed.map { $0.union(Self.plistClasses) }
    let object = try fieldRef(FoundationKeys.nsObject).flatMap {
      try self.object(atFieldRef: $0, key: FoundationKeys.nsObject, allowed: inner)
    }
    var userInfo: [AnyHashable: Any]?
    if let ref = fieldRef(FoundationKeys.nsUserInfoLower),
      let info = try self.object(atFieldRef: ref, key: FoundationKeys.nsUserInfoLower, allowed: inner)
    {
      guard let dictionary = info as? [AnyHashable: Any] else {
        throw ArchiveError(
          .typeMismatch, "expected a dictionary, found \(type(of: info))",
          at: .init(keyPath: FoundationKeys.nsUserInfoLower))
      }
      userInfo = dictionary
    }
    return Notification(name: Notification.Name(name), object: object, userInfo: userInfo)
  }

  /// `NSAttributedString` / `NSMutableAttributedString`: `NSString`, then `NSAttributes` (one dictionary for a
  /// single run, or an array of dictionaries indexed by the runs of `NSAttributeInfo`).
  func attributedString(mutable: Bool, allowed: Set<String>?) throws -> NSAttributedString {
    let text = try string(FoundationKeys.attributedString) ?? ""
    let result = NSMutableAttributedString(string: text)
    let length = result.length
    let inner = allowed.map { $0.union(Self.plistClasses) }
    let attributes = try fieldRef(FoundationKeys.attributes).flatMap {
      try object(atFieldRef: $0, key: FoundationKeys.attributes, allowed: inner)
    }
    switch attributes {
    case nil:
      break
    case let single as [AnyHashable: Any]:
      if length > 0 { result.setAttributes(Self.attributeKeys(single), range: NSRange(location: 0, length: length)) }
    case let list as [Any]:
      let dictionaries = try list.enumerated().map { index, element in
        guard let dictionary = element as? [AnyHashable: Any] else {
          throw ArchiveError(
            .typeMismatch, "expected an attribute dictionary, found \(type(of: element))",
            at: .init(keyPath: "\(FoundationKeys.attributes)[\(index)]"))
        }
        return Self.attributeKeys(dictionary)
      }
      let info = try fieldRef(FoundationKeys.attributeInfo).flatMap {
        try object(atFieldRef: $0, key: FoundationKeys.attributeInfo, allowed: inner)
      }
      guard let info = info as? Data else {
        throw ArchiveError(
          .corruptData, "\(FoundationKeys.attributes) is an array but \(FoundationKeys.attributeInfo) is not data",
          at: .init(keyPath: FoundationKeys.attributeInfo))
      }
      var location = 0
      for run in try AttributeRunInfo.decode(info) {
        guard run.index < dictionaries.count else {
          throw ArchiveError(
            .corruptData, "a run refers to attribute dictionary \(run.index) of \(dictionaries.count)",
            at: .init(keyPath: FoundationKeys.attributeInfo))
        }
        guard run.length <= length - location else {
          throw ArchiveError(
            .corruptData, "the runs cover more than the string's \(length) UTF-16 units",
            at: .init(keyPath: FoundationKeys.attributeInfo))
        }
        result.setAttributes(dictionaries[run.index], range: NSRange(location: location, length: run.length))
        location += run.length
      }
      guard location == length else {
        throw ArchiveError(
          .corruptData, "the runs cover \(location) of the string's \(length) UTF-16 units",
          at: .init(keyPath: FoundationKeys.attributeInfo))
      }
    case let other?:
      throw ArchiveError(
        .typeMismatch, "expected a dictionary or an array of dictionaries, found \(type(of: other))",
        at: .init(keyPath: FoundationKeys.attributes))
    }
    return mutable ? result : NSAttributedString(attributedString: result)
  }

  static func attributeKeys(_ dictionary: [AnyHashable: Any]) -> [NSAttributedString.Key: Any] {
    var result: [NSAttributedString.Key: Any] = [:]
    for (key, value) in dictionary {
      result[NSAttributedString.Key(key.base as? String ?? "\(key.base)")] = value
    }
    return result
  }
}
