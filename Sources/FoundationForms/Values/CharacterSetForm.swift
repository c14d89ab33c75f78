import Foundation

/// `NSCharacterSet`'s form (ARC-157): exactly one of its characters, the number of a predefined set or a bitmap,
/// and whether the set is inverted.
package struct CharacterSetForm: Hashable, Sendable {
  /// The one field the set is stored in.
  package enum Content: Hashable, Sendable {
    /// `NSString`: the characters.
    case string(String)
    /// `NSBuiltinID`: the number of a predefined set (CoreFoundation's numbering).
    case builtin(Int64)
    /// `NSBitmap`: the 8,192-byte plane-0 bitmap and the planes after it.
    case bitmap(Data)
  }

  package var content: Content
  /// `NSIsInverted`.
  package var inverted: Bool

  package init(content: Content, inverted: Bool) {
    self.content = content
    self.inverted = inverted
  }
}

extension CharacterSetForm {
  /// Reads the keyed form: the first of `NSString`, `NSBuiltinID` and `NSBitmap` the object stores, and
  /// `NSIsInverted`.
  /// - Throws: ``FormMismatch`` when it stores none of them, or the first one is of another type.
  package init(keyed source: inout some KeyedFormSource) throws {
    if try source.contains(FoundationKeys.nsCharacterSetString) {
      guard let text = try source.string(FoundationKeys.nsCharacterSetString) else {
        throw FormMismatch(.typeMismatch, "expected a string", key: FoundationKeys.nsCharacterSetString)
      }
      content = .string(text)
    } else if let number = try source.integer(FoundationKeys.nsBuiltinID) {
      content = .builtin(number)
    } else if try source.contains(FoundationKeys.nsBitmap) {
      guard let bitmap = try source.data(FoundationKeys.nsBitmap) else {
        throw FormMismatch(.typeMismatch, "expected data", key: FoundationKeys.nsBitmap)
      }
      content = .bitmap(bitmap)
    } else {
      throw FormMismatch(
        .corruptData,
        "\(FoundationClass.characterSet) without \(FoundationKeys.nsCharacterSetString), "
          + "\(FoundationKeys.nsBuiltinID) or \(FoundationKeys.nsBitmap)", key: nil)
    }
    inverted = try source.flag(FoundationKeys.nsIsInverted)
  }

  /// What it means.
  package var value: FoundationValue { .characterSet(self) }
}
