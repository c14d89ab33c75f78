import ArchiveCoding
import Foundation
import Testing

@testable import KeyedArchive

/// A class archived under one name, then under another.
private final class RenamedRoot: SecureCoding {
  var value: Int
  init(value: Int) { self.value = value }
  required init(coder: any DecodingCoder) throws { value = try coder.decodeInt(forKey: "value") }
  func encode(with coder: any EncodingCoder) { coder.encode(value, forKey: "value") }
}

/// Two more root types decoded in turn (each test registers its own classes: tests run in parallel).
private final class TurnRoot: SecureCoding {
  var value: Int
  init(value: Int) { self.value = value }
  required init(coder: any DecodingCoder) throws { value = try coder.decodeInt(forKey: "value") }
  func encode(with coder: any EncodingCoder) { coder.encode(value, forKey: "value") }
}

private final class OtherRoot: SecureCoding {
  var label: String
  init(label: String) { self.label = label }
  required init(coder: any DecodingCoder) throws { label = try coder.decodeString(forKey: "label") ?? "" }
  func encode(with coder: any EncodingCoder) { coder.encode(label, forKey: "label") }
}

/// A small class hierarchy: a subclass passed as its base class's type.
private class MemoShape: SecureCoding {
  init() {}
  required init(coder: any DecodingCoder) throws {}
  func encode(with coder: any EncodingCoder) {}
}
private final class MemoCircle: MemoShape {}
private final class MemoSquare: MemoShape {}

/// `unarchivedObject(ofClass:)` works out what its type allows for each call: registrations made between calls, and
/// types decoded in turn, are each seen as they are.
@Suite("Typed top-level decodes")
struct TopLevelTypeTests {
  @Test("COD-023: unarchivedObject(ofClass:) allows a class under the name registered after its last call")
  func registrationAfterTheLastCall() throws {
    let registry = ClassRegistry.shared
    registry.register(RenamedRoot.self, as: "MemoRootBefore")
    let before = try KeyedArchiver.archivedData(withRootObject: RenamedRoot(value: 1))
    #expect(try KeyedUnarchiver.unarchivedObject(ofClass: RenamedRoot.self, from: before)?.value == 1)
    #expect(registry.allowedClassNames(for: [RenamedRoot.self]).contains("MemoRootBefore"))

    registry.register(RenamedRoot.self, as: "MemoRootAfter")
    let after = try KeyedArchiver.archivedData(withRootObject: RenamedRoot(value: 2))
    #expect(String(decoding: after, as: UTF8.self).contains("MemoRootAfter"))
    // An answer kept from before the registration would allow only the old name: classNotAllowed.
    #expect(try KeyedUnarchiver.unarchivedObject(ofClass: RenamedRoot.self, from: after)?.value == 2)
  }

  @Test("COD-023: decoding two root types in turn checks each against its own allowed names")
  func typesInTurn() throws {
    ClassRegistry.shared.register(OtherRoot.self, as: "MemoOtherRoot")
    ClassRegistry.shared.register(TurnRoot.self, as: "MemoTurnRoot")
    let turn = try KeyedArchiver.archivedData(withRootObject: TurnRoot(value: 7))
    let other = try KeyedArchiver.archivedData(withRootObject: OtherRoot(label: "seven"))
    for _ in 0..<3 {
      #expect(try KeyedUnarchiver.unarchivedObject(ofClass: TurnRoot.self, from: turn)?.value == 7)
      #expect(try KeyedUnarchiver.unarchivedObject(ofClass: OtherRoot.self, from: other)?.label == "seven")
      // Each type's names refuse the other's class, as a fresh computation does.
      let refused = #expect(throws: ArchiveError.self) {
        try KeyedUnarchiver.unarchivedObject(ofClass: OtherRoot.self, from: turn)
      }
      #expect(refused?.code == .classNotAllowed)
      #expect(refused?.message.contains("MemoTurnRoot") == true, "\(String(describing: refused))")
    }
  }

  @Test("COD-020: a subclass passed as its base class's type allows the subclass only, as without the memo")
  func dynamicTypeDecides() throws {
    let registry = ClassRegistry.shared
    registry.register(MemoShape.self, as: "MemoShape")
    registry.register(MemoCircle.self, as: "MemoCircle")
    registry.register(MemoSquare.self, as: "MemoSquare")
    let square = try KeyedArchiver.archivedData(withRootObject: MemoSquare())
    let circle = try KeyedArchiver.archivedData(withRootObject: MemoCircle())
    let passed: MemoShape.Type = MemoCircle.self
    for _ in 0..<2 {
      #expect(try KeyedUnarchiver.unarchivedObject(ofClass: passed, from: circle) is MemoCircle)
      let refused = #expect(throws: ArchiveError.self) {
        try KeyedUnarchiver.unarchivedObject(ofClass: passed, from: square)
      }
      #expect(refused?.code == .classNotAllowed, "\(String(describing: refused))")
      // The base class itself allows every subclass whose chain names it.
      #expect(try KeyedUnarchiver.unarchivedObject(ofClass: MemoShape.self, from: square) is MemoSquare)
    }
  }

  @Test("COD-023: a root of an allowed class that is not of the type asked for is a type mismatch")
  func rootOfAnotherType() throws {
    let archive = try KeyedArchiver.archivedData(withRootObject: 1.5)
    // Int allows NSNumber, so the number decodes, and the cast to Int then fails.
    let mismatch = #expect(throws: ArchiveError.self) {
      try KeyedUnarchiver.unarchivedObject(ofClass: Int.self, from: archive)
    }
    #expect(mismatch?.code == .typeMismatch)
    #expect(mismatch?.message == "expected Int, found Double")
    #expect(try KeyedUnarchiver.unarchivedObject(ofClass: Double.self, from: archive) == 1.5)
    let text = try KeyedArchiver.archivedData(withRootObject: "text")
    #expect(try KeyedUnarchiver.unarchivedObject(ofClass: String.self, from: text) == "text")
    let texts = try KeyedArchiver.archivedData(withRootObject: ["a", "b"])
    #expect(try KeyedUnarchiver.unarchivedObject(ofClass: [String].self, from: texts) == ["a", "b"])
  }
}
