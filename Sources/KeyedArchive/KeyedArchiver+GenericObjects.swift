import ArchiveCoding
import Foundation
import PropertyList

// Generic objects (``ArchivedObject``), written back as they were read (COD-202).
extension KeyedArchiver {
  /// Writes a generic object with its class name, `$classes` chain and `$classhints` as read, and its fields in their
  /// order under their stored keys: inline values as read, references to the objects they refer to.
  func encodeArchivedObject(_ object: ArchivedObject) -> Int {
    let chain = object.classChain.isEmpty ? registry.classChain(forClassName: object.className) : object.classChain
    return foundationObject(className: object.className, chain: chain, hints: object.classHints, identity: object) {
      fields in
      for field in object.fields {
        fields.append(ArchiveField(key: field.key, value: self.fieldValue(for: field.value)))
      }
    }
  }

  private func fieldValue(for value: ArchivedObject.Field) -> ArchiveFieldValue {
    switch value {
    case .value(let v): .inline(v)
    case .object(let object): .uid(reference(for: object))
    case .objects(let objects): .uids(objects.map { reference(for: $0) })
    }
  }
}
