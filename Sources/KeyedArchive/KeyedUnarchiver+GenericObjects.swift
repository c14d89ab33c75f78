import ArchiveCoding
import Foundation
import PropertyList

extension KeyedUnarchiver {
  /// Makes the current object as `type`, a class that keeps its unread fields: notes which fields its `init(coder:)`
  /// reads, and keeps the others in the instance (COD-210). Out of line, so that the decode of other classes does
  /// not grow.
  @inline(never)
  func initialiseKeepingUnreadFields(_ type: any KeepsUnreadFields.Type, allowed: Set<String>?) throws -> any Coding {
    // Which keys the initialiser reads is noted, and the others are kept.
    store.state.frames.cursor.notesReads = true
    store.state.open.reads.append([Bool](repeating: false, count: store.state.frames.cursor.header.count))
    let object: any Coding
    do {
      object = try initialise(type, allowed: allowed)
    } catch {
      store.state.open.reads.removeLast()
      throw error
    }
    let reads = store.state.open.reads.removeLast()
    store.state.frames.cursor.notesReads = false
    guard let keeping = object as? any KeepsUnreadFields else { return object }
    keeping.unreadFields = UnreadFields(try genericFields(allowed: allowed, skipping: reads))
    return object
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
            objects.append(try inlineValue(element))
          }
        }
        entries.append(.init(key: key, value: .objects(objects)))
      default:
        entries.append(.init(key: key, value: .value(try inlineValue(valueRef))))
      }
    }
    return entries
  }
}
