import ArchiveCoding
import Foundation
import PropertyList

extension KeyedUnarchiver {
  /// Keeps, in `object` (of a class that keeps its unread fields), the fields of the current object its
  /// `init(coder:)` did not read (COD-210).
  func keepUnreadFields(of object: any Coding, allowed: Set<String>?) throws {
    guard let keeping = object as? any KeepsUnreadFields else { return }
    let reads = store.state.frames[store.state.frames.count - 1].reads ?? []
    keeping.unreadFields = UnreadFields(try genericFields(allowed: allowed, skipping: reads))
  }

  /// The current object's fields, decoded generically, but those at the positions `skipping` marks.
  func genericFields(allowed: Set<String>?, skipping: [Bool] = []) throws -> [ArchivedObject.Entry] {
    let header = currentHeader
    var entries: [ArchivedObject.Entry] = []
    for i in 0..<header.count where i >= skipping.count || !skipping[i] {
      let keyRef = reader.element(header, i)
      let keyHeader = try reader.header(of: keyRef)
      guard keyHeader.kind == .asciiString || keyHeader.kind == .utf16String else { continue }
      let key = try reader.string(keyHeader, object: keyRef)
      if key == ArchiveKeys.class { continue }
      let valueRef = reader.dictionaryValue(header, i)
      let valueHeader = try reader.header(of: valueRef)
      switch valueHeader.kind {
      case .uid:
        let uid = try checkedUID(reader.uid(valueHeader), key: key)
        entries.append(.init(key: key, value: .object(try decode(uid: uid, key: key, allowed: allowed))))
      case .array:
        var objects: [Any?] = []
        for j in 0..<valueHeader.count {
          let element = reader.element(valueHeader, j)
          let elementHeader = try reader.header(of: element)
          if elementHeader.kind == .uid {
            objects.append(
              try decode(uid: try checkedUID(reader.uid(elementHeader), key: key), key: key, allowed: allowed))
          } else {
            objects.append(try reader.value(of: element))
          }
        }
        entries.append(.init(key: key, value: .objects(objects)))
      default:
        entries.append(.init(key: key, value: .value(try reader.value(of: valueRef))))
      }
    }
    return entries
  }
}
