import ArchiveCoding
import Foundation
import FoundationForms

extension KeyedUnarchiver {
  /// The current dictionary object, whose `NS.keys` is `keys` and `NS.objects` `values` (of as many references),
  /// built from its key list's template when the list has one (``KeyListTable``): a copy of the template's
  /// dictionary, its values set by index, so that no key is hashed. `nil` when the list has no template.
  ///
  /// The same results and errors as decoding each entry: the keys are plain strings, checked when the template was
  /// made, and one allowed-class check of the string class stands for every key's.
  func templatedDictionary(keys: ReferenceArray, values: ReferenceArray, allowed: Set<String>?) throws -> Any? {
    guard let template = store.state.keyLists.template(of: keys.header, in: index) else { return nil }
    try checkStringKeyAllowed(uid: template.firstKey, allowed: allowed)
    var result = template.dictionary
    for i in 0..<values.count {
      let value = try decode(uid: reference(values, i), key: FoundationKeys.nsObjects, index: i, allowed: allowed)
      // Unwrapped by `switch consume`: `value ?? NSNull()` copies the `Any?` and destroys it after, through the
      // runtime's generic witnesses.
      switch consume value {
      case .some(let value): result.values[template.indexes[i]] = value
      case .none: result.values[template.indexes[i]] = NSNull()
      }
    }
    return result
  }
}
