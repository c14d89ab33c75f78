import ArchiveCoding
import Foundation
import FoundationForms

/// The fields of the object the unarchiver is decoding, as Foundation's forms read them (FORM-001): typed decoding
/// reads every Foundation value class through the same forms as the canonical walk. The text and bytes of a string
/// or data object a field refers to are decoded as the unarchiver decodes any object (cached, checked for cycles
/// and, under secure coding, allowed only as those classes).
struct UnarchiverFormSource: KeyedFormSource {
  let coder: KeyedUnarchiver

  mutating func field(_ key: String) throws -> KeyedFormField? {
    let coder = self.coder
    return try coder.located(key) {
      guard let ref = coder.fieldRef(key) else { return nil }
      let raw: UInt64
      if let uid = coder.reader.uidValue(ofObject: ref) {
        raw = uid
      } else {
        let header = try coder.reader.header(of: ref)
        switch header.kind {
        case .uid: raw = coder.reader.uid(header)
        case .array, .set: return .other("an inline array")
        case .dictionary: return .other("an inline dictionary")
        case .date: return .other("a date")
        default: return try coder.codedValue(ref, header: header, key: key).map { .value($0) } ?? .null
        }
      }
      let uid = try coder.checkedUID(raw, key: key)
      if uid == 0 { return .null }
      let target = coder.reader.element(coder.objectsHeader, uid)
      switch try coder.reader.header(of: target).kind {
      case .dictionary: return .object(uid)
      case .array, .set: return .other("an array")
      case .uid: return .other("a UID")
      case .date: return .other("a date")
      default: return try coder.codedValue(ref, key: key).map { .entry(uid, $0) } ?? .null
      }
    }
  }

  mutating func text(ofObject index: Int, forKey key: String) throws -> String? {
    let allowed: Set<String> = [FoundationClass.string, FoundationClass.mutableString]
    let coder = self.coder
    return try coder.located(key) { try coder.decode(uid: index, key: key, allowed: allowed) } as? String
  }

  mutating func bytes(ofObject index: Int, forKey key: String) throws -> Data? {
    let allowed: Set<String> = [FoundationClass.data, FoundationClass.mutableData]
    let coder = self.coder
    return try coder.located(key) { try coder.decode(uid: index, key: key, allowed: allowed) } as? Data
  }
}

extension KeyedUnarchiver {
  /// Reads the current object's form with `read`, turning a ``FormMismatch`` into the error it carries.
  func form<Form>(_ read: (inout UnarchiverFormSource) throws -> Form) throws -> Form {
    var source = UnarchiverFormSource(coder: self)
    do {
      return try read(&source)
    } catch let mismatch as FormMismatch {
      throw mismatch.error
    }
  }

  /// The object a form refers to, decoded allowing `allowed`, as `T`; `nil` for none.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` (`typeMismatch`) naming `key` when the object is not a `T`.
  func formObject<T>(_ uid: Int?, key: String, allowed: Set<String>, expected: String) throws -> T? {
    guard let uid else { return nil }
    // Located at the key: an object of a class not allowed here is reported with its own index.
    let found = try located(key) { try decode(uid: uid, key: key, allowed: allowed) }
    guard let object = found else { return nil }
    guard let value = object as? T else {
      throw ArchiveError(.typeMismatch, "expected \(expected), found \(type(of: object))", at: .init(keyPath: key))
    }
    return value
  }
}
