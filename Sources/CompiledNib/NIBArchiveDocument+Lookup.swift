import ArchiveCoding
import Foundation

extension NIBArchiveDocument {
  // MARK: Keys

  /// The index of the first key with this name, to look keys up by integer comparison (rule NIBA-031).
  /// - Parameter name: a key name.
  /// - Returns: the key index, or `nil` when no value of the archive uses that key.
  public func keyIndex(named name: String) -> Int? {
    keyIndexByName[name]
  }

  /// The values-table index of the first entry of an object with the given key index (rule NIBA-031).
  /// - Parameters:
  ///   - keyIndex: a key index from ``keyIndex(named:)``.
  ///   - objectIndex: an object index below ``objectCount``.
  /// - Returns: the first matching entry in stored order, or `nil`.
  public func valueIndex(forKeyIndex keyIndex: Int, inObject objectIndex: Int) -> Int? {
    let record = objectRecord(objectIndex)
    let wanted = UInt32(truncatingIfNeeded: keyIndex)
    guard keyIndex >= 0, keyIndex < keyNames.count else { return nil }
    for valueIndex in record.valueRange where valueRecords[valueIndex].keyIndex == wanted {
      return valueIndex
    }
    return nil
  }

  /// The values-table index of the first entry of an object with the given key (rule NIBA-031).
  /// - Parameters:
  ///   - key: the key name.
  ///   - objectIndex: an object index below ``objectCount``.
  /// - Returns: the first matching entry in stored order, or `nil`.
  public func valueIndex(forKey key: String, inObject objectIndex: Int) -> Int? {
    guard let keyIndex = keyIndexByName[key] else {
      _ = objectRecord(objectIndex)  // still validate the index: a bad index is a programming error
      return nil
    }
    return valueIndex(forKeyIndex: keyIndex, inObject: objectIndex)
  }

  /// The value of the first entry of an object with the given key.
  /// - Parameters:
  ///   - key: the key name.
  ///   - objectIndex: an object index below ``objectCount``.
  /// - Returns: the value, or `nil` when the object has no such key.
  public func value(forKey key: String, inObject objectIndex: Int) -> NIBArchiveValue? {
    valueIndex(forKey: key, inObject: objectIndex).map { makeValue(valueRecords[$0]) }
  }

  // MARK: Typed values (rule NIBA-019)

  /// An integer value, with the coercions of ``NIBArchiveValue/integerValue``.
  /// - Parameters:
  ///   - key: the key name.
  ///   - objectIndex: an object index below ``objectCount``.
  /// - Returns: the integer, or `nil` when the key is missing or holds another type.
  public func integer(forKey key: String, inObject objectIndex: Int) -> Int64? {
    record(forKey: key, inObject: objectIndex).flatMap { makeValue($0).integerValue }
  }

  /// A Boolean value, with the coercions of ``NIBArchiveValue/boolValue``.
  /// - Parameters:
  ///   - key: the key name.
  ///   - objectIndex: an object index below ``objectCount``.
  /// - Returns: the Boolean, or `nil` when the key is missing or holds another type.
  public func bool(forKey key: String, inObject objectIndex: Int) -> Bool? {
    record(forKey: key, inObject: objectIndex).flatMap { makeValue($0).boolValue }
  }

  /// A floating-point value (float32 or float64 only), as ``NIBArchiveValue/floatingPointValue``.
  /// - Parameters:
  ///   - key: the key name.
  ///   - objectIndex: an object index below ``objectCount``.
  /// - Returns: the number, or `nil` when the key is missing or holds another type.
  public func double(forKey key: String, inObject objectIndex: Int) -> Double? {
    record(forKey: key, inObject: objectIndex).flatMap { makeValue($0).floatingPointValue }
  }

  /// The bytes of a data value.
  /// - Parameters:
  ///   - key: the key name.
  ///   - objectIndex: an object index below ``objectCount``.
  /// - Returns: a copy of the bytes, or `nil` when the key is missing or holds another type.
  public func data(forKey key: String, inObject objectIndex: Int) -> Data? {
    guard let record = record(forKey: key, inObject: objectIndex), record.type == .data else { return nil }
    return Data(storage[dataRange(record)])
  }

  /// The object an entry refers to.
  /// - Parameters:
  ///   - key: the key name.
  ///   - objectIndex: an object index below ``objectCount``.
  /// - Returns: the referenced object's index, or `nil` when the key is missing or holds another type (nil included).
  public func objectReference(forKey key: String, inObject objectIndex: Int) -> Int? {
    guard let record = record(forKey: key, inObject: objectIndex), record.type == .objectReference else {
      return nil
    }
    return Int(record.payload)
  }

  // MARK: Strings (rule NIBA-021)

  /// The text of a string object: its `NS.bytes` data value decoded as UTF-8.
  ///
  /// `NSString`, `NSMutableString` and `NSLocalizableString` store their text this way; the class is not checked,
  /// so a custom string subclass reads the same.
  /// - Parameter objectIndex: an object index below ``objectCount``.
  /// - Returns: the text, or `nil` when the object has no `NS.bytes` data value or its bytes are not UTF-8.
  public func string(ofObject objectIndex: Int) -> String? {
    guard let record = record(forKey: NIBArchiveWireNames.bytesKey, inObject: objectIndex), record.type == .data
    else { return nil }
    return storage.withUnsafeBytes { buffer in
      String(validating: UnsafeRawBufferPointer(rebasing: buffer[dataRange(record)]), as: UTF8.self)
    }
  }

  /// The text of the string object an entry refers to.
  /// - Parameters:
  ///   - key: the key name.
  ///   - objectIndex: an object index below ``objectCount``.
  /// - Returns: the text as ``string(ofObject:)``, or `nil` when the key is missing, is not an object reference or
  ///   refers to an object without text.
  public func string(forKey key: String, inObject objectIndex: Int) -> String? {
    objectReference(forKey: key, inObject: objectIndex).flatMap { string(ofObject: $0) }
  }

  // MARK: Geometry (rule NIBA-023)

  /// The numbers of a UIKit geometry data value: a type byte (`0x06` float32 or `0x07` float64) then the elements.
  ///
  /// CGPoint and CGSize have 2 elements, CGRect and UIEdgeInsets 4, CGAffineTransform 6.
  /// - Parameters:
  ///   - key: the key name.
  ///   - objectIndex: an object index below ``objectCount``.
  /// - Returns: the elements widened to Double, or `nil` when the key is missing, is not data, has an unknown type
  ///   byte, or a length that is not 1 plus a whole number of elements.
  public func geometry(forKey key: String, inObject objectIndex: Int) -> [Double]? {
    guard let record = record(forKey: key, inObject: objectIndex), record.type == .data, record.length >= 1 else {
      return nil
    }
    let range = dataRange(record)
    let elementSize: Int
    switch storage[range.lowerBound] {
    case NIBArchiveWireNames.geometryFloat32Prefix: elementSize = 4
    case NIBArchiveWireNames.geometryFloat64Prefix: elementSize = 8
    default: return nil
    }
    let payloadCount = range.count - 1
    guard payloadCount % elementSize == 0 else { return nil }
    return storage.withUnsafeBytes { buffer in
      stride(from: range.lowerBound + 1, to: range.upperBound, by: elementSize).map { offset in
        if elementSize == 4 {
          Double(Float(bitPattern: UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt32.self))))
        } else {
          Double(bitPattern: UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
        }
      }
    }
  }

  // MARK: Inlined collections (rule NIBA-022)

  /// The elements of an inlined collection object (`NSArray`, `NSSet`, their mutable kinds; for dictionaries the keys
  /// and values alternate).
  /// - Parameter objectIndex: an object index below ``objectCount``.
  /// - Returns: the referenced objects' indices, in stored order.
  /// - Throws: `ArchiveError` `.typeMismatch` when the object's first entry is not `NSInlinedValue`, or when an element
  ///   is not an object reference (a nil element included).
  public func collectionElements(ofObject objectIndex: Int) throws(ArchiveError) -> [Int] {
    let range = objectRecord(objectIndex).valueRange
    guard let first = range.first,
      keyNames[Int(valueRecords[first].keyIndex)] == NIBArchiveWireNames.inlinedValueKey
    else {
      let found = range.first.map { "first key \"\(keyNames[Int(valueRecords[$0].keyIndex)])\"" } ?? "no entries"
      throw typeMismatch(
        "expected an inlined collection (first entry \"\(NIBArchiveWireNames.inlinedValueKey)\"), found \(found)",
        objectIndex: objectIndex, keyPath: nil)
    }
    var elements: [Int] = []
    elements.reserveCapacity(range.count - 1)
    for (position, valueIndex) in range.dropFirst().enumerated() {
      let record = valueRecords[valueIndex]
      guard record.type == .objectReference else {
        throw typeMismatch(
          "element \(position): expected an object reference, found \(record.type)", objectIndex: objectIndex,
          keyPath: keyNames[Int(record.keyIndex)])
      }
      elements.append(Int(record.payload))
    }
    return elements
  }

  // MARK: Internal

  func record(forKey key: String, inObject objectIndex: Int) -> NIBArchiveValueRecord? {
    valueIndex(forKey: key, inObject: objectIndex).map { valueRecords[$0] }
  }

  /// A `.typeMismatch` error located at an object.
  func typeMismatch(_ message: String, objectIndex: Int, keyPath: String?) -> ArchiveError {
    ArchiveError(
      .typeMismatch, message,
      at: .init(objectIndex: objectIndex, className: className(ofObject: objectIndex), keyPath: keyPath))
  }
}
