import ArchiveCoding
import Foundation
import FoundationForms
import PropertyList

extension KeyedUnarchiver {
  /// A plain `$objects` entry (string, number, data) as a Swift value; `"$null"` is `nil`.
  func plainValue(_ ref: Int, header: BinaryPropertyListReader.Header) throws -> Any? {
    switch header.kind {
    case .asciiString, .utf16String:
      let string = try shared(ref, count: header.count) { try reader.string(header, object: ref) }
      return string == ArchiveKeys.null ? nil : string
    case .null: return nil
    case .bool: return header.count == 1
    case .integer, .real:
      switch try ArchiveNumber(ref, header: header, in: reader) {
      case .signed(let v): return Int(v)
      case .unsigned(let v): return v
      case .double(let v): return v
      case .float(let v): return v
      case nil: return nil
      }
    case .data: return shared(ref, count: header.count) { reader.data(header) }
    case .date: return reader.date(header)
    case .uid, .array, .set, .dictionary:
      throw ArchiveError(
        .corruptData, "expected an object or a plain value, found a \(header.kind)",
        at: .init(byteOffset: (try? reader.offset(of: ref)) ?? 0, objectIndex: nil))
    }
  }

  /// A plain `$objects` entry (a string, number, data, date or `$null`) as a Swift value, read in place through its
  /// index entry, or the error of an entry that cannot be decoded (``entryError(uid:)``). A number, boolean or date
  /// is read again on its next use: keeping it would cost more than reading it. A string or data entry is kept as
  /// ``keepPayload(_:uid:entry:)`` says.
  func plainEntry(_ uid: Int, _ entry: ArchiveIndex.Entry, allowed: Set<String>?) throws -> Any? {
    let header = index.header(of: entry)
    switch entry.kind {
    case .null:
      return nil
    case .unreadable:
      throw entryError(uid: uid)
    case .bool:
      try checkAllowed(slot: ArchiveIndex.PlainClass.number.rawValue, allowed: allowed, uid: uid)
      return header.count == 1
    case .integer where header.count <= 8:
      try checkAllowed(slot: ArchiveIndex.PlainClass.number.rawValue, allowed: allowed, uid: uid)
      return Int(reader.int64(header) ?? 0)
    case .real where header.count == 8:
      try checkAllowed(slot: ArchiveIndex.PlainClass.number.rawValue, allowed: allowed, uid: uid)
      return reader.double(header)
    case .integer, .real, .date:
      // A 16-byte integer, a 4-byte real, a date.
      let value = try plainValue(index.object(uid), header: header)
      try checkAllowed(slot: entry.kind.plainClass.rawValue, allowed: allowed, uid: uid)
      return value
    case .asciiString, .utf16String:
      let string = try reader.string(header, object: index.object(uid))
      try checkAllowed(slot: ArchiveIndex.PlainClass.string.rawValue, allowed: allowed, uid: uid)
      keepString(string, uid: uid, entry: entry)
      return string
    case .data:
      try checkAllowed(slot: ArchiveIndex.PlainClass.data.rawValue, allowed: allowed, uid: uid)
      return dataEntry(uid, entry)
    }
  }

  /// The data of plain data entry `uid`: the value kept from an earlier read, or the bytes read now, then kept
  /// unless this is the first read of a small payload (``isFirstReadOfSmallPayload(_:uid:)``). Every reader of data
  /// entries (the general path, the typed fast path, the `Codable` bridge) goes through it, so that each reference to
  /// a large payload shares one storage (ARC-007).
  @inline(__always)
  func dataEntry(_ uid: Int, _ entry: ArchiveIndex.Entry) -> Data {
    if store.state.cache[state: uid] == .done, let kept = store.state.cache[uid] as? Data { return kept }
    let data = reader.data(index.header(of: entry))
    if !isFirstReadOfSmallPayload(entry, uid: uid) {
      store.state.cache.store(data, uid: uid)
      store.state.cache[state: uid] = .done
    }
    return data
  }

  /// Keeps plain string entry `uid`, just read, as its string (``isFirstReadOfSmallPayload(_:uid:)``).
  @inline(__always)
  func keepString(_ string: String, uid: Int, entry: ArchiveIndex.Entry) {
    if isFirstReadOfSmallPayload(entry, uid: uid) { return }
    store.state.cache.setString(string, uid: uid)
    store.state.cache[state: uid] = .done
  }

  /// The longest payload (the bytes of a string or data entry) that is read again on its second use instead of
  /// being kept at its first: most entries are read once, and keeping one costs more than reading it. A longer
  /// payload is kept at its first read, so that every reference shares one storage (ARC-007).
  static let rereadPayloadLength = 64

  /// `true` for the first read of a string or data entry of at most ``rereadPayloadLength`` bytes, which is then
  /// marked as read once and not kept; `false` for its second read (which keeps it) or a larger one.
  @inline(__always)
  func isFirstReadOfSmallPayload(_ entry: ArchiveIndex.Entry, uid: Int) -> Bool {
    let count = Int(entry.count)
    let bytes = entry.kind == .utf16String ? count &* 2 : count
    guard bytes <= Self.rereadPayloadLength, store.state.cache[state: uid] != .seenOnce else { return false }
    store.state.cache[state: uid] = .seenOnce
    return true
  }

  /// The error of entry `uid`, which the index could not read as a plain value or an object: what reading it the
  /// general way reports (an unreadable header, a UID, array or set entry, a dictionary without a `$class` that
  /// refers to an entry).
  func entryError(uid: Int) -> any Error {
    let ref = index.object(uid)
    do {
      let header = try reader.header(of: ref)
      guard header.kind == .dictionary else {
        return ArchiveError(
          .corruptData, "expected an object or a plain value, found a \(header.kind)",
          at: .init(byteOffset: (try? reader.offset(of: ref)) ?? 0, objectIndex: nil))
      }
      guard let classRef = reader.lookup(string: ArchiveKeys.class, inDictionary: header) else {
        return ArchiveError(
          .corruptData, "expected an object with $class, found a dictionary without $class",
          at: .init(objectIndex: uid))
      }
      guard let raw = reader.uidValue(ofObject: classRef) else {
        // Not a well-formed UID: a malformed one's header gives its error (`uidValue` checks the bounds the header
        // does), and anything else is reported by its kind.
        let classHeader = try reader.header(of: classRef)
        return ArchiveError(
          .corruptData, "object #\(uid): $class is a \(classHeader.kind), not a UID", at: .init(objectIndex: uid))
      }
      _ = try checkedUID(raw, key: ArchiveKeys.class)
      return ArchiveError(.corruptData, "object #\(uid) cannot be decoded", at: .init(objectIndex: uid))
    } catch {
      return error
    }
  }

  /// The dictionary key at `uid` when it is a plain string kept already, checked against `allowed` as
  /// ``decode(uid:key:index:allowed:collecting:)`` would check it; `nil` otherwise (the caller decodes it).
  @inline(__always)
  func repeatedStringKey(_ uid: Int, allowed: Set<String>?) throws -> String? {
    guard let string = store.state.cache.string(uid) else { return nil }
    try checkStringKeyAllowed(uid: uid, allowed: allowed)
    return string
  }

  /// The allowed-class check of plain string entry `uid` (a dictionary key).
  func checkStringKeyAllowed(uid: Int, allowed: Set<String>?) throws {
    try checkAllowed(slot: ArchiveIndex.PlainClass.string.rawValue, allowed: allowed, uid: uid)
  }

  /// Decodes dictionary key or set member `uid` (at `index` of `key`), refused when it holds a cycle
  /// (``hashedElement(key:index:_:)``).
  func decodeHashed(_ uid: Int, key: String, index position: Int, allowed: Set<String>?) throws -> Any? {
    // A plain value (most keys are strings) holds nothing.
    guard index.entries[uid].isObject else {
      return try decode(uid: uid, key: key, index: position, allowed: allowed)
    }
    return try hashedElement(key: key, index: position) {
      try decode(uid: uid, key: key, index: position, allowed: allowed)
    }
  }

  /// The string or data that object `ref` of the property list stores (`count` units), read by `read`: one of more
  /// than 64 bytes is read once and kept, so that the fields that refer to it share it (ARC-007: a 1 MiB payload
  /// behind 2,000 fields costs 1 MiB). An `$objects` entry is kept by its UID instead; this is for values stored
  /// inline.
  @inline(__always)
  func shared<Value>(_ ref: Int, count: Int, _ read: () throws -> Value) rethrows -> Value {
    guard count > Self.rereadPayloadLength else { return try read() }
    if let kept = store.state.cache.inlineValue(ref, as: Value.self) { return kept }
    let value = try read()
    store.state.cache.keepInline(value, object: ref)
    return value
  }

  /// The value that object `ref` of the property list stores inline, materialised once when it is a container (with
  /// what it holds: ``ObjectCache/containerMemo()``) or a string or data of more than 64 bytes
  /// (``shared(_:count:_:)``).
  func inlineValue(_ ref: Int) throws -> PropertyListValue {
    let header = try reader.header(of: ref)
    guard header.kind == .array || header.kind == .set || header.kind == .dictionary else {
      return try shared(ref, count: header.count) { try reader.value(of: ref) }
    }
    return try reader.value(of: ref, memo: store.state.cache.containerMemo())
  }

  func codedValue(_ ref: Int, key: String) throws -> CodedValue? {
    try codedValue(ref, header: reader.header(of: ref), key: key)
  }

  /// ``codedValue(_:key:)`` of an object whose header the caller has read already.
  func codedValue(_ ref: Int, header: BinaryPropertyListReader.Header, key: String) throws -> CodedValue? {
    switch header.kind {
    case .null: return nil
    case .bool: return .bool(header.count == 1)
    case .integer, .real:
      switch try ArchiveNumber(ref, header: header, in: reader) {
      case .signed(let v): return .integer(v)
      case .unsigned(let v): return .unsignedInteger(v)
      case .double(let v): return .double(v)
      case .float(let v): return .float(v)
      case nil: return nil
      }
    case .data: return .bytes(shared(ref, count: header.count) { reader.data(header) })
    case .asciiString, .utf16String:
      return .string(try shared(ref, count: header.count) { try reader.string(header, object: ref) })
    case .uid:
      let uid = try checkedUID(reader.uid(header), key: key)
      if uid == 0 { return nil }
      let target = reader.element(objectsHeader, uid)
      let targetHeader = try reader.header(of: target)
      guard targetHeader.kind != .dictionary, targetHeader.kind != .array, targetHeader.kind != .uid else {
        throw ArchiveError(
          .typeMismatch, "expected a primitive value, found a reference to object #\(uid)", at: .init(keyPath: key))
      }
      if targetHeader.kind == .asciiString, reader.isASCIIString(target, equalTo: ArchiveKeys.null) {
        return nil
      }
      return try codedValue(target, header: targetHeader, key: key)
    case .date: return .double(reader.date(header).timeIntervalSinceReferenceDate)
    case .array, .set, .dictionary:
      throw ArchiveError(
        .typeMismatch, "expected a primitive value, found an inline \(header.kind)", at: .init(keyPath: key))
    }
  }
}

extension ArchiveNumber {
  /// The number a plist integer or real object holds; `nil` for any other kind of object, or an integer of a width
  /// the reader does not give as a 64-bit value.
  init?(_ ref: Int, header: BinaryPropertyListReader.Header, in reader: BinaryPropertyListReader) throws {
    switch header.kind {
    case .integer:
      switch try reader.integer(header, object: ref) {
      case .integer(let v): self = .signed(v)
      case .unsignedInteger(let v): self = .unsigned(v)
      default: return nil
      }
    case .real:
      switch reader.real(header) {
      case .real(let v): self = .double(v)
      case .float(let v): self = .float(v)
      default: return nil
      }
    default: return nil
    }
  }
}
