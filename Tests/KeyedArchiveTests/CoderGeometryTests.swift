import ArchiveCoding
import Foundation
import Testing

@testable import KeyedArchive

@Suite("Coder geometry calls")
struct CoderGeometryTests {
  private func archive(_ body: (KeyedArchiver) -> Void) throws -> Data {
    let archiver = KeyedArchiver()
    body(archiver)
    return try archiver.finishEncoding()
  }

  @Test("COD-101: geometry is written in Darwin's string forms")
  func geometryIsWrittenInDarwinsForms() throws {
    let data = try archive { coder in
      coder.encode(CGRect(x: 0, y: 0, width: 320, height: 480), forKey: "rect")
      coder.encode(CGPoint(x: 10, y: 20.5), forKey: "point")
      coder.encode(CGSize(width: 1, height: 2), forKey: "size")
      coder.encode(NSEdgeInsets(top: 1, left: 2, bottom: 3, right: 4), forKey: "insets")
      coder.encode(AffineTransform(m11: 1, m12: 0, m21: 0, m22: 1, tX: 5, tY: 6), forKey: "transform")
      coder.encode(NSRange(location: 3, length: 4), forKey: "range")
    }
    let unarchiver = try KeyedUnarchiver(forReadingFrom: data, requiringSecureCoding: true)
    // Darwin's NSStringFromCGRect, NSStringFromCGPoint, NSStringFromUIEdgeInsets, NSStringFromCGAffineTransform.
    #expect(try unarchiver.decodeString(forKey: "rect") == "{{0, 0}, {320, 480}}")
    #expect(try unarchiver.decodeString(forKey: "point") == "{10, 20.5}")
    #expect(try unarchiver.decodeString(forKey: "size") == "{1, 2}")
    #expect(try unarchiver.decodeString(forKey: "insets") == "{1, 2, 3, 4}")
    #expect(try unarchiver.decodeString(forKey: "transform") == "[1, 0, 0, 1, 5, 6]")
    // The toolchain's NSStringFromRange gives the same text.
    #expect(try unarchiver.decodeString(forKey: "range") == NSStringFromRange(NSRange(location: 3, length: 4)))
    #expect(try unarchiver.decodeCGRect(forKey: "rect") == CGRect(x: 0, y: 0, width: 320, height: 480))
    #expect(try unarchiver.decodeCGPoint(forKey: "point") == CGPoint(x: 10, y: 20.5))
    #expect(try unarchiver.decodeCGSize(forKey: "size") == CGSize(width: 1, height: 2))
    let insets = try unarchiver.decodeUIEdgeInsets(forKey: "insets")
    #expect([insets.top, insets.left, insets.bottom, insets.right] == [1, 2, 3, 4])
    #expect(
      try unarchiver.decodeCGAffineTransform(forKey: "transform")
        == AffineTransform(m11: 1, m12: 0, m21: 0, m22: 1, tX: 5, tY: 6))
    #expect(try unarchiver.decodeRange(forKey: "range") == NSRange(location: 3, length: 4))
  }

  @Test("COD-101: missing geometry keys decode as zero, and a missing transform as the identity")
  func missingKeysDecodeAsZero() throws {
    let unarchiver = try KeyedUnarchiver(forReadingFrom: try archive { _ in }, requiringSecureCoding: true)
    #expect(try unarchiver.decodeRect(forKey: "r") == .zero)
    #expect(try unarchiver.decodePoint(forKey: "p") == .zero)
    #expect(try unarchiver.decodeSize(forKey: "s") == .zero)
    #expect(try unarchiver.decodeCGAffineTransform(forKey: "t") == .identity)
    #expect(try unarchiver.decodeRange(forKey: "g") == NSRange(location: 0, length: 0))
  }

  @Test("COD-101: geometry NSKeyedArchiver writes reads back")
  func foundationGeometryReads() throws {
    let archiver = NSKeyedArchiver(requiringSecureCoding: false)
    archiver.encode(NSRect(x: 1.5, y: -2, width: 320, height: 480), forKey: "rect")
    archiver.encode(NSPoint(x: 0.1, y: 7), forKey: "point")
    archiver.encode(NSSize(width: 3, height: 4), forKey: "size")
    archiver.encode(NSStringFromRange(NSRange(location: 9, length: 2)) as NSString, forKey: "range")
    archiver.finishEncoding()
    let unarchiver = try KeyedUnarchiver(forReadingFrom: archiver.encodedData, requiringSecureCoding: true)
    #expect(try unarchiver.decodeRect(forKey: "rect") == NSRect(x: 1.5, y: -2, width: 320, height: 480))
    #expect(try unarchiver.decodePoint(forKey: "point") == NSPoint(x: 0.1, y: 7))
    #expect(try unarchiver.decodeSize(forKey: "size") == NSSize(width: 3, height: 4))
    #expect(try unarchiver.decodeRange(forKey: "range") == NSRange(location: 9, length: 2))
  }

  @Test("COD-101: geometry written here reads back in NSKeyedUnarchiver")
  func ourGeometryReadsInFoundation() throws {
    let data = try archive { coder in
      coder.encode(CGRect(x: 1.5, y: -2, width: 320, height: 480), forKey: "rect")
      coder.encode(CGPoint(x: 0.1, y: 7), forKey: "point")
      coder.encode(CGSize(width: 3, height: 4), forKey: "size")
      coder.encode(NSRange(location: 9, length: 2), forKey: "range")
    }
    let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
    unarchiver.requiresSecureCoding = false
    #expect(unarchiver.decodeRect(forKey: "rect") == NSRect(x: 1.5, y: -2, width: 320, height: 480))
    #expect(unarchiver.decodePoint(forKey: "point") == NSPoint(x: 0.1, y: 7))
    #expect(unarchiver.decodeSize(forKey: "size") == NSSize(width: 3, height: 4))
    let range = try #require(unarchiver.decodeObject(forKey: "range") as? String)
    #expect(NSRangeFromString(range) == NSRange(location: 9, length: 2))
  }

  @Test(
    "COD-101: a malformed geometry string is a corruptData error naming the key",
    arguments: [
      ("rect", "{{0, 0}, {320}}"),  // short size
      ("point", "{1, 2, 3}"),  // one number too many
      ("size", "tall"),  // not a list
      ("insets", "{1, 2, 3}"),  // three edges
      ("transform", "[1, 0, 0, 1]"),  // four of six
      ("range", "{-1, 2}"),  // negative location
      ("range", "{1.5, 2}"),  // fractional location
      ("range", "{99999999999999999999, 1}"),  // beyond Int
    ])
  func malformedGeometryNamesTheKey(key: String, text: String) throws {
    let data = try archive { $0.encode(text, forKey: key) }
    let unarchiver = try KeyedUnarchiver(forReadingFrom: data, requiringSecureCoding: true)
    let error = try #require(throws: ArchiveError.self) {
      switch key {
      case "rect": _ = try unarchiver.decodeCGRect(forKey: key)
      case "point": _ = try unarchiver.decodeCGPoint(forKey: key)
      case "size": _ = try unarchiver.decodeCGSize(forKey: key)
      case "insets": _ = try unarchiver.decodeUIEdgeInsets(forKey: key)
      case "transform": _ = try unarchiver.decodeCGAffineTransform(forKey: key)
      default: _ = try unarchiver.decodeRange(forKey: key)
      }
    }
    #expect(error.code == .corruptData)
    #expect(error.location.keyPath == key)
  }

  @Test("COD-101: a geometry key holding a number is a typeMismatch naming the key")
  func geometryOfWrongTypeNamesTheKey() throws {
    let unarchiver = try KeyedUnarchiver(
      forReadingFrom: try archive { $0.encode(5, forKey: "rect") }, requiringSecureCoding: true)
    let error = try #require(throws: ArchiveError.self) { try unarchiver.decodeCGRect(forKey: "rect") }
    #expect(error.code == .typeMismatch)
    #expect(error.location.keyPath == "rect")
  }
}
