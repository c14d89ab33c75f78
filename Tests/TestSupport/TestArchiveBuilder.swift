/// Writes small NIBArchive files for tests, independently of the reader: objects, keys, values and class names
/// laid out contiguously from offset 50, as ibtool does.
package struct TestArchiveBuilder {
  /// A value to write, or raw type and payload bytes for values the reader must reject.
  package enum Value {
    case int8(Int8), int16(Int16), int32(Int32), int64(Int64)
    case bool(Bool)
    case float(Float), double(Double)
    case data([UInt8])
    case null
    case object(UInt32)
    case raw(type: UInt8, payload: [UInt8])
  }

  package struct Object {
    package var classIndex: Int
    package var entries: [(key: String, value: Value)]
  }

  package var classes: [(name: String, fallbacks: [UInt32])] = []
  package var objects: [Object] = []
  package var formatVersion: UInt32 = 1
  package var coderVersion: UInt32 = 10
  package var trailer: [UInt8] = []

  package init() {}

  /// Adds a class and returns its index.
  package mutating func addClass(_ name: String, fallbacks: [UInt32] = []) -> Int {
    classes.append((name, fallbacks))
    return classes.count - 1
  }

  /// Adds an object and returns its index.
  @discardableResult
  package mutating func addObject(_ classIndex: Int, _ entries: [(String, Value)]) -> Int {
    objects.append(Object(classIndex: classIndex, entries: entries.map { (key: $0.0, value: $0.1) }))
    return objects.count - 1
  }

  /// Adds an NSString object.
  package mutating func addString(_ text: String) -> Int {
    let stringClass = classes.firstIndex { $0.name == "NSString" } ?? addClass("NSString")
    return addObject(stringClass, [("NS.bytes", .data(Array(text.utf8)))])
  }

  /// Adds an inlined NSArray object of the given elements.
  package mutating func addArray(_ elements: [Int], className: String = "NSArray") -> Int {
    let arrayClass = classes.firstIndex { $0.name == className } ?? addClass(className)
    return addObject(
      arrayClass,
      [("NSInlinedValue", .bool(true))] + elements.map { ("UINibEncoderEmptyKey", .object(UInt32($0))) })
  }

  package static func varint(_ value: Int) -> [UInt8] {
    var rest = value
    var out: [UInt8] = []
    while rest >= 0x80 {
      out.append(UInt8(rest & 0x7F))
      rest >>= 7
    }
    out.append(UInt8(rest) | 0x80)
    return out
  }

  package static func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
    withUnsafeBytes(of: value.littleEndian) { Array($0) }
  }

  package func bytes() -> [UInt8] {
    var keys: [String] = []
    var keyIndex: [String: Int] = [:]
    for object in objects {
      for entry in object.entries where keyIndex[entry.key] == nil {
        keyIndex[entry.key] = keys.count
        keys.append(entry.key)
      }
    }
    var objectTable: [UInt8] = []
    var valueTable: [UInt8] = []
    var valueCount = 0
    for object in objects {
      objectTable += Self.varint(object.classIndex)
      objectTable += Self.varint(object.entries.isEmpty ? 0 : valueCount)
      objectTable += Self.varint(object.entries.count)
      for entry in object.entries {
        valueTable += Self.varint(keyIndex[entry.key] ?? 0)
        switch entry.value {
        case .int8(let v): valueTable += [0] + Self.le(v)
        case .int16(let v): valueTable += [1] + Self.le(v)
        case .int32(let v): valueTable += [2] + Self.le(v)
        case .int64(let v): valueTable += [3] + Self.le(v)
        case .bool(let v): valueTable += [v ? 5 : 4]
        case .float(let v): valueTable += [6] + Self.le(v.bitPattern)
        case .double(let v): valueTable += [7] + Self.le(v.bitPattern)
        case .data(let v): valueTable += [8] + Self.varint(v.count) + v
        case .null: valueTable += [9]
        case .object(let v): valueTable += [10] + Self.le(v)
        case .raw(let type, let payload): valueTable += [type] + payload
        }
        valueCount += 1
      }
    }
    var keyTable: [UInt8] = []
    for key in keys { keyTable += Self.varint(key.utf8.count) + Array(key.utf8) }
    var classTable: [UInt8] = []
    for entry in classes {
      classTable += Self.varint(entry.name.utf8.count + 1) + Self.varint(entry.fallbacks.count)
      for fallback in entry.fallbacks { classTable += Self.le(fallback) }
      classTable += Array(entry.name.utf8) + [0]
    }
    let objectsOffset = 50
    let keysOffset = objectsOffset + objectTable.count
    let valuesOffset = keysOffset + keyTable.count
    let classesOffset = valuesOffset + valueTable.count
    var out = Array("NIBArchive".utf8)
    for field in [
      formatVersion, coderVersion, UInt32(objects.count), UInt32(objectsOffset), UInt32(keys.count),
      UInt32(keysOffset), UInt32(valueCount), UInt32(valuesOffset), UInt32(classes.count), UInt32(classesOffset),
    ] {
      out += Self.le(field)
    }
    return out + objectTable + keyTable + valueTable + classTable + trailer
  }
}
