import ArchiveCoding
import Foundation
import FoundationForms
import PropertyList

/// The state of one archive's `Codable` decoding: it reads `NSDictionary` and `NSArray` entries and plain values
/// in place from the property list (no intermediate Foundation values), memoises class instances by their index
/// in `$objects` (so an object reached twice is one instance) and keeps the ``ArchiveReference``s to fill once the
/// top-level decode has finished (the link phase).
final class ArchiveDecodingState {
  typealias Header = BinaryPropertyListReader.Header

  let unarchiver: KeyedUnarchiver
  let reader: BinaryPropertyListReader
  let userInfo: [CodingUserInfoKey: Any]
  /// Deeper nesting of decoded values is an error (a hostile archive may nest dictionaries without end).
  let maxDepth: Int
  /// Decoded strings by UID: keys repeat in every dictionary of a type.
  private var strings: [String?]
  private var classNames: [Int: String] = [:]
  /// Decoded class instances by UID and type (a class whose single value is another class shares its UID).
  private var instances: [InstanceKey: AnyObject] = [:]
  private var inProgress: Set<InstanceKey> = []
  private var links: [(ArchiveDecodingState) throws -> Void] = []
  private var activeCalls = 0

  init(unarchiver: KeyedUnarchiver, userInfo: [CodingUserInfoKey: Any]) {
    self.unarchiver = unarchiver
    self.reader = unarchiver.codableReader
    self.userInfo = userInfo
    self.maxDepth = unarchiver.options.maxDepth
    self.strings = [String?](repeating: nil, count: unarchiver.objectCount)
  }

  /// The state attached to `unarchiver`, created on first use, so that every `Codable` value of one archive (also
  /// those inside ``Coding`` objects) shares the decoded class instances.
  static func attached(to unarchiver: KeyedUnarchiver, userInfo: [CodingUserInfoKey: Any]) -> ArchiveDecodingState {
    if let state = unarchiver.codableContext as? ArchiveDecodingState { return state }
    let state = ArchiveDecodingState(unarchiver: unarchiver, userInfo: userInfo)
    unarchiver.codableContext = state
    return state
  }

  /// Decodes `$objects[uid]` as `type`; the outermost call then fills the deferred references.
  func decodeTop<T: Decodable>(_ type: T.Type, uid: Int, path: CodingPathNode = .root) throws -> T {
    activeCalls += 1
    let value: T
    do {
      value = try located(uid, path) { try unbox(type, uid: uid, path: path) }
    } catch {
      activeCalls -= 1
      throw error
    }
    activeCalls -= 1
    if activeCalls == 0 { try runLinks() }
    return value
  }

  // MARK: Entries

  func header(_ uid: Int) throws -> (ref: Int, header: Header) {
    let ref = unarchiver.codableRef(uid: uid)
    return (ref, try reader.header(of: ref))
  }

  /// The class name of an object entry (a dictionary with `$class`), memoised per class description.
  func className(of header: Header, uid: Int) throws -> String {
    guard let classRef = reader.lookup(string: ArchiveKeys.class, inDictionary: header) else {
      throw ArchiveError(
        .corruptData, "expected an object with $class, found a dictionary without $class", at: .init(objectIndex: uid))
    }
    let classUID = try unarchiver.codableUID(ref: classRef, key: ArchiveKeys.class)
    if let name = classNames[classUID] { return name }
    let (_, classHeader) = try self.header(classUID)
    guard classHeader.kind == .dictionary,
      let nameRef = reader.lookup(string: ArchiveKeys.className, inDictionary: classHeader),
      case let nameHeader = try reader.header(of: nameRef),
      nameHeader.kind == .asciiString || nameHeader.kind == .utf16String
    else {
      throw ArchiveError(
        .corruptData, "$class does not refer to a class description with a $classname",
        at: .init(objectIndex: uid, keyPath: ArchiveKeys.class))
    }
    // As the unarchiver's class descriptions (ARC-043): a name is compared on every use.
    let limit = unarchiver.options.maxClassNameLength
    guard nameHeader.count <= limit else {
      throw ArchiveError(
        .limitExceeded,
        "class description #\(classUID): $classname is \(nameHeader.count) characters long, more than the limit of "
          + "\(limit)", at: .init(objectIndex: uid, keyPath: ArchiveKeys.class))
    }
    let name = try reader.string(nameHeader, object: nameRef)
    classNames[classUID] = name
    return name
  }

  /// The string at `uid`, or `nil` when the entry is not a plain string.
  func string(_ uid: Int) throws -> String? {
    if let cached = strings[uid] { return cached }
    let (ref, header) = try self.header(uid)
    guard header.kind == .asciiString || header.kind == .utf16String, uid != 0 else { return nil }
    let string = try reader.string(header, object: ref)
    strings[uid] = string
    return string
  }

  /// A string already decoded (a dictionary key).
  func cachedString(_ uid: Int) -> String? { strings[uid] }

  /// `true` for `$null` and `NSNull`.
  func isNull(_ uid: Int) throws -> Bool {
    if uid == 0 { return true }
    let (_, header) = try self.header(uid)
    guard header.kind == .dictionary else { return false }
    return try className(of: header, uid: uid) == FoundationClass.null
  }

  /// The UIDs of an inline array under a key of an object entry.
  private func uids(_ key: String, in header: Header, uid: Int) throws -> [Int] {
    guard let ref = reader.lookup(string: key, inDictionary: header) else { return [] }
    let list = try reader.header(of: ref)
    guard list.kind == .array else {
      throw ArchiveError(
        .corruptData, "expected an inline array of references, found a \(list.kind)",
        at: .init(objectIndex: uid, keyPath: key))
    }
    var result: [Int] = []
    result.reserveCapacity(list.count)
    for index in 0..<list.count {
      result.append(try unarchiver.codableUID(ref: reader.element(list, index), key: key))
    }
    return result
  }

  /// The keys and values of the `NSDictionary` at `uid`.
  func keyedEntries(uid: Int, path: @autoclosure () -> CodingPathNode) throws -> KeyedEntries {
    let (_, header) = try self.header(uid)
    guard header.kind == .dictionary, uid != 0,
      case let name = try located(uid, path(), { try className(of: header, uid: uid) }),
      name == FoundationClass.dictionary || name == FoundationClass.mutableDictionary
    else {
      throw mismatch([String: Any].self, uid: uid, path: path())
    }
    return try located(uid, path()) {
      let keys = try uids(FoundationKeys.nsKeys, in: header, uid: uid)
      let values = try uids(FoundationKeys.nsObjects, in: header, uid: uid)
      guard keys.count == values.count else {
        throw KeyedCollectionForm.countMismatch(
          keys: keys.count, objects: values.count, at: .init(objectIndex: uid))
      }
      for key in keys where try string(key) == nil {
        throw ArchiveError(
          .corruptData, "expected string keys, found \(describe(key))",
          at: .init(objectIndex: uid, keyPath: FoundationKeys.nsKeys))
      }
      return KeyedEntries(keys: keys, values: values)
    }
  }

  /// The elements of the `NSArray` at `uid`.
  func elements(uid: Int, path: @autoclosure () -> CodingPathNode) throws -> [Int] {
    let (_, header) = try self.header(uid)
    guard header.kind == .dictionary, uid != 0,
      case let name = try located(uid, path(), { try className(of: header, uid: uid) }),
      name == FoundationClass.array || name == FoundationClass.mutableArray
    else {
      throw mismatch([Any].self, uid: uid, path: path())
    }
    return try located(uid, path()) { try uids(FoundationKeys.nsObjects, in: header, uid: uid) }
  }

  // MARK: Primitives

  func bool(_ uid: Int, path: @autoclosure () -> CodingPathNode) throws -> Bool {
    // Only a boolean: the number 1 is not `true`.
    let (_, header) = try self.header(uid)
    guard header.kind == .bool, uid != 0 else { throw mismatch(Bool.self, uid: uid, path: path()) }
    return header.count == 1
  }

  func string(_ uid: Int, path: @autoclosure () -> CodingPathNode) throws -> String {
    if let string = try string(uid) { return string }
    // An `NSString` or `NSMutableString` object (Foundation writes mutable strings as objects).
    let (_, header) = try self.header(uid)
    if header.kind == .dictionary, uid != 0,
      case let name = try className(of: header, uid: uid),
      name == FoundationClass.string || name == FoundationClass.mutableString,
      let string = try object(uid, path(), as: String.self) as? String
    {
      return string
    }
    throw mismatch(String.self, uid: uid, path: path())
  }

  /// The number at `uid`, or `nil` when the entry is not a number (booleans are not numbers).
  func number(_ uid: Int) throws -> ArchiveNumber? {
    guard uid != 0 else { return nil }
    let (ref, header) = try self.header(uid)
    return try ArchiveNumber(ref, header: header, in: reader)
  }

  private func requireNumber(_ uid: Int, _ type: Any.Type, _ path: () -> CodingPathNode) throws -> ArchiveNumber {
    guard let number = try number(uid) else { throw mismatch(type, uid: uid, path: path()) }
    return number
  }

  func integer<T: FixedWidthInteger>(_ type: T.Type, _ uid: Int, path: @autoclosure () -> CodingPathNode) throws -> T {
    let number = try requireNumber(uid, type, path)
    guard let result = number.integer(type) else { throw notRepresentable(number, type, uid: uid, path: path()) }
    return result
  }

  func double(_ uid: Int, path: @autoclosure () -> CodingPathNode) throws -> Double {
    let number = try requireNumber(uid, Double.self, path)
    guard let result = number.double else { throw notRepresentable(number, Double.self, uid: uid, path: path()) }
    return result
  }

  func float(_ uid: Int, path: @autoclosure () -> CodingPathNode) throws -> Float {
    let number = try requireNumber(uid, Float.self, path)
    guard let result = number.float else { throw notRepresentable(number, Float.self, uid: uid, path: path()) }
    return result
  }

  /// Any object the unarchiver decodes (a Foundation value, a ``Coding`` instance), its errors located at `path`.
  /// Under secure coding only the classes `type` allows are accepted.
  func object(_ uid: Int, _ path: @autoclosure () -> CodingPathNode, as type: Any.Type) throws -> Any? {
    let allowed = unarchiver.requiresSecureCoding ? unarchiver.registry.allowedClassNames(for: [type]) : nil
    do {
      return try unarchiver.codableObject(uid: uid, key: path().lastComponent, allowed: allowed)
    } catch let error as DecodingError {
      throw error
    } catch {
      throw corrupted("cannot decode object #\(uid): \(error)", uid: uid, path: path(), underlying: error)
    }
  }

  // MARK: Values

  /// Decodes `type` from `$objects[uid]`. Foundation values are decoded by the unarchiver, ``Coding`` classes by
  /// their `init(coder:)`, other class instances once per UID; every other type decodes itself.
  func unbox<T: Decodable>(_ type: T.Type, uid: Int, path: CodingPathNode) throws -> T {
    if T.self == String.self, let value = try string(uid, path: path) as? T { return value }
    if T.self == Data.self || T.self == Date.self || T.self == URL.self || T.self == UUID.self {
      // A data entry is read by the unarchiver, which shares a large one among every reference (ARC-007).
      if T.self == Data.self, uid != 0, let data = unarchiver.codableData(uid: uid) as? T { return data }
      guard uid != 0, try !isNull(uid), let value = try object(uid, path, as: type) as? T else {
        throw mismatch(type, uid: uid, path: path)
      }
      return value
    }
    if T.self == Decimal.self { return try decimal(uid, path: path, as: type) }
    if T.self is AnyObject.Type, !(T.self is any DeferredArchiveReference.Type) {
      if T.self is any Coding.Type {
        guard let value = try object(uid, path, as: type) as? T else { throw mismatch(type, uid: uid, path: path) }
        return value
      }
      return try decodeClass(type, uid: uid, path: path)
    }
    try checkDepth(uid, path)
    // Damaged entries met while the value decodes itself are reported at this value's path.
    return try located(uid, path) { try T(from: ArchiveValueDecoder(state: self, uid: uid, path: path)) }
  }

  private func decimal<T>(_ uid: Int, path: CodingPathNode, as type: T.Type) throws -> T {
    if let number = try number(uid) {
      let decimal: Decimal? =
        switch number {
        case .signed(let v): Decimal(v)
        case .unsigned(let v): Decimal(v)
        case .double(let v): v.isFinite ? Decimal(v) : nil
        case .float(let v): v.isFinite ? Decimal(Double(v)) : nil
        }
      guard let decimal, let result = decimal as? T else {
        throw notRepresentable(number, type, uid: uid, path: path)
      }
      return result
    }
    guard uid != 0, try !isNull(uid), let result = try object(uid, path, as: type) as? T else {
      throw mismatch(type, uid: uid, path: path)
    }
    return result
  }

  /// A class instance: decoded once per UID. A reference back to an instance still in its `init(from:)` cannot be
  /// honoured (Swift has no half-built object to hand out): it is an error that names ``ArchiveReference``.
  private func decodeClass<T: Decodable>(_ type: T.Type, uid: Int, path: CodingPathNode) throws -> T {
    let key = InstanceKey(uid: uid, type: ObjectIdentifier(type))
    if let existing = instances[key], let typed = existing as? T { return typed }
    guard !inProgress.contains(key) else {
      throw corrupted(
        "reference cycle: object #\(uid) (\(T.self)) is still being decoded when \(ArchiveCodingKey.describe(path.keys)) "
          + "refers back to it; hold back references in an ArchiveReference",
        uid: uid, path: path, code: .referenceCycle)
    }
    if try isNull(uid) { throw mismatch(type, uid: uid, path: path) }
    try checkDepth(uid, path)
    inProgress.insert(key)
    defer { inProgress.remove(key) }
    let value = try located(uid, path) { try T(from: ArchiveValueDecoder(state: self, uid: uid, path: path)) }
    instances[key] = value as AnyObject
    return value
  }

  private func checkDepth(_ uid: Int, _ path: CodingPathNode) throws {
    guard path.depth <= maxDepth else {
      throw corrupted(
        "values nest deeper than the limit of \(maxDepth) levels", uid: uid, path: path, code: .limitExceeded)
    }
  }

  // MARK: Link phase

  /// Fills `reference` with the class instance at `uid` now if it exists, else once the top-level decode has
  /// finished.
  func link<Value: AnyObject & Decodable>(_ reference: ArchiveReference<Value>, uid: Int, path: CodingPathNode) throws {
    if try isNull(uid) { return }
    if let existing = instances[InstanceKey(uid: uid, type: ObjectIdentifier(Value.self))] as? Value {
      reference.wrappedValue = existing
      return
    }
    links.append { state in reference.wrappedValue = try state.unbox(Value.self, uid: uid, path: path) }
  }

  private func runLinks() throws {
    activeCalls += 1
    defer { activeCalls -= 1 }
    var index = 0
    while index < links.count {
      let link = links[index]
      index += 1
      try link(self)
    }
    links.removeAll()
  }

  // MARK: Errors

  /// What an entry holds, for messages.
  func describe(_ uid: Int) -> String {
    if uid == 0 { return "null" }
    guard let header = try? self.header(uid).header else { return "a damaged entry" }
    switch header.kind {
    case .null: return "null"
    case .bool: return "a boolean"
    case .asciiString, .utf16String: return "a string"
    case .integer, .real: return (try? number(uid)).flatMap { $0 }.map { "the number \($0.description)" } ?? "a number"
    case .data: return "data"
    case .date: return "a date"
    case .dictionary:
      guard let name = try? className(of: header, uid: uid) else { return "a damaged object" }
      switch name {
      case FoundationClass.null: return "null"
      case FoundationClass.dictionary, FoundationClass.mutableDictionary: return "a dictionary"
      case FoundationClass.array, FoundationClass.mutableArray: return "an array"
      default: return "an object of class \(name)"
      }
    case .uid, .array, .set:
      return "an inline \(header.kind)"
    }
  }

  private func context(
    _ message: String, uid: Int, path: CodingPathNode, code: ArchiveError.Code, underlying: (any Error)? = nil
  ) -> DecodingError.Context {
    let keys = path.keys
    let text = "\(message) (object #\(uid))"
    let archiveError =
      (underlying as? ArchiveError)?.located(in: .init(objectIndex: uid, keyPath: ArchiveCodingKey.describe(keys)))
      ?? ArchiveError(code, message, at: .init(objectIndex: uid, keyPath: ArchiveCodingKey.describe(keys)))
    return DecodingError.Context(codingPath: keys, debugDescription: text, underlyingError: archiveError)
  }

  func typeMismatch(_ type: Any.Type, _ found: String, uid: Int, path: CodingPathNode) -> DecodingError {
    let message = "expected \(type) at \(ArchiveCodingKey.describe(path.keys)), found \(found)"
    return .typeMismatch(type, context(message, uid: uid, path: path, code: .typeMismatch))
  }

  func mismatch(_ type: Any.Type, uid: Int, path: CodingPathNode) -> DecodingError {
    let found = describe(uid)
    if found == "null" {
      let message = "expected \(type) at \(ArchiveCodingKey.describe(path.keys)), found null"
      return .valueNotFound(type, context(message, uid: uid, path: path, code: .valueNotFound))
    }
    return typeMismatch(type, found, uid: uid, path: path)
  }

  func notRepresentable(_ number: ArchiveNumber, _ type: Any.Type, uid: Int, path: CodingPathNode) -> DecodingError {
    let message =
      "the number \(number.description) at \(ArchiveCodingKey.describe(path.keys)) does not fit in \(type)"
    return .dataCorrupted(context(message, uid: uid, path: path, code: .typeMismatch))
  }

  func keyNotFound(_ key: any CodingKey, uid: Int, path: CodingPathNode) -> DecodingError {
    let message = "no value for the key \"\(key.stringValue)\" at \(ArchiveCodingKey.describe(path.keys))"
    return .keyNotFound(key, context(message, uid: uid, path: path, code: .valueNotFound))
  }

  func corrupted(
    _ message: String, uid: Int, path: CodingPathNode, code: ArchiveError.Code = .corruptData,
    underlying: (any Error)? = nil
  ) -> DecodingError {
    .dataCorrupted(context(message, uid: uid, path: path, code: code, underlying: underlying))
  }

  /// Runs `body`, turning an ``/ArchiveCoding/ArchiveError`` (damaged data) into `DecodingError.dataCorrupted` at `path`.
  func located<T>(_ uid: Int, _ path: @autoclosure () -> CodingPathNode, _ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as ArchiveError {
      throw corrupted(error.message, uid: error.location.objectIndex ?? uid, path: path(), underlying: error)
    }
  }
}

/// A decoded class instance's key: its `$objects` index and its type.
struct InstanceKey: Hashable {
  var uid: Int
  var type: ObjectIdentifier
}

/// The keys (string UIDs) and values (UIDs) of one `NSDictionary`, with the position the next lookup starts from:
/// `init(from:)` usually asks for the keys in the order `encode(to:)` wrote them.
final class KeyedEntries {
  let keys: [Int]
  let values: [Int]
  private var hint = 0
  private var index: [String: Int]?

  init(keys: [Int], values: [Int]) {
    self.keys = keys
    self.values = values
  }

  /// The value UID under `key`, or `nil`.
  func value(forKey key: String, strings state: ArchiveDecodingState) -> Int? {
    let count = keys.count
    guard count > 0 else { return nil }
    if let index { return index[key].map { values[$0] } }
    var position = hint < count ? hint : 0
    // A short linear probe from the hint; past it, a table (built once) for large dictionaries.
    let probes = min(count, 8)
    for _ in 0..<probes {
      if state.cachedString(keys[position]) == key {
        hint = position + 1
        return values[position]
      }
      position = position + 1 == count ? 0 : position + 1
    }
    guard count > probes else { return nil }
    var table: [String: Int] = [:]
    for (position, uid) in keys.enumerated() {
      if let string = state.cachedString(uid), table[string] == nil { table[string] = position }
    }
    index = table
    return table[key].map { values[$0] }
  }
}
