/// Marker bytes of the binary property list format (`bplist00`): the high nibble is the type, the low nibble a
/// size or count (0xF: an integer object with the count follows).
enum BinaryPropertyListMarker {
  static let magic: [UInt8] = Array("bplist0".utf8)
  static let trailerSize = 32
  static let headerSize = 8

  static let null: UInt8 = 0x00
  static let `false`: UInt8 = 0x08
  static let `true`: UInt8 = 0x09
  static let fill: UInt8 = 0x0F
  static let integer: UInt8 = 0x10
  static let real: UInt8 = 0x20
  static let date: UInt8 = 0x33
  static let data: UInt8 = 0x40
  static let asciiString: UInt8 = 0x50
  static let utf16String: UInt8 = 0x60
  static let utf8String: UInt8 = 0x70
  static let uid: UInt8 = 0x80
  static let array: UInt8 = 0xA0
  static let orderedSet: UInt8 = 0xB0
  static let set: UInt8 = 0xC0
  static let dictionary: UInt8 = 0xD0
}
