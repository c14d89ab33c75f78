import ArchiveCoding
import Foundation
import TestSupport
import Testing

@testable import PropertyList

/// `BinaryPropertyListReader.lookupPosition(string:inDictionary:from:)`, which every keyed read goes through, against
/// a reference that decodes each key: the same position for every key form, width and starting point.
@Suite("Key lookups in a binary dictionary")
struct KeyLookupTests {
  /// A key object of the test dictionary: its bytes and the string it is (`nil` for a key that is no string).
  struct Key {
    var bytes: [UInt8]
    var text: String?
  }

  static func be(_ value: Int, _ width: Int) -> [UInt8] { RawPropertyList.bigEndian(UInt64(value), width) }

  /// Short ASCII keys, the long length form of a short key, a 16-byte key, UTF-16 keys, a duplicate, a number.
  static let keys: [Key] = [
    Key(bytes: [0x55] + Array("alpha".utf8), text: "alpha"),
    Key(bytes: [0x5F, 0x10, 0x04] + Array("name".utf8), text: "name"),
    Key(bytes: [0x5F, 0x10, 0x10] + Array("a_sixteen_bytes!".utf8), text: "a_sixteen_bytes!"),
    Key(bytes: [0x64] + [0x00, 0x62, 0x00, 0xE9, 0x00, 0x74, 0x00, 0x61], text: "béta"),
    Key(bytes: [0x64] + [0x00, 0x6E, 0x00, 0x61, 0x00, 0x6D, 0x00, 0x65], text: "name"),
    Key(bytes: [0x56] + Array("$class".utf8), text: "$class"),
    Key(bytes: [0x10, 0x07], text: nil),
    Key(bytes: [0x55] + Array("alpha".utf8), text: "alpha"),
    Key(bytes: [0x51] + Array("x".utf8), text: "x"),
  ]

  /// A list whose top object is a dictionary of ``keys`` (values are one integer), with one more key reference
  /// out of range when `badReference` is set, in the given widths. Keys and values follow the dictionary.
  static func list(refSize: Int, offsetSize: Int, badReference: Bool) -> (bytes: [UInt8], keyCount: Int) {
    let keyCount = keys.count + (badReference ? 1 : 0)
    let objectCount = 1 + keys.count + 1
    var keyRefs = (1...keys.count).map { $0 }
    if badReference { keyRefs.insert(objectCount + 5, at: 3) }
    let value = objectCount - 1
    let dictionary =
      [0xD0 | UInt8(keyCount)] + keyRefs.flatMap { be($0, refSize) }
      + Array(repeating: value, count: keyCount).flatMap { be($0, refSize) }
    let list = RawPropertyList(objects: [dictionary] + keys.map(\.bytes) + [[0x10, 0x01]])
    return (list.bytes(refSize: UInt8(refSize), offsetSize: UInt8(offsetSize)), keyCount)
  }

  /// The documented answer: the first ASCII-stored occurrence at or after `start`, else before it, else the first
  /// UTF-16 one.
  static func expected(_ text: String, keyTexts: [(text: String?, isUTF16: Bool)], from start: Int) -> Int? {
    let ascii = keyTexts.indices.filter { keyTexts[$0].text == text && !keyTexts[$0].isUTF16 }
    if let found = ascii.first(where: { $0 >= start }) ?? ascii.first { return found }
    return keyTexts.indices.first { keyTexts[$0].text == text && keyTexts[$0].isUTF16 }
  }

  static let widths = [(1, 1), (1, 2), (2, 2), (2, 4), (4, 4), (2, 1), (1, 4), (4, 8), (8, 8), (3, 3)]

  @Test(
    "ARC-026: a key is found in every stored form, from every starting point, whatever the widths",
    arguments: 0..<widths.count, [false, true])
  func lookups(widthIndex: Int, badReference: Bool) throws {
    let (refSize, offsetSize) = Self.widths[widthIndex]
    let (bytes, keyCount) = Self.list(refSize: refSize, offsetSize: offsetSize, badReference: badReference)
    let reader = try BinaryPropertyListReader(bytes: bytes, validation: .onAccess)
    let header = try reader.header(of: 0)
    #expect(header.kind == .dictionary && header.count == keyCount)
    var keyTexts: [(text: String?, isUTF16: Bool)] = Self.keys.map { ($0.text, $0.bytes[0] & 0xF0 == 0x60) }
    var markers: [UInt8?] = Self.keys.map { $0.bytes[0] }
    if badReference {
      keyTexts.insert((nil, false), at: 3)
      markers.insert(nil, at: 3)
    }
    let asked = ["alpha", "name", "a_sixteen_bytes!", "béta", "$class", "x", "missing", "alph", "alphaa", ""]
    for text in asked {
      for start in 0...keyCount {
        let found = reader.lookupPosition(string: text, inDictionary: header, from: start)
        let wanted = Self.expected(text, keyTexts: keyTexts, from: start)
        #expect(found == wanted, "\(text) from \(start), widths \(refSize)/\(offsetSize)")
        // The probe: the key at `start`, when it is this short ASCII key in the marker holding its length and
        // does not start with the escape byte; the lookup then finds it there.
        let length = text.utf8.count
        let probed = reader.hasASCIIKey(text, at: start, in: header, escaping: UInt8(ascii: "$"))
        let probeWanted =
          start < keyCount && keyTexts[start].text == text && length > 0 && length < 15
          && markers[start] == 0x50 | UInt8(length) && !text.hasPrefix("$")
        #expect(probed == probeWanted, "probe \(text) at \(start), widths \(refSize)/\(offsetSize)")
        if probed { #expect(found == start) }
      }
    }
  }

  /// A list whose top object is a dictionary of the given ASCII-marked string keys (`0x5n`, raw bytes; fewer than
  /// 15 keys), in the given widths.
  static func list(keys: [[UInt8]], refSize: Int, offsetSize: Int) -> [UInt8] {
    let count = keys.count
    let dictionary =
      [0xD0 | UInt8(count)] + (1...count).flatMap { be($0, refSize) }
      + Array(repeating: count + 1, count: count).flatMap { be($0, refSize) }
    let objects = [dictionary] + keys.map { [0x50 | UInt8($0.count)] + $0 } + [[0x10, 0x01]]
    return RawPropertyList(objects: objects).bytes(refSize: UInt8(refSize), offsetSize: UInt8(offsetSize))
  }

  @Test(
    "ARC-026: every byte of a short key is compared, at every length below 15, and a non-ASCII key never matches raw bytes",
    arguments: 0..<widths.count)
  func everyByteCompared(widthIndex: Int) throws {
    let (refSize, offsetSize) = Self.widths[widthIndex]
    for length in 0...14 {
      let key = (0..<length).map { UInt8(ascii: "a") + UInt8($0) }
      // The key with one byte changed, for each byte.
      let variants = (0..<length).map { i in
        var variant = key
        variant[i] = UInt8(ascii: "A") + UInt8(i)
        return variant
      }
      // Each variant before the key and after it: a byte left out of the comparison makes one match the other.
      for keys in variants.flatMap({ [[$0, key], [key, $0]] }) + [[key]] {
        let reader = try BinaryPropertyListReader(
          bytes: Self.list(keys: keys, refSize: refSize, offsetSize: offsetSize), validation: .onAccess)
        let header = try reader.header(of: 0)
        for (index, asked) in keys.enumerated() {
          let text = try #require(String(bytes: asked, encoding: .ascii))
          #expect(
            reader.lookupPosition(string: text, inDictionary: header, from: 0) == index,
            "\(text), widths \(refSize)/\(offsetSize)")
          // The probe matches the key at its own position only.
          for position in keys.indices {
            #expect(
              reader.hasASCIIKey(text, at: position, in: header, escaping: UInt8(ascii: "$"))
                == (position == index && length > 0), "probe \(text) at \(position)")
          }
        }
      }
      // Stored bytes that are not ASCII (`é` in UTF-8 at each position) under an ASCII marker: the key with `é`
      // there is not an ASCII key and is not found.
      guard length >= 2 else { continue }
      for i in 0..<(length - 1) {
        var stored = key
        stored[i] = 0xC3
        stored[i + 1] = 0xA9
        let reader = try BinaryPropertyListReader(
          bytes: Self.list(keys: [stored], refSize: refSize, offsetSize: offsetSize), validation: .onAccess)
        let text = try #require(String(bytes: stored, encoding: .utf8))
        #expect(reader.lookupPosition(string: text, inDictionary: try reader.header(of: 0), from: 0) == nil, "\(text)")
        #expect(!reader.hasASCIIKey(text, at: 0, in: try reader.header(of: 0), escaping: UInt8(ascii: "$")))
      }
    }
  }
}
