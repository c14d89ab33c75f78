import ArchiveCoding
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

extension CharacterSetForm {
  /// The predefined sets `NSBuiltinID` numbers (CoreFoundation's numbering).
  package static let builtinSets: [Int64: CharacterSet] = [
    1: .controlCharacters, 2: .whitespaces, 3: .whitespacesAndNewlines, 4: .decimalDigits, 5: .letters,
    6: .lowercaseLetters, 7: .uppercaseLetters, 8: .nonBaseCharacters, 9: .decomposables, 10: .alphanumerics,
    11: .punctuationCharacters, 12: .illegalCharacters, 13: .capitalizedLetters, 14: .symbols, 15: .newlines,
  ]

  /// The character set.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` (`corruptData`) for an unknown predefined set or a bitmap longer than 17 planes.
  package func characterSet() throws -> CharacterSet {
    var set: CharacterSet
    switch content {
    case .string(let text): set = CharacterSet(charactersIn: text)
    case .builtin(let number):
      guard let builtin = Self.builtinSets[number] else {
        throw ArchiveError(
          .corruptData, "unknown builtin character set \(number)", at: .init(keyPath: FoundationKeys.nsBuiltinID))
      }
      set = builtin
    case .bitmap(let bitmap):
      // Plane 0 takes 8,192 bytes; each further plane a plane number and 8,192 bytes.
      guard bitmap.count <= 8_192 + 16 * 8_193 else {
        throw ArchiveError(
          .corruptData, "a bitmap of \(bitmap.count) bytes is longer than 17 planes",
          at: .init(keyPath: FoundationKeys.nsBitmap))
      }
      set = CharacterSet(bitmapRepresentation: bitmap)
    }
    if inverted { set.invert() }
    return set
  }

  /// The form of `set`: its bitmap, as the toolchain writes a set it did not make from a string or a builtin set.
  package init(_ set: CharacterSet) { self.init(content: .bitmap(set.bitmapRepresentation), inverted: false) }
}

extension CharacterSetForm {
  /// Writes the keyed form: the one field its content is stored in, and `NSIsInverted` when inverted.
  package func write(to sink: inout some KeyedFormSink) {
    switch content {
    case .string(let text): sink.plain(.string(text), forKey: FoundationKeys.nsCharacterSetString)
    case .builtin(let number): sink.inline(.integer(number), forKey: FoundationKeys.nsBuiltinID)
    case .bitmap(let bitmap): sink.inline(.bytes(bitmap), forKey: FoundationKeys.nsBitmap)
    }
    if inverted { sink.inline(.bool(true), forKey: FoundationKeys.nsIsInverted) }
  }
}
