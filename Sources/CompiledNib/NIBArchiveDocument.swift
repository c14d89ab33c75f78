import ArchiveCoding
import Foundation

/// A parsed, fully validated NIBArchive: Apple's compiled nib format written by ibtool for iOS 6+ and macOS 10.13+.
///
/// Parsing checks every table, count, offset, index and varint once (rules NIBA-001 to NIBA-018); afterwards every
/// accessor is a bounds-safe lookup into compact tables. Strings and data of values are read from the retained input
/// bytes only when asked for.
///
///     let document = try NIBArchiveDocument(data: bytes)
///     let root = document.rootObjectIndex                    // object 0
///     let nib = try document.nibStructure()                  // top-level objects, connections
///     let label = document.string(forKey: "UILabel", inObject: nib.connections[0].objectIndex)
///
/// Object indices passed to accessors must be below ``objectCount``; a bad index is a programming error and traps.
public struct NIBArchiveDocument: Sendable {
  /// The input, kept for data values and strings read on demand.
  let storage: [UInt8]
  let classRecords: [NIBArchiveClass]
  let keyNames: [String]
  let keyIndexByName: [String: Int]
  let objectRecords: [NIBArchiveObjectRecord]
  let valueRecords: [NIBArchiveValueRecord]

  /// The fixed header.
  public let header: NIBArchiveHeader
  /// One past the last byte of the table that ends furthest into the input.
  public let endOfTables: Int

  /// Parses NIBArchive bytes.
  /// - Parameters:
  ///   - bytes: the whole file.
  ///   - options: limits on the input's size and table counts.
  /// - Throws: `ArchiveError` with code `.corruptData` for malformed bytes, `.unsupportedFormat` for a format version
  ///   above 1, `.limitExceeded` when the input goes over one of `options`' limits; its location has the byte offset
  ///   and, for object and value records, the object index.
  public init(bytes: [UInt8], options: NIBArchiveDecodingOptions = NIBArchiveDecodingOptions()) throws(ArchiveError) {
    let result: Result<NIBArchiveTables, ArchiveError> = bytes.withUnsafeBytes { buffer in
      Result { () throws(ArchiveError) in try NIBArchiveReader.read(buffer, options: options) }
    }
    let tables = try result.get()
    storage = bytes
    header = tables.header
    classRecords = tables.classes
    keyNames = tables.keys
    keyIndexByName = tables.keyIndexByName
    objectRecords = tables.objects
    valueRecords = tables.values
    endOfTables = tables.endOfTables
  }

  /// Parses NIBArchive bytes held in a `Data`.
  /// - Parameters:
  ///   - data: the whole file.
  ///   - options: limits on the input's size and table counts.
  /// - Throws: `ArchiveError`, as ``init(bytes:options:)``.
  public init(data: Data, options: NIBArchiveDecodingOptions = NIBArchiveDecodingOptions()) throws(ArchiveError) {
    // Check the size before copying, so an oversized input is refused without touching it.
    guard data.count <= options.maxTotalBytes else {
      throw .nibArchive(
        .limitExceeded,
        "the input has \(data.count) bytes, more than the limit of \(options.maxTotalBytes)"
          + " (NIBArchiveDecodingOptions.maxTotalBytes)",
        byteOffset: 0)
    }
    try self.init(bytes: [UInt8](data), options: options)
  }

  /// Reads and parses a NIBArchive file, or the member a `.nib` directory selects (rule NIBA-028).
  /// - Parameters:
  ///   - url: a NIBArchive file or a `.nib` directory.
  ///   - options: limits on the input's size and table counts.
  /// - Throws: `ArchiveError` as ``init(bytes:options:)``, with the file's path in its location; `.fileIO` when the
  ///   file cannot be read; `.unsupportedFormat` when the file (or the selected member) is another kind of nib.
  public init(
    contentsOf url: URL, options: NIBArchiveDecodingOptions = NIBArchiveDecodingOptions()
  ) throws(ArchiveError) {
    var fileURL = url
    if CompiledNibDirectory.isDirectory(at: url) {
      let directory = try CompiledNibDirectory(contentsOf: url)
      guard let member = directory.preferredMemberURL() else {
        throw ArchiveError(
          .unsupportedFormat,
          "expected a .nib directory with a runtime.nib, objects-*.nib or keyedobjects*.nib member, found"
            + " \(directory.memberNames)",
          at: .init(file: url.path))
      }
      fileURL = member
    }
    let data = try CompiledNibFileReading.read(fileURL, maxBytes: options.maxTotalBytes)
    let format = CompiledNibFileFormat(sniffing: data)
    guard format == .nibArchive else {
      throw ArchiveError(
        .unsupportedFormat, "expected a NIBArchive file, found \(format)", at: .init(file: fileURL.path, byteOffset: 0)
      )
    }
    do throws(ArchiveError) {
      try self.init(data: data, options: options)
    } catch {
      throw error.located(in: .init(file: fileURL.path))
    }
  }

  // MARK: Tables

  /// The number of objects.
  public var objectCount: Int { objectRecords.count }
  /// The number of entries of the keys table (repeated names included).
  public var keyCount: Int { keyNames.count }
  /// The number of entries of the values table.
  public var valueCount: Int { valueRecords.count }
  /// The number of entries of the class-name table.
  public var classNameCount: Int { classRecords.count }
  /// The size of the input in bytes.
  public var byteCount: Int { storage.count }
  /// The number of bytes after the last table, ignored by the reader (rule NIBA-016).
  public var trailingByteCount: Int { storage.count - endOfTables }
  /// The class-name table, in stored order.
  public var classes: [NIBArchiveClass] { classRecords }
  /// The keys table, in stored order.
  public var keys: [String] { keyNames }

  /// The root object's index: 0, the object holding the nib's top-level keys, or `nil` in an archive without objects
  /// (rule NIBA-020).
  public var rootObjectIndex: Int? { objectRecords.isEmpty ? nil : 0 }

  /// The objects-table record of an object.
  /// - Parameter index: an object index below ``objectCount``.
  /// - Returns: the object's class index and value range.
  public func object(at index: Int) -> NIBArchiveObject {
    let record = objectRecord(index)
    return NIBArchiveObject(index: index, classIndex: Int(record.classIndex), valueRange: record.valueRange)
  }

  /// The class name of an object.
  /// - Parameter objectIndex: an object index below ``objectCount``.
  /// - Returns: the name from the class-name table, without fallbacks.
  public func className(ofObject objectIndex: Int) -> String {
    classRecords[Int(objectRecord(objectIndex).classIndex)].name
  }

  /// The class name of an object followed by its fallback class names, in the order a loader tries them.
  /// - Parameter objectIndex: an object index below ``objectCount``.
  /// - Returns: at least one name.
  public func classNameChain(ofObject objectIndex: Int) -> [String] {
    let entry = classRecords[Int(objectRecord(objectIndex).classIndex)]
    return [entry.name] + entry.fallbackIndices.map { classRecords[$0].name }
  }

  /// The number of (key, value) entries of an object.
  /// - Parameter objectIndex: an object index below ``objectCount``.
  /// - Returns: the length of the object's slice of the values table.
  public func entryCount(ofObject objectIndex: Int) -> Int {
    Int(objectRecord(objectIndex).valueCount)
  }

  /// The (key, value) entries of an object, in stored order; keys may repeat (inlined collections, NIBA-022).
  /// - Parameter objectIndex: an object index below ``objectCount``.
  /// - Returns: the entries, with data values copied out.
  public func entries(ofObject objectIndex: Int) -> [NIBArchiveEntry] {
    objectRecord(objectIndex).valueRange.map { valueIndex in
      let record = valueRecords[valueIndex]
      return NIBArchiveEntry(
        valueIndex: valueIndex, keyIndex: Int(record.keyIndex), key: keyNames[Int(record.keyIndex)],
        value: makeValue(record))
    }
  }

  /// The key of an entry of the values table.
  /// - Parameter valueIndex: an index below ``valueCount``.
  /// - Returns: the key's name.
  public func key(ofValueAt valueIndex: Int) -> String {
    precondition(valueIndex >= 0 && valueIndex < valueRecords.count, "value index \(valueIndex) out of range")
    return keyNames[Int(valueRecords[valueIndex].keyIndex)]
  }

  /// The value of an entry of the values table.
  /// - Parameter valueIndex: an index below ``valueCount``.
  /// - Returns: the decoded value (data copied out).
  public func value(at valueIndex: Int) -> NIBArchiveValue {
    precondition(valueIndex >= 0 && valueIndex < valueRecords.count, "value index \(valueIndex) out of range")
    return makeValue(valueRecords[valueIndex])
  }

  // MARK: Internal helpers

  func objectRecord(_ index: Int) -> NIBArchiveObjectRecord {
    precondition(index >= 0 && index < objectRecords.count, "object index \(index) out of range 0..<\(objectCount)")
    return objectRecords[index]
  }

  func makeValue(_ record: NIBArchiveValueRecord) -> NIBArchiveValue {
    switch record.type {
    case .int8: .int8(Int8(truncatingIfNeeded: Int64(bitPattern: record.payload)))
    case .int16: .int16(Int16(truncatingIfNeeded: Int64(bitPattern: record.payload)))
    case .int32: .int32(Int32(truncatingIfNeeded: Int64(bitPattern: record.payload)))
    case .int64: .int64(Int64(bitPattern: record.payload))
    case .boolFalse: .bool(false)
    case .boolTrue: .bool(true)
    case .float32: .float(Float(bitPattern: UInt32(truncatingIfNeeded: record.payload)))
    case .float64: .double(Double(bitPattern: record.payload))
    case .data: .data(Data(storage[dataRange(record)]))
    case .null: .null
    case .objectReference: .object(Int(record.payload))
    }
  }

  /// The byte range of a data value's bytes in ``storage``.
  func dataRange(_ record: NIBArchiveValueRecord) -> Range<Int> {
    Int(record.payload)..<(Int(record.payload) + Int(record.length))
  }
}
