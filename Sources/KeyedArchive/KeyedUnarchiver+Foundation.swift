import ArchiveCoding
import Foundation
import FoundationForms
import PropertyList

extension KeyedUnarchiver {
  /// Foundation classes decoded into Swift values.
  static let foundationClassNames: Set<String> =
    ([
      FoundationClass.string, FoundationClass.mutableString, FoundationClass.data, FoundationClass.mutableData,
      FoundationClass.date, FoundationClass.uuid, FoundationClass.url, FoundationClass.array,
      FoundationClass.mutableArray, FoundationClass.dictionary, FoundationClass.mutableDictionary, FoundationClass.set,
      FoundationClass.mutableSet, FoundationClass.orderedSet, FoundationClass.mutableOrderedSet, FoundationClass.null,
      FoundationClass.value, FoundationClass.error, FoundationClass.dateInterval, FoundationClass.decimalNumber,
      FoundationClass.decimalNumberPlaceholder, FoundationClass.notification, FoundationClass.attributedString,
      FoundationClass.mutableAttributedString,
    ] as Set<String>).union(foundationValueClassNames)

  /// The mutable Foundation classes a caller can ask for by class (`decodeObject(of: NSMutableArray.self, …)`) to
  /// get an instance of that class instead of a Swift value.
  static let mutableClasses: Set<String> = [
    FoundationClass.mutableArray, FoundationClass.mutableDictionary, FoundationClass.mutableSet,
    FoundationClass.mutableString, FoundationClass.mutableData,
  ]

  /// The entry that `NSMutableArray.self` (and the other mutable classes) add to the allowed class names of a
  /// decode call, besides the class name itself. Swift collection types allow the mutable class names too (they
  /// accept either class), so only this entry says that the caller asked for the class itself.
  static func instanceRequest(_ className: String) -> String { className + "#instance" }

  /// `true` when the caller asked for the mutable class `name` itself: such a call gets an instance of that class,
  /// created before its contents are decoded so that it may take part in a reference cycle; every other call
  /// gets the Swift value (`[Any]`, `[String: Any]` or `[AnyHashable: Any]`, `Set<AnyHashable>`, `String`, `Data`).
  static func wantsMutableInstance(of name: String, allowed: Set<String>?) -> Bool {
    // A name shorter than every mutable class's (`NSDate`, `NSNumber`) is ruled out without hashing it: the
    // set lookup would cost more than the rest of a small object's decode.
    guard let allowed, name.utf8.count >= shortestMutableClassName, mutableClasses.contains(name) else { return false }
    return allowed.contains(instanceRequest(name))
  }

  /// The length in bytes of the shortest name in ``mutableClasses``.
  static let shortestMutableClassName = mutableClasses.map(\.utf8.count).min() ?? 0

  /// The inline array of references under a key of the current object, or `nil` when the key is absent.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` when the value is not an array.
  func referenceArray(_ key: String) throws -> ReferenceArray? {
    guard let ref = fieldRef(key) else { return nil }
    let header = try reader.header(of: ref)
    guard header.kind == .array else {
      throw ArchiveError(
        .typeMismatch, "expected an inline array of references, found a \(header.kind)", at: .init(keyPath: key))
    }
    return ReferenceArray(header: header, key: key)
  }

  /// The `i`th UID of `array`: a well-formed reference is read from its marker; anything else takes the checked
  /// path for its error.
  @inline(__always)
  func reference(_ array: ReferenceArray, _ i: Int) throws -> Int {
    let element = reader.element(array.header, i)
    if let raw = reader.uidValue(ofObject: element), raw < UInt64(objectsHeader.count) { return Int(raw) }
    return try checkedReference(element, in: array, at: i)
  }

  /// The UID of an element that is not a well-formed reference to an entry, or the error that says why.
  private func checkedReference(_ element: Int, in array: ReferenceArray, at i: Int) throws -> Int {
    let elementHeader = try reader.header(of: element)
    guard elementHeader.kind == .uid else {
      throw ArchiveError(
        .typeMismatch, "expected a reference in \(array.key)[\(i)], found a \(elementHeader.kind)",
        at: .init(keyPath: array.key))
    }
    return try checkedUID(reader.uid(elementHeader), key: array.key)
  }

  /// The elements of a collection: `NS.objects`, else the old-style `NS.object.0`, `NS.object.1`, …. `hashed`: the
  /// members of a set, refused when one holds a cycle (``hashedElement(key:index:_:)``).
  func elements(allowed: Set<String>?, hashed: Bool = false) throws -> [Any] {
    if let array = try referenceArray(FoundationKeys.nsObjects) {
      var result: [Any] = []
      result.reserveCapacity(array.count)
      for i in 0..<array.count {
        let uid = try reference(array, i)
        // `nil` elements (UID 0, written by some third-party archivers) are dropped: Foundation arrays hold no nil.
        // (Two calls rather than one conditional expression, which cost 3% more instructions on decode plist-10k.)
        if hashed {
          if let value = try decodeHashed(uid, key: FoundationKeys.nsObjects, index: i, allowed: allowed) {
            result.append(value)
          }
        } else if let value = try decode(uid: uid, key: FoundationKeys.nsObjects, index: i, allowed: allowed) {
          result.append(value)
        }
      }
      return result
    }
    var result: [Any] = []
    for (index, ref) in numberedFieldRefs(FoundationKeys.nsObjectPrefix).enumerated() {
      guard let ref else { break }
      let key = FoundationKeys.nsObject(index)
      let element =
        hashed
        ? try hashedElement(key: key, index: -1) { try object(atFieldRef: ref, key: key, allowed: allowed) }
        : try object(atFieldRef: ref, key: key, allowed: allowed)
      if let element { result.append(element) }
    }
    return result
  }

  /// The values of the current object's numbered keys `prefix` + `0`, `1`, … (old-style collections), by index:
  /// `nil` where the object has no such key. The keys are matched in one pass: looking each index up by name would
  /// scan every key per index, time quadratic in the count (a 3.5 MB archive took minutes). A key matches when it is
  /// an ASCII string, `prefix` followed by a decimal index without leading zeros; the first of duplicates counts.
  func numberedFieldRefs(_ prefix: String) -> [Int?] {
    let header = currentHeader
    // One slot per key at most: an index at or past the key count cannot be part of a run that starts at 0.
    var refs = [Int?](repeating: nil, count: header.count)
    let prefixBytes = Array(prefix.utf8)
    let maxDigits = String(header.count).utf8.count
    for position in 0..<header.count {
      let keyRef = reader.element(header, position)
      guard let key = try? reader.header(of: keyRef), key.kind == .asciiString,
        key.count > prefixBytes.count, key.count <= prefixBytes.count + maxDigits
      else { continue }
      let bytes = reader.bytes[key.start..<(key.start + key.count)]
      guard bytes.starts(with: prefixBytes) else { continue }
      let digits = bytes[prefixBytes.count...]
      guard digits.count == 1 || digits.first != UInt8(ascii: "0") else { continue }  // "01" is not index 1
      var index = 0
      for digit in digits {
        guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else {
          index = -1
          break
        }
        index = index * 10 + Int(digit - UInt8(ascii: "0"))
      }
      if index >= 0, index < refs.count, refs[index] == nil { refs[index] = reader.dictionaryValue(header, position) }
    }
    return refs
  }

  func string(_ key: String) throws -> String? {
    guard let ref = fieldRef(key) else { return nil }
    let value = try object(atFieldRef: ref, key: key, allowed: [FoundationClass.string, FoundationClass.mutableString])
    guard let value else { return nil }
    guard let string = value as? String else {
      throw ArchiveError(.typeMismatch, "expected a string, found \(type(of: value))", at: .init(keyPath: key))
    }
    return string
  }

  func double(_ key: String) throws -> Double {
    switch try decodeValue(forKey: key) {
    case .double(let v)?: return v
    case .float(let v)?: return Double(v)
    case .integer(let v)?: return Double(v)
    case nil: return 0
    case let other?:
      throw ArchiveError(.typeMismatch, "expected a real, found \(other.typeName)", at: .init(keyPath: key))
    }
  }

  func int(_ key: String) throws -> Int64 {
    switch try decodeValue(forKey: key) {
    case .integer(let v)?: return v
    case .double(let v)? where v == v.rounded() && abs(v) < 9e18: return Int64(v)
    case nil: return 0
    case let other?:
      throw ArchiveError(.typeMismatch, "expected an integer, found \(other.typeName)", at: .init(keyPath: key))
    }
  }

  /// Decodes the current object as the Foundation class `className`.
  func decodeFoundation(className: String, uid: Int, allowed: Set<String>?) throws -> Any? {
    // The common collections first: neither is a mutable class (whose instance a caller may ask for), and a
    // small string compares in one step.
    if className == FoundationClass.array {
      return try array(allowed: allowed)
    }
    if className == FoundationClass.dictionary {
      return try dictionary(allowed: allowed)
    }
    if Self.wantsMutableInstance(of: className, allowed: allowed) {
      return try decodeMutableInstance(className: className, uid: uid, allowed: allowed)
    }
    switch className {
    case FoundationClass.string, FoundationClass.mutableString:
      switch try form({ try TextForm(keyed: &$0) }) {
      case .text(let text): return text
      case .contents(let contents):
        let allowed: Set<String> = [FoundationClass.string, FoundationClass.mutableString]
        return try formObject(contents, key: FoundationKeys.nsString, allowed: allowed, expected: "a string") ?? ""
      }
    case FoundationClass.data, FoundationClass.mutableData:
      switch try form({ try BytesForm(keyed: &$0) }) {
      case .bytes(let bytes): return bytes
      case .contents(let contents):
        let allowed: Set<String> = [FoundationClass.data, FoundationClass.mutableData]
        return try formObject(contents, key: FoundationKeys.nsData, allowed: allowed, expected: "data") ?? Data()
      }
    case FoundationClass.date:
      // Its one field read here, in place: the form's reader, generic over its source, is not compiled for it.
      return try form { try DateForm(time: $0.field(FoundationKeys.nsTime)) }.date
    case FoundationClass.uuid:
      return try form { try UUIDForm(keyed: &$0) }.uuid
    case FoundationClass.url:
      let form = try form { try URLForm(keyed: &$0) }
      // A base that is not a URL is no base, as Foundation's `NSURL` reads it.
      var base: URL?
      if let reference = form.base {
        base =
          try located(FoundationKeys.nsBase) {
            try decode(uid: reference, key: FoundationKeys.nsBase, allowed: [FoundationClass.url])
          } as? URL
      }
      guard let url = URLForm.resolved(form.relative, against: base) else {
        throw ArchiveError(
          .corruptData, "\(FoundationKeys.nsRelative) \"\(form.relative)\" is not a URL",
          at: .init(keyPath: FoundationKeys.nsRelative))
      }
      return url
    case FoundationClass.array, FoundationClass.mutableArray:
      return try array(allowed: allowed)
    case FoundationClass.set, FoundationClass.mutableSet:
      return Set(try hashables(try elements(allowed: allowed, hashed: true), key: FoundationKeys.nsObjects))
    case FoundationClass.orderedSet, FoundationClass.mutableOrderedSet:
      return NSOrderedSet(array: try elements(allowed: allowed, hashed: true))
    case FoundationClass.dictionary, FoundationClass.mutableDictionary:
      return try dictionary(allowed: allowed)
    case FoundationClass.null:
      return NSNull()
    case FoundationClass.value:
      return try archivedValue()
    case FoundationClass.error:
      let domain = try string(FoundationKeys.nsDomain) ?? ""
      let code = try int(FoundationKeys.nsCode)
      var userInfo: [String: Any] = [:]
      if let ref = fieldRef(FoundationKeys.nsUserInfo),
        let info = try object(
          atFieldRef: ref, key: FoundationKeys.nsUserInfo, allowed: allowed.map { $0.union(Self.plistClasses) })
      {
        userInfo = info as? [String: Any] ?? [:]
      }
      return NSError(domain: domain, code: Int(code), userInfo: userInfo)
    case FoundationClass.decimalNumber, FoundationClass.decimalNumberPlaceholder:
      return try decimalNumber()
    case FoundationClass.notification:
      return try notification(allowed: allowed)
    case FoundationClass.attributedString, FoundationClass.mutableAttributedString:
      return try attributedString(mutable: className == FoundationClass.mutableAttributedString, allowed: allowed)
    case FoundationClass.dateInterval:
      let start = try fieldRef(FoundationKeys.nsStartDate).flatMap {
        try object(atFieldRef: $0, key: FoundationKeys.nsStartDate, allowed: [FoundationClass.date]) as? Date
      }
      let end = try fieldRef(FoundationKeys.nsEndDate).flatMap {
        try object(atFieldRef: $0, key: FoundationKeys.nsEndDate, allowed: [FoundationClass.date]) as? Date
      }
      guard let start, let end, end >= start else {
        throw ArchiveError(
          .corruptData, "NSDateInterval needs \(FoundationKeys.nsStartDate) before \(FoundationKeys.nsEndDate)")
      }
      return DateInterval(start: start, end: end)
    default:
      return try decodeFoundationValue(className: className)
    }
  }

  /// The current object as an array: collected straight into the array type a typed call left for it, else as
  /// `[Any]`.
  private func array(allowed: Set<String>?) throws -> Any {
    if let collector = takeCollector(),
      let typed = try collector.collectElements(in: self, allowed: allowed)
    {
      return typed
    }
    return try elements(allowed: allowed)
  }

  static let plistClasses: Set<String> = [
    FoundationClass.string, FoundationClass.number, FoundationClass.data, FoundationClass.date, FoundationClass.array,
    FoundationClass.dictionary, FoundationClass.mutableArray, FoundationClass.mutableDictionary,
    FoundationClass.mutableString, FoundationClass.mutableData,
  ]

  func hashables(_ values: [Any], key: String) throws -> [AnyHashable] {
    var result: [AnyHashable] = []
    result.reserveCapacity(values.count)
    for (i, value) in values.enumerated() {
      guard let hashable = Self.hashable(value) else { throw unhashable(value, key: key, index: i) }
      result.append(hashable)
    }
    return result
  }

  /// `value as? AnyHashable`, with Swift strings (most keys and members) first: a cast to `String` from a value of
  /// that exact type copies it, while a cast to `AnyHashable` looks up a protocol conformance. (Only the exact type:
  /// an `NSString` instance stays an `NSString` inside its `AnyHashable`.)
  @inline(__always)
  static func hashable(_ value: Any) -> AnyHashable? {
    if type(of: value) == String.self, let string = value as? String { return AnyHashable(string) }
    return value as? AnyHashable
  }

  private func unhashable(_ value: Any, key: String, index: Int) -> ArchiveError {
    ArchiveError(
      .typeMismatch, "a \(type(of: value)) cannot be a set member or dictionary key",
      at: .init(keyPath: "\(key)[\(index)]"))
  }

  /// The current object as a dictionary (``DecodedDictionary``: `[String: Any]` when every key is a string, else
  /// `[AnyHashable: Any]`). The same results and errors as building it from ``dictionaryEntries(allowed:)`` (both
  /// arrays and their counts are checked, every key and value is decoded in order, each reference checked as it is
  /// read, then the first key that cannot be a dictionary key is reported; a later duplicate key wins), without the
  /// intermediate arrays.
  private func dictionary(allowed: Set<String>?) throws -> Any {
    guard let arrays = try keyAndValueArrays() else {
      let entries = try dictionaryEntries(allowed: allowed)
      var result = DecodedDictionary(capacity: entries.count)
      for (key, value) in entries { _ = result.insert(value, forKey: key.base) }
      return result.value
    }
    let keys = arrays.keys
    let count = keys.count
    // No keys and no `NS.objects`: the empty dictionary.
    guard let values = arrays.values else { return DecodedDictionary(capacity: 0).value }
    if let templated = try templatedDictionary(keys: keys, values: values, allowed: allowed) { return templated }
    // The count is bounded by the bytes of the two arrays.
    var result = DecodedDictionary(capacity: count)
    var unhashableKey: (index: Int, value: Any)?
    for i in 0..<count {
      let keyUID = try reference(keys, i)
      if let string = try repeatedStringKey(keyUID, allowed: allowed) {
        // Unwrapped by `switch consume`: `value ?? NSNull()` copies the `Any?` and destroys it after, through the
        // runtime's generic witnesses.
        let value = try decode(uid: reference(values, i), key: FoundationKeys.nsObjects, index: i, allowed: allowed)
        switch consume value {
        case .some(let value): result.insert(value, forString: string)
        case .none: result.insert(NSNull(), forString: string)
        }
        continue
      }
      guard let key = try decodeHashed(keyUID, key: FoundationKeys.nsKeys, index: i, allowed: allowed) else {
        throw ArchiveError(.corruptData, "dictionary key \(i) is nil", at: .init(keyPath: FoundationKeys.nsKeys))
      }
      let value = try decode(uid: reference(values, i), key: FoundationKeys.nsObjects, index: i, allowed: allowed)
      let inserted: Bool
      switch consume value {
      case .some(let value): inserted = result.insert(value, forKey: key)
      case .none: inserted = result.insert(NSNull(), forKey: key)
      }
      if !inserted, unhashableKey == nil { unhashableKey = (i, key) }
    }
    if let (index, key) = unhashableKey { throw unhashable(key, key: FoundationKeys.nsKeys, index: index) }
    return result.value
  }

  /// The current dictionary object's `NS.keys` and `NS.objects`, checked to hold as many references, or `nil` when
  /// it has no `NS.keys` (the old layout). `values` is `nil` only for no keys and no `NS.objects`.
  private func keyAndValueArrays() throws -> (keys: ReferenceArray, values: ReferenceArray?)? {
    guard let keys = try referenceArray(FoundationKeys.nsKeys) else { return nil }
    let values = try referenceArray(FoundationKeys.nsObjects)
    let valueCount = values?.count ?? 0
    guard keys.count == valueCount else {
      throw KeyedCollectionForm.countMismatch(
        keys: keys.count, objects: valueCount, at: .init(keyPath: FoundationKeys.nsKeys))
    }
    return (keys, values)
  }

  /// The entries of the current dictionary object, in archive order; a `nil` value becomes `NSNull`. `owner`: the
  /// UID of the mutable dictionary being filled with them, which its keys may not refer to
  /// (``refusingReferences(to:_:)``).
  func dictionaryEntries(
    allowed: Set<String>?, refusingKeysTo owner: Int? = nil
  ) throws -> [(key: AnyHashable, value: Any)] {
    func refusing<T>(_ body: () throws -> T) rethrows -> T {
      guard let owner else { return try body() }
      return try refusingReferences(to: owner, body)
    }
    var keys: [Any] = []
    var values: [Any?] = []
    if let arrays = try keyAndValueArrays() {
      // In the order `dictionary(allowed:)` reads them: both arrays, their counts, then each key and its value.
      let keyArray = arrays.keys
      if let valueArray = arrays.values {
        for i in 0..<keyArray.count {
          let keyUID = try reference(keyArray, i)
          guard
            let key = try refusing({ try decodeHashed(keyUID, key: FoundationKeys.nsKeys, index: i, allowed: allowed) })
          else {
            throw ArchiveError(.corruptData, "dictionary key \(i) is nil", at: .init(keyPath: FoundationKeys.nsKeys))
          }
          keys.append(key)
          let valueUID = try reference(valueArray, i)
          values.append(try decode(uid: valueUID, key: FoundationKeys.nsObjects, index: i, allowed: allowed))
        }
      }
    } else {
      let objectRefs = numberedFieldRefs(FoundationKeys.nsObjectPrefix)
      for (index, keyRef) in numberedFieldRefs(FoundationKeys.nsKeyPrefix).enumerated() {
        guard let keyRef,
          let key = try refusing({
            try hashedElement(key: FoundationKeys.nsKey(index), index: -1) {
              try object(atFieldRef: keyRef, key: FoundationKeys.nsKey(index), allowed: allowed)
            }
          })
        else { break }
        keys.append(key)
        values.append(
          try objectRefs[index].flatMap {
            try object(atFieldRef: $0, key: FoundationKeys.nsObject(index), allowed: allowed)
          })
      }
    }
    return zip(try hashables(keys, key: FoundationKeys.nsKeys), values).map { ($0, $1 ?? NSNull()) }
  }

  /// `NSValue` (ARC-033) as the ``ArchivedValue`` its form holds.
  private func archivedValue() throws -> ArchivedValue {
    switch try form({ try ValueForm(keyed: &$0) }) {
    case .geometry(.point(let n)): return .point(x: n[0], y: n[1])
    case .geometry(.size(let n)): return .size(width: n[0], height: n[1])
    case .geometry(.rect(let n)): return .rect(x: n[0], y: n[1], width: n[2], height: n[3])
    case .geometry(.range(let location, let length)):
      return .range(
        location: try Self.integer(location, key: FoundationKeys.nsRangeLocation),
        length: try Self.integer(length, key: FoundationKeys.nsRangeLength))
    case .transform(let v): return .transform(a: v[0], b: v[1], c: v[2], d: v[3], tx: v[4], ty: v[5])
    case .edgeInsets(let v, let special):
      return .edgeInsets(top: v[0], left: v[1], bottom: v[2], right: v[3], special: special)
    }
  }

  /// A range's part as an integer (a real that is a whole number is one).
  private static func integer(_ number: CanonicalNumber, key: String) throws -> Int64 {
    switch number {
    case .integer(let value): return value
    case .real(let value) where value == value.rounded() && abs(value) < 9e18: return Int64(value)
    default:
      throw ArchiveError(.typeMismatch, "expected an integer, found \(number)", at: .init(keyPath: key))
    }
  }
}
