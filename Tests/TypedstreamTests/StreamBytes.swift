import Foundation

@testable import Typedstream

/// Hand-made typedstream bytes for tests.
enum StreamBytes {
  /// `04 0B "streamtyped" 81 E8 03`: a little-endian header, system version 1000.
  static let littleHeader: [UInt8] = [0x04, 0x0B] + Array("streamtyped".utf8) + [0x81, 0xE8, 0x03]
  /// `04 0B "typedstream" 81 03 E8`: a big-endian header, system version 1000.
  static let bigHeader: [UInt8] = [0x04, 0x0B] + Array("typedstream".utf8) + [0x81, 0x03, 0xE8]

  /// A little-endian stream: the header, then `body`.
  static func little(_ body: [UInt8]) -> Data { Data(littleHeader + body) }
  /// A big-endian stream: the header, then `body`.
  static func big(_ body: [UInt8]) -> Data { Data(bigHeader + body) }

  /// `84 len bytes`: a new shared string.
  static func new(_ text: String) -> [UInt8] { [0x84, UInt8(text.utf8.count)] + Array(text.utf8) }

  /// A tree holding every type code, unsigned extremes included, an object with a class chain, shared
  /// references to an object, a class and a C string, arrays and structures.
  static func everyTypeArchive(byteOrder: TypedstreamByteOrder) -> TypedstreamArchive {
    let root = TypedstreamClass("NSObject", version: 0)
    let named = TypedstreamClass("Named", version: 7, superclass: .literal(root))
    let object = TypedstreamObject(
      objectClass: .literal(named),
      groups: [
        TypedstreamGroup("i", [.signed(TypeCode("i"), -1)]),
        TypedstreamGroup("@", [.object(.reference(0))]),
      ])
    let point = TypeNode.structure(
      name: Array("_NSPoint".utf8), fields: [.scalar(TypeCode("f")), .scalar(TypeCode("f"))])
    return TypedstreamArchive(
      byteOrder: byteOrder, systemVersion: 1000,
      groups: [
        TypedstreamGroup(
          "cCBsSiIlLqQ",
          [
            .signed(TypeCode("c"), -128), .unsigned(TypeCode("C"), 255), .bool(1),
            .signed(TypeCode("s"), Int64(Int16.min)), .unsigned(TypeCode("S"), UInt64(UInt16.max)),
            .signed(TypeCode("i"), Int64(Int32.min)), .unsigned(TypeCode("I"), UInt64(UInt32.max) - 2),
            .signed(TypeCode("l"), Int64(Int32.max)), .unsigned(TypeCode("L"), 40000),
            .signed(TypeCode("q"), Int64.min), .unsigned(TypeCode("Q"), UInt64.max - 2),
          ]),
        TypedstreamGroup(
          "ffdd",
          [.float(0.85), .float(-0.0), .double(.infinity), .double(21_692_800)]),
        TypedstreamGroup(
          "+*%:!",
          [
            .bytes(Array("bytes".utf8)), .cString(.literal(Array("C".utf8))), .atom(Array("atom".utf8)),
            .selector(Array("doIt:".utf8)), .ignored,
          ]),
        TypedstreamGroup("@", [.object(.literal(object))]),
        TypedstreamGroup("@#*", [.object(.reference(0)), .classValue(.reference(1)), .cString(.reference(0))]),
        TypedstreamGroup("@#*+", [.object(nil), .classValue(nil), .cString(nil), .bytes(nil)]),
        TypedstreamGroup(
          "[4c]", [.byteArray(.array(count: 4, element: .scalar(TypeCode("c"))), [0xDE, 0xAD, 0xBE, 0xEF])]),
        TypedstreamGroup(
          "[2{_NSPoint=ff}]",
          [
            .array(
              .array(count: 2, element: point),
              [.structure(point, [.float(1.5), .float(2)]), .structure(point, [.float(-3), .float(300)])])
          ]),
        TypedstreamGroup(
          "[2i]",
          [
            .array(
              .array(count: 2, element: .scalar(TypeCode("i"))),
              [.signed(TypeCode("i"), 200), .signed(TypeCode("i"), -111)])
          ]),
      ])
  }
}
