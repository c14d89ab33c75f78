import ArchiveCoding
import Foundation
import KeyedArchive
import NibLoading

/// Reading interface values whatever the source: XIB keys (`frame`, `backgroundColor`) give geometry values and
/// records; compiled UIKit nibs (`UIBounds`, `UICenter`) give packed data; AppKit nibs give `{{x, y}, {w, h}}`
/// strings. Each helper takes the keys to try in order (XIB key first, then the compiled keys).
///
/// From a nib's own coder (``NibObjectCoder``) the helpers read the prepared fields directly: one pass finds the
/// first present key, and values that refer to no object are converted without boxing them. Fields that refer to
/// objects, and every other coder, go through the `DecodingCoder` calls, with the same results.
extension DecodingCoder {
  /// The first key of `keys` the object has.
  func firstKey(_ keys: [String]) -> String? {
    if let nib = nibCoder { return nib.position(ofFirst: keys).map { nib.fields.entries[$0].key } }
    return keys.first { containsValue(forKey: $0) }
  }

  /// For a nib's coder: the coder and the position of the first present key (`nil` when none is); `nil` for other
  /// coders.
  @inline(__always)
  private func nibField(_ keys: [String]) -> (coder: NibObjectCoder, position: Int?)? {
    guard let nib = nibCoder else { return nil }
    return (nib, nib.position(ofFirst: keys))
  }

  /// Numbers of a geometry value: `ArchivedValue`, packed data (`0x07` + doubles, `0x06` + floats) or a string.
  func geometry(_ keys: [String]) throws -> [Double]? {
    if let (nib, position) = nibField(keys) {
      guard let i = position else { return nil }
      let entry = nib.fields.entries[i]
      switch entry.value {
      case .rect(let x, let y, let w, let h): return [x, y, w, h]
      case .point(let x, let y): return [x, y]
      case .size(let w, let h): return [w, h]
      default: if entry.isConstant { return entry.constant.flatMap(Self.numbers(in:)) }
      }
    }
    guard let key = firstKey(keys), let value = try decodeObject(forKey: key) else { return nil }
    return Self.numbers(in: value)
  }

  static func numbers(in value: Any) -> [Double]? {
    switch value {
    case let v as ArchivedValue:
      switch v {
      case .point(let x, let y): return [x, y]
      case .size(let w, let h): return [w, h]
      case .rect(let x, let y, let w, let h): return [x, y, w, h]
      case .edgeInsets(let t, let l, let b, let r, _): return [t, l, b, r]
      case .range(let location, let length): return [Double(location), Double(length)]
      case .transform(let a, let b, let c, let d, let tx, let ty): return [a, b, c, d, tx, ty]
      }
    case let data as Data:
      return packedNumbers(data)
    case let text as String:
      let numbers = text.split(whereSeparator: { "{}, \t\n".contains($0) }).compactMap { Double($0) }
      return numbers.isEmpty ? nil : numbers
    default:
      return nil
    }
  }

  /// UIKit's packed geometry: a type byte (`0x07` doubles, `0x06` floats) then the numbers, little-endian.
  static func packedNumbers(_ data: Data) -> [Double]? {
    let bytes = [UInt8](data)
    guard let kind = bytes.first else { return nil }
    let width = kind == 0x07 ? 8 : kind == 0x06 ? 4 : 0
    guard width > 0, (bytes.count - 1) % width == 0 else { return nil }
    return stride(from: 1, to: bytes.count, by: width).map { start in
      var bits: UInt64 = 0
      for i in 0..<width { bits |= UInt64(bytes[start + i]) << UInt64(8 * i) }
      return width == 8 ? Double(bitPattern: bits) : Double(Float(bitPattern: UInt32(bits)))
    }
  }

  /// A rectangle from a rect value (`frame`, `NSFrame`) or from bounds and centre (`UIBounds`, `UICenter`).
  func decodeFrame() throws -> Rect? {
    // A nib's XIB frame is a rect value: read it without building an array of numbers.
    if let nib = nibCoder, let i = nib.position(ofFirst: ["frame", "NSFrame", "UIFrame"]),
      case .rect(let x, let y, let w, let h) = nib.fields.entries[i].value
    {
      return Rect(x: x, y: y, width: w, height: h)
    }
    if let n = try geometry(["frame", "NSFrame", "UIFrame"]), n.count == 4 {
      return Rect(x: n[0], y: n[1], width: n[2], height: n[3])
    }
    if let bounds = try geometry(["UIBounds"]), bounds.count == 4 {
      let center = try geometry(["UICenter"]) ?? [bounds[2] / 2, bounds[3] / 2]
      guard center.count == 2 else { return nil }
      return Rect(x: center[0] - bounds[2] / 2, y: center[1] - bounds[3] / 2, width: bounds[2], height: bounds[3])
    }
    if let size = try geometry(["NSFrameSize"]), size.count == 2 {
      return Rect(x: 0, y: 0, width: size[0], height: size[1])
    }
    return nil
  }

  /// A string under the first present key.
  func string(_ keys: [String]) throws -> String? {
    if let (nib, position) = nibField(keys) {
      guard let i = position else { return nil }
      let entry = nib.fields.entries[i]
      if entry.isConstant {
        switch entry.value {
        case .string(let text): return text
        case .record: return entry.record.flatMap { $0.string("value") ?? $0.string("title") }
        default: return nil
        }
      }
    }
    guard let key = firstKey(keys) else { return nil }
    switch try decodeObject(forKey: key) {
    case let text as String: return text
    case let record as NibRecord: return record.string("value") ?? record.string("title")
    default: return nil
    }
  }

  /// A string under the first present key, and nothing else (no record's title).
  func text(_ keys: [String]) throws -> String? {
    if let (nib, position) = nibField(keys) {
      guard let i = position else { return nil }
      let entry = nib.fields.entries[i]
      if entry.isConstant {
        if case .string(let text) = entry.value { return text }
        return nil
      }
    }
    guard let key = firstKey(keys) else { return nil }
    return try decodeObject(forKey: key) as? String
  }

  /// The record (`<state>`, `<color>`) under a key.
  func record(_ key: String) throws -> NibRecord? {
    if let nib = nibCoder {
      guard let i = nib.position(of: key) else { return nil }
      let entry = nib.fields.entries[i]
      if entry.isConstant { return entry.record }
    }
    return try decodeObject(forKey: key) as? NibRecord
  }

  /// A number under the first present key (XIB attributes are text).
  func number(_ keys: [String]) throws -> Double? {
    try scalar(keys, { try $0.decodeDouble(at: $1) }, { try decodeDouble(forKey: $0) })
  }

  /// A boolean under the first present key.
  func flag(_ keys: [String]) throws -> Bool? {
    try scalar(keys, { try $0.decodeBool(at: $1) }, { try decodeBool(forKey: $0) })
  }

  /// A value under the first present key: read at its position from a nib's coder, else decoded by key.
  @inline(__always)
  private func scalar<T>(
    _ keys: [String], _ readNib: (NibObjectCoder, Int) throws -> T, _ decode: (String) throws -> T
  ) throws -> T? {
    if let nib = nibCoder {
      guard let i = nib.position(ofFirst: keys) else { return nil }
      return try readNib(nib, i)
    }
    guard let key = firstKey(keys) else { return nil }
    return try decode(key)
  }

  /// A colour from a XIB `<color>` record or a compiled `UIColor`/`NSColor` object.
  func color(_ keys: [String]) throws -> Color? {
    if let (nib, position) = nibField(keys) {
      guard let i = position else { return nil }
      let entry = nib.fields.entries[i]
      if entry.isConstant { return entry.record.flatMap(Color.init(record:)) }
    }
    guard let key = firstKey(keys) else { return nil }
    switch try decodeObject(forKey: key) {
    case let record as NibRecord: return Color(record: record)
    case let object as ColorObject: return object.color
    default: return nil
    }
  }

  /// A font from a XIB `<fontDescription>`/`<font>` record or a compiled `UIFont` object.
  func font(_ keys: [String]) throws -> Font? {
    if let (nib, position) = nibField(keys) {
      guard let i = position else { return nil }
      let entry = nib.fields.entries[i]
      if entry.isConstant { return entry.record.map(Self.font) }
    }
    guard let key = firstKey(keys) else { return nil }
    switch try decodeObject(forKey: key) {
    case let record as NibRecord: return Self.font(record)
    case let object as FontObject: return object.font
    default: return nil
    }
  }

  private static func font(_ record: NibRecord) -> Font {
    Font(
      name: record.string("name"), pointSize: record.number("pointSize") ?? record.number("size") ?? 17,
      style: record.string("type") ?? record.string("weight") ?? record.string("style") ?? record.string("metaFont"))
  }

  /// Objects of a type in a collection under the first present key.
  /// (Inlined, so that `[T]` is a concrete type at each call: this extension is generic over the coder too and is
  /// never specialised, and building `[T]`'s metadata on every call costs more than the lookup.)
  @inline(__always)
  func objects<T>(_ keys: [String], of type: T.Type) throws -> [T] {
    if let (nib, position) = nibField(keys) {
      guard let i = position else { return [] }
      return try nib.objects(at: i, of: type)
    }
    guard let key = firstKey(keys), let elements = try decodeObject(forKey: key) as? [Any] else { return [] }
    return Self.elements(elements, of: type)
  }

  /// The elements that are `T`s, in order.
  @inline(__always)
  static func elements<T>(_ elements: [Any], of type: T.Type) -> [T] {
    var objects: [T] = []
    objects.reserveCapacity(elements.count)
    for element in elements {
      if let object = element as? T { objects.append(object) }
    }
    return objects
  }
}

extension Color {
  /// A colour from a XIB `<color>` element's attributes.
  init?(record: NibRecord) {
    if let white = record.number("white") {
      self.init(white: white, alpha: record.number("alpha") ?? 1)
    } else if let red = record.number("red") {
      self.init(
        red: red, green: record.number("green") ?? 0, blue: record.number("blue") ?? 0,
        alpha: record.number("alpha") ?? 1)
    } else if let name = record.string("systemColor") ?? record.string("cocoaTouchSystemColor") ?? record.string("name")
    {
      self.init(red: 0, green: 0, blue: 0, alpha: 1, name: name)
    } else {
      return nil
    }
  }
}

extension NibObjectCoder {
  /// Objects of a type in the collection at a position of the fields, as ``DecodingCoder/objects(_:of:)`` reads
  /// them: the elements unboxed when they are all object references, else through `decodeObject(forKey:)`.
  @inline(__always)
  func objects<T>(at i: Int, of type: T.Type) throws -> [T] {
    if let (indexes, key) = objectElements(at: i) {
      var objects: [T] = []
      objects.reserveCapacity(indexes.count)
      for index in indexes {
        // The element is handed on rather than copied: the cast and the append take the reference the instantiator
        // returned.
        let object = try objectElement(index, forKey: key)
        if let element = (consume object) as? T { objects.append(consume element) }
      }
      return objects
    }
    guard let elements = try decodeObject(forKey: fields.entries[i].key) as? [Any] else { return [] }
    return Self.elements(elements, of: type)
  }
}
