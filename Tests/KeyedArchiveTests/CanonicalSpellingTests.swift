import ArchiveCoding
import Foundation
import PropertyList
import Testing

@testable import KeyedArchive

/// Writes one value under each of two spellings of "café", and two spellings of "K" as string values.
private final class Spellings: SecureCoding {
  static let precomposed = "caf\u{E9}"
  static let decomposed = "cafe\u{301}"
  var first = 0
  var second = 0
  var kelvin = ""
  var letter = ""
  init() {}
  required init(coder: any DecodingCoder) throws {
    first = try coder.decodeInt(forKey: Self.precomposed)
    second = try coder.decodeInt(forKey: Self.decomposed)
    kelvin = try coder.decodeString(forKey: "kelvin") ?? ""
    letter = try coder.decodeString(forKey: "letter") ?? ""
  }
  func encode(with coder: any EncodingCoder) {
    coder.encode(first, forKey: Self.precomposed)
    coder.encode(second, forKey: Self.decomposed)
    coder.encode(kelvin, forKey: "kelvin")
    coder.encode(letter, forKey: "letter")
  }
}

/// Reads, as its second keyed call, the spelling of "café" its first field names: objects of one class that ask
/// for different spellings at the same call (the unarchiver keeps a hint per call).
private final class SpellingChooser: SecureCoding {
  var choice = 0
  var value = 0
  init(choice: Int) { self.choice = choice }
  required init(coder: any DecodingCoder) throws {
    choice = try coder.decodeInt(forKey: "choice")
    value = try coder.decodeInt(forKey: choice == 0 ? Spellings.decomposed : Spellings.precomposed)
  }
  func encode(with coder: any EncodingCoder) {
    coder.encode(choice, forKey: "choice")
    coder.encode(1, forKey: Spellings.precomposed)
    coder.encode(2, forKey: Spellings.decomposed)
  }
}

/// Keys and strings compare code unit by code unit, as Foundation's do (ARC-026, ARC-006): `==` on `String` is
/// canonical equivalence, under which these spellings are equal, and nothing of the archive may depend on it.
@Suite("Canonical spellings")
struct CanonicalSpellingTests {
  @Test("ARC-026: two keys spelled differently but canonically equivalent stay two keys through a round trip")
  func keysStayApart() throws {
    ClassRegistry.shared.register(Spellings.self, as: "Spellings")
    let object = Spellings()
    (object.first, object.second, object.kelvin, object.letter) = (1, 2, "\u{212A}", "K")
    let data = try KeyedArchiver.archivedData(withRootObject: object)
    let back = try #require(try KeyedUnarchiver.unarchivedObject(ofClass: Spellings.self, from: data))
    #expect(back.first == 1)
    #expect(back.second == 2)
    #expect(Array(back.kelvin.utf8) == Array("\u{212A}".utf8))
    #expect(Array(back.letter.utf8) == Array("K".utf8))
    // Both spellings are stored: two key objects, as Darwin's archiver writes them. (The toolchain's corelibs
    // unarchiver looks keys up in a Swift dictionary, canonically, so it cannot tell these two apart.)
    let objects = try #require(try PropertyListReader.read(data).dictionaryValue?["$objects"]?.arrayValue)
    let root = try #require(objects.count > 1 ? objects[1].dictionaryValue : nil)
    let keys = root.map { entry -> [UInt8] in
      if case .string(let key) = entry.key { return Array(key.utf8) }
      return []
    }
    #expect(keys.contains(Array(Spellings.precomposed.utf8)), "\(keys)")
    #expect(keys.contains(Array(Spellings.decomposed.utf8)), "\(keys)")
  }

  @Test("ARC-026: a later object asking for the other spelling at the same call gets that key's value")
  func hintsCompareLiterally() throws {
    ClassRegistry.shared.register(SpellingChooser.self, as: "SpellingChooser")
    // Hints are recorded from a class's second object on: the third asks for the other spelling.
    let objects = [SpellingChooser(choice: 0), SpellingChooser(choice: 0), SpellingChooser(choice: 1)]
    let data = try KeyedArchiver.archivedData(withRootObject: objects)
    let back = try #require(try KeyedUnarchiver.unarchivedObject(ofClass: [SpellingChooser].self, from: data))
    #expect(back.map(\.value) == [2, 2, 1])
  }
}
