import ArchiveCoding
import Foundation
import Testing

@testable import KeyedArchive

/// Holds a value the archiver cannot write, under a key or inside an array.
final class Traveller: Coding {
  var zone: Any?
  var inList = false
  init(zone: Any?, inList: Bool = false) {
    self.zone = zone
    self.inList = inList
  }
  required init(coder: any DecodingCoder) throws {}
  func encode(with coder: any EncodingCoder) {
    coder.encode("Ada", forKey: "name")
    if inList { coder.encode([1, zone as Any], forKey: "stops") } else { coder.encode(zone, forKey: "zone") }
    coder.encode(7, forKey: "after")
    coder.encode(nil as Any?, forKey: "empty")
  }
}

/// A struct that is neither `Coding` nor a Foundation value.
private struct Opaque {}

@Suite("Archiver error locations")
struct ArchiverErrorLocationTests {
  init() { ClassRegistry.shared.register(Traveller.self, as: "Traveller") }

  @Test("COD-105: an unarchivable value names the object, its class and the key")
  func unarchivableValueNamesObjectAndKey() throws {
    let root = Traveller(zone: Opaque())
    let error = try #require(throws: ArchiveError.self) { try KeyedArchiver.archivedData(withRootObject: root) }
    #expect(error.code == .invalidValue)
    #expect(error.location.objectIndex == 1)
    #expect(error.location.className == "Traveller")
    #expect(error.location.keyPath == "zone")
    #expect("\(error)".contains("Opaque"))
  }

  @Test("COD-105: an unarchivable element of an array names the array's key")
  func unarchivableElementNamesArrayKey() throws {
    let root = Traveller(zone: Opaque(), inList: true)
    let error = try #require(throws: ArchiveError.self) { try KeyedArchiver.archivedData(withRootObject: root) }
    #expect(error.location.className == "Traveller")
    #expect(error.location.keyPath == "stops")
  }

  @Test("COD-105: an unarchivable value at the top level names its key")
  func unarchivableTopLevelValueNamesKey() throws {
    let archiver = KeyedArchiver()
    archiver.encode("fine", forKey: "first")
    archiver.encode(Opaque() as Any?, forKey: "odd")
    archiver.encode(nil as Any?, forKey: "later")
    let error = try #require(throws: ArchiveError.self) { try archiver.finishEncoding() }
    #expect(error.location.objectIndex == nil)
    #expect(error.location.keyPath == "odd")
  }

  @Test("COD-105: an error the object reports itself keeps its own location")
  func reportedErrorKeepsItsLocation() throws {
    let archiver = KeyedArchiver()
    archiver.failWithError(ArchiveError(.invalidValue, "mine", at: .init(keyPath: "own")))
    archiver.encode(Opaque() as Any?, forKey: "odd")
    let error = try #require(throws: ArchiveError.self) { try archiver.finishEncoding() }
    #expect(error.message == "mine")
    #expect(error.location.keyPath == "own")
  }
}
