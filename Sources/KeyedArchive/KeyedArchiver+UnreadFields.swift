import ArchiveCoding
import Foundation
import PropertyList

extension KeyedArchiver {
  /// Writes the fields an object kept from its archive entry (``KeepsUnreadFields``) that its `encode(with:)` did not
  /// write, under their stored keys, references re-pointed to where their objects are in this archive (COD-210).
  func writeUnreadFields(of object: any Coding) {
    guard let keeping = object as? any KeepsUnreadFields else { return }
    for entry in keeping.unreadFields.entries where !wroteField(storedKey: entry.key) {
      let value: ArchiveFieldValue
      switch entry.value {
      case .value(let inline): value = .inline(inline)
      case .object(let referred): value = .uid(reference(for: referred))
      case .objects(let referred): value = .uids(referred.map { reference(for: $0) })
      }
      appendField(key: entry.key, value: value)
    }
  }
}
