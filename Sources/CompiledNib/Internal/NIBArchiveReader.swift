import ArchiveCoding

/// The validating scanner of NIBArchive bytes (rules NIBA-001 to NIBA-018).
///
/// It walks the four tables once with index arithmetic over a raw buffer, checking every count, offset, index and
/// varint against the buffer's size before using it, and produces compact records; nothing is allocated per byte and
/// no array is reserved before the file has been shown to have room for that many records.
struct NIBArchiveReader {
  let bytes: UnsafeRawBufferPointer
  let options: NIBArchiveDecodingOptions

  /// The buffer's size.
  var size: Int { bytes.count }

  /// Reads and validates a whole archive.
  static func read(
    _ bytes: UnsafeRawBufferPointer, options: NIBArchiveDecodingOptions
  ) throws(ArchiveError) -> NIBArchiveTables {
    let reader = NIBArchiveReader(bytes: bytes, options: options)
    let header = try reader.readHeader()
    var endOfTables = NIBArchiveWireNames.headerSize
    let (classes, classesEnd) = try reader.readClasses(header)
    let (keys, canonicalKeys, keyIndexByName, keysEnd) = try reader.readKeys(header)
    let (objects, objectsEnd) = try reader.readObjects(header)
    let (values, valuesEnd) = try reader.readValues(
      header, canonicalKeys: canonicalKeys, objects: objects, classes: classes)
    endOfTables = max(endOfTables, classesEnd, keysEnd, objectsEnd, valuesEnd)
    return NIBArchiveTables(
      header: header, classes: classes, keys: keys, keyIndexByName: keyIndexByName, objects: objects,
      values: values, endOfTables: endOfTables)
  }

  // MARK: Primitive reads (callers have checked the bounds)

  func u32(at offset: Int) -> UInt32 {
    UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
  }

  func u16(at offset: Int) -> UInt16 {
    UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
  }

  func u64(at offset: Int) -> UInt64 {
    UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
  }

  /// Reads a varint (NIBA-005) at `position` and advances past it.
  /// - Parameter what: names the field for the error message; evaluated only on failure.
  func readVarint(
    _ position: inout Int, _ what: @autoclosure () -> String, objectIndex: Int? = nil
  ) throws(ArchiveError) -> Int {
    let start = position
    var result: UInt64 = 0
    var shift: UInt64 = 0
    var cursor = start
    for _ in 0..<NIBArchiveWireNames.maximumVarintLength {
      // The varint may not run past the end of the input.
      guard cursor < size else {
        throw .nibArchive(
          .corruptData,
          "\(what()): the varint runs past the end of the file (\(cursor - start) bytes read without a last byte;"
            + " expected a byte with the high bit set before byte \(size))",
          byteOffset: start, objectIndex: objectIndex)
      }
      let byte = bytes[cursor]
      cursor += 1
      result |= UInt64(byte & 0x7F) << shift
      if byte & 0x80 != 0 {
        // Apple's reader holds 32-bit values; five 7-bit groups can encode 35 bits.
        guard result <= UInt64(UInt32.max) else {
          throw .nibArchive(
            .corruptData, "\(what()): the varint encodes \(result), more than the 32-bit maximum \(UInt32.max)",
            byteOffset: start, objectIndex: objectIndex)
        }
        position = cursor
        return Int(result)
      }
      shift += 7
    }
    throw .nibArchive(
      .corruptData,
      "\(what()): the varint is longer than \(NIBArchiveWireNames.maximumVarintLength) bytes (no byte with the high"
        + " bit set among the first \(NIBArchiveWireNames.maximumVarintLength))",
      byteOffset: start, objectIndex: objectIndex)
  }

  // MARK: Header

  func readHeader() throws(ArchiveError) -> NIBArchiveHeader {
    // The input must not exceed the caller's size limit.
    guard size <= options.maxTotalBytes else {
      throw .nibArchive(
        .limitExceeded,
        "the input has \(size) bytes, more than the limit of \(options.maxTotalBytes)"
          + " (NIBArchiveDecodingOptions.maxTotalBytes)",
        byteOffset: 0)
    }
    let magic = NIBArchiveWireNames.magic
    let available = min(size, magic.count)
    // The magic identifies the format; compare what is there before complaining about length.
    for index in 0..<available where bytes[index] != magic[index] {
      let found = (0..<available).map { hexByte(bytes[$0]) }.joined(separator: " ")
      throw .nibArchive(
        .corruptData, "expected the magic \"NIBArchive\" at the start, found \(found)", byteOffset: index)
    }
    // The fixed header must be complete.
    guard size >= NIBArchiveWireNames.headerSize else {
      throw .nibArchive(
        .corruptData,
        "expected a \(NIBArchiveWireNames.headerSize)-byte header, found a file of \(size) bytes",
        byteOffset: size)
    }
    let header = NIBArchiveHeader(
      formatVersion: Int(u32(at: 10)), coderVersion: Int(u32(at: 14)),
      objectCount: Int(u32(at: 18)), objectsOffset: Int(u32(at: 22)),
      keyCount: Int(u32(at: 26)), keysOffset: Int(u32(at: 30)),
      valueCount: Int(u32(at: 34)), valuesOffset: Int(u32(at: 38)),
      classNameCount: Int(u32(at: 42)), classNamesOffset: Int(u32(at: 46)))
    // Apple's decoder rejects newer formats ("NIB data is too new").
    guard header.formatVersion <= Int(NIBArchiveWireNames.highestFormatVersion) else {
      throw .nibArchive(
        .unsupportedFormat,
        "expected format version \(NIBArchiveWireNames.highestFormatVersion) or lower, found"
          + " \(header.formatVersion)",
        byteOffset: 10)
    }
    try checkTable(
      "objects", count: header.objectCount, countField: 18, offset: header.objectsOffset, minimumRecordSize: 3,
      limit: options.maxObjects, limitName: "maxObjects")
    try checkTable(
      "keys", count: header.keyCount, countField: 26, offset: header.keysOffset, minimumRecordSize: 1,
      limit: options.maxKeys, limitName: "maxKeys")
    try checkTable(
      "values", count: header.valueCount, countField: 34, offset: header.valuesOffset, minimumRecordSize: 2,
      limit: options.maxValues, limitName: "maxValues")
    try checkTable(
      "class names", count: header.classNameCount, countField: 42, offset: header.classNamesOffset,
      minimumRecordSize: 3, limit: options.maxClassNames, limitName: "maxClassNames")
    return header
  }

  /// Checks a table's count against the limit and against the bytes the file has room for (NIBA-006, NIBA-007).
  func checkTable(
    _ name: String, count: Int, countField: Int, offset: Int, minimumRecordSize: Int, limit: Int, limitName: String
  ) throws(ArchiveError) {
    // The caller's ceiling comes first: an absurd count is a limit, whatever the file size.
    guard count <= limit else {
      throw .nibArchive(
        .limitExceeded,
        "the header declares \(count) \(name), more than the limit of \(limit)"
          + " (NIBArchiveDecodingOptions.\(limitName))",
        byteOffset: countField)
    }
    // The offset field follows the count field.
    guard offset <= size else {
      throw .nibArchive(
        .corruptData, "the \(name) table offset is \(offset), past the end of the \(size)-byte file",
        byteOffset: countField + 4)
    }
    guard count > 0 else { return }
    // A non-empty table cannot overlap the fixed header.
    guard offset >= NIBArchiveWireNames.headerSize else {
      throw .nibArchive(
        .corruptData,
        "the \(name) table offset is \(offset), inside the \(NIBArchiveWireNames.headerSize)-byte header",
        byteOffset: countField + 4)
    }
    // Every record takes at least `minimumRecordSize` bytes, so the count is bounded by the bytes that follow.
    let (needed, overflow) = count.multipliedReportingOverflow(by: minimumRecordSize)
    guard !overflow, needed <= size - offset else {
      throw .nibArchive(
        .corruptData,
        "the header declares \(count) \(name), which need at least \(minimumRecordSize) bytes each, but only"
          + " \(size - offset) bytes follow the table offset \(offset)",
        byteOffset: countField)
    }
  }

  // MARK: Class names

  func readClasses(_ header: NIBArchiveHeader) throws(ArchiveError) -> ([NIBArchiveClass], Int) {
    let count = header.classNameCount
    var classes: [NIBArchiveClass] = []
    classes.reserveCapacity(count)  // bounded by checkTable
    var position = header.classNamesOffset
    for classIndex in 0..<count {
      let nameLength = try readVarint(&position, "class name #\(classIndex): name length")
      let fallbackCount = try readVarint(&position, "class name #\(classIndex): fallback count")
      // Each fallback is a 4-byte index; the count may not promise more than the file holds.
      guard fallbackCount <= (size - position) / 4 else {
        throw .nibArchive(
          .corruptData,
          "class name #\(classIndex): expected \(fallbackCount) fallback indices of 4 bytes, but only"
            + " \(size - position) bytes remain",
          byteOffset: position)
      }
      var fallbacks: [Int] = []
      if fallbackCount > 0 {
        fallbacks.reserveCapacity(fallbackCount)
        for _ in 0..<fallbackCount {
          let fallback = Int(u32(at: position))
          // A fallback names another entry of this table.
          guard fallback < count else {
            throw .nibArchive(
              .corruptData,
              "class name #\(classIndex): fallback index \(fallback) is out of range (the class-name table has"
                + " \(count) entries)",
              byteOffset: position)
          }
          fallbacks.append(fallback)
          position += 4
        }
      }
      // The length counts the terminating NUL, so a real name needs at least 2 bytes.
      guard nameLength >= 2 else {
        throw .nibArchive(
          .corruptData,
          "class name #\(classIndex): expected a name length of at least 2 (a name and its NUL), found"
            + " \(nameLength)",
          byteOffset: position)
      }
      guard nameLength <= size - position else {
        throw .nibArchive(
          .corruptData,
          "class name #\(classIndex): expected \(nameLength) name bytes, but only \(size - position) bytes remain",
          byteOffset: position)
      }
      let nameEnd = position + nameLength - 1
      // Apple rejects a name whose last byte is not NUL.
      guard bytes[nameEnd] == 0 else {
        throw .nibArchive(
          .corruptData,
          "class name #\(classIndex): expected the name to end with a NUL byte, found \(hexByte(bytes[nameEnd]))",
          byteOffset: nameEnd)
      }
      let name = try utf8String(
        from: position, to: nameEnd, what: "class name #\(classIndex)", rejectingNUL: true)
      classes.append(NIBArchiveClass(name: name, fallbackIndices: fallbacks))
      position = nameEnd + 1
    }
    return (classes, position)
  }

  /// Decodes `bytes[start..<end]` as UTF-8, rejecting invalid sequences (and NUL bytes when asked).
  func utf8String(
    from start: Int, to end: Int, what: @autoclosure () -> String, rejectingNUL: Bool
  ) throws(ArchiveError) -> String {
    let slice = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
    if rejectingNUL, let nul = slice.firstIndex(of: 0) {
      throw .nibArchive(
        .corruptData, "\(what()): expected no NUL byte inside the name, found one", byteOffset: start + nul)
    }
    guard let string = decodeUTF8(slice) else {
      throw .nibArchive(.corruptData, "\(what()): expected UTF-8, found invalid bytes", byteOffset: start)
    }
    return string
  }

  /// Decodes UTF-8, taking the specialised exact path for ASCII (nearly every key and class name).
  func decodeUTF8(_ slice: UnsafeRawBufferPointer) -> String? {
    var bits: UInt8 = 0
    for byte in slice { bits |= byte }
    if bits < 0x80 { return String(decoding: slice, as: UTF8.self) }
    return String(validating: slice, as: UTF8.self)
  }

  // MARK: Keys

  func readKeys(
    _ header: NIBArchiveHeader
  ) throws(ArchiveError) -> ([String], [UInt32], [String: Int], Int) {
    let count = header.keyCount
    var keys: [String] = []
    var canonical: [UInt32] = []
    var indexByName: [String: Int] = [:]
    keys.reserveCapacity(count)  // bounded by checkTable
    canonical.reserveCapacity(count)
    indexByName.reserveCapacity(count)
    var position = header.keysOffset
    for keyIndex in 0..<count {
      let length = try readVarint(&position, "key #\(keyIndex): length")
      guard length <= size - position else {
        throw .nibArchive(
          .corruptData,
          "key #\(keyIndex): expected \(length) name bytes, but only \(size - position) bytes remain",
          byteOffset: position)
      }
      let name = try utf8String(
        from: position, to: position + length, what: "key #\(keyIndex)", rejectingNUL: false)
      position += length
      keys.append(name)
      // Repeated names are merged onto their first occurrence so that a lookup by name finds every entry.
      if let first = indexByName[name] {
        canonical.append(UInt32(truncatingIfNeeded: first))
      } else {
        indexByName[name] = keyIndex
        canonical.append(UInt32(truncatingIfNeeded: keyIndex))
      }
    }
    return (keys, canonical, indexByName, position)
  }

  // MARK: Objects

  func readObjects(_ header: NIBArchiveHeader) throws(ArchiveError) -> ([NIBArchiveObjectRecord], Int) {
    let count = header.objectCount
    var objects: [NIBArchiveObjectRecord] = []
    objects.reserveCapacity(count)  // bounded by checkTable
    var position = header.objectsOffset
    var claimedValues = 0
    for objectIndex in 0..<count {
      let classStart = position
      let classIndex = try readVarint(&position, "class index", objectIndex: objectIndex)
      // The class index names an entry of the class-name table.
      guard classIndex < header.classNameCount else {
        throw .nibArchive(
          .corruptData,
          "expected a class index below \(header.classNameCount) (the class-name table's size), found \(classIndex)",
          byteOffset: classStart, objectIndex: objectIndex)
      }
      let valuesStart = position
      let firstValue = try readVarint(&position, "first value", objectIndex: objectIndex)
      let valueCount = try readVarint(&position, "value count", objectIndex: objectIndex)
      // The object's slice must lie inside the values table.
      let (end, endOverflow) = firstValue.addingReportingOverflow(valueCount)
      guard !endOverflow, end <= header.valueCount else {
        throw .nibArchive(
          .corruptData,
          "expected values inside the values table (\(header.valueCount) entries), found first value"
            + " \(firstValue) with \(valueCount) values",
          byteOffset: valuesStart, objectIndex: objectIndex)
      }
      // Slices do not overlap, so all objects together own at most the whole table; this bounds decoding work.
      let (claimed, claimedOverflow) = claimedValues.addingReportingOverflow(valueCount)
      guard !claimedOverflow, claimed <= header.valueCount else {
        throw .nibArchive(
          .corruptData,
          "expected the objects to own at most the \(header.valueCount) values of the table, found \(claimed)"
            + " values claimed by objects #0...#\(objectIndex)",
          byteOffset: valuesStart, objectIndex: objectIndex)
      }
      claimedValues = claimed
      objects.append(
        NIBArchiveObjectRecord(
          classIndex: UInt32(truncatingIfNeeded: classIndex), firstValue: UInt32(truncatingIfNeeded: firstValue),
          valueCount: UInt32(truncatingIfNeeded: valueCount)))
    }
    return (objects, position)
  }

  // MARK: Values

  func readValues(
    _ header: NIBArchiveHeader, canonicalKeys: [UInt32], objects: [NIBArchiveObjectRecord],
    classes: [NIBArchiveClass]
  ) throws(ArchiveError) -> ([NIBArchiveValueRecord], Int) {
    let count = header.valueCount
    var values: [NIBArchiveValueRecord] = []
    values.reserveCapacity(count)  // bounded by checkTable
    var position = header.valuesOffset

    /// Builds an error located at the object owning `valueIndex` (searched only when an error is thrown).
    func failure(_ message: String, valueIndex: Int, at offset: Int) -> ArchiveError {
      let owner = objects.firstIndex { $0.valueCount > 0 && $0.valueRange.contains(valueIndex) }
      let className = owner.map { classes[Int(objects[$0].classIndex)].name }
      return .nibArchive(
        .corruptData, "value #\(valueIndex): \(message)", byteOffset: offset, objectIndex: owner,
        className: className)
    }

    for valueIndex in 0..<count {
      let keyStart = position
      let rawKey: Int
      do throws(ArchiveError) {
        rawKey = try readVarint(&position, "key index")
      } catch {
        throw failure(error.message, valueIndex: valueIndex, at: keyStart)
      }
      // The key index names an entry of the keys table.
      guard rawKey < header.keyCount else {
        throw failure(
          "expected a key index below \(header.keyCount) (the keys table's size), found \(rawKey)",
          valueIndex: valueIndex, at: keyStart)
      }
      guard position < size else {
        throw failure("expected a type byte, found the end of the file", valueIndex: valueIndex, at: position)
      }
      let code = bytes[position]
      guard let type = NIBArchiveValueType(rawValue: code) else {
        throw failure(
          "expected a value type code from 0 to 10, found \(code)", valueIndex: valueIndex, at: position)
      }
      position += 1
      var payload: UInt64 = 0
      var length: UInt32 = 0
      if let payloadSize = type.fixedPayloadSize {
        // The fixed-size payload must be inside the file.
        guard payloadSize <= size - position else {
          throw failure(
            "expected \(payloadSize) payload bytes for a \(type) value, but only \(size - position) bytes remain",
            valueIndex: valueIndex, at: position)
        }
        switch type {
        case .int8: payload = UInt64(bitPattern: Int64(Int8(bitPattern: bytes[position])))
        case .int16: payload = UInt64(bitPattern: Int64(Int16(bitPattern: u16(at: position))))
        case .int32: payload = UInt64(bitPattern: Int64(Int32(bitPattern: u32(at: position))))
        case .int64, .float64: payload = u64(at: position)
        case .float32: payload = UInt64(u32(at: position))
        case .objectReference:
          let target = Int(u32(at: position))
          // A reference names an entry of the objects table.
          guard target < header.objectCount else {
            throw failure(
              "expected an object reference below \(header.objectCount) (the objects table's size), found \(target)",
              valueIndex: valueIndex, at: position)
          }
          payload = UInt64(target)
        case .boolFalse, .boolTrue, .null, .data: break
        }
        position += payloadSize
      } else {
        let lengthStart = position
        let dataLength: Int
        do throws(ArchiveError) {
          dataLength = try readVarint(&position, "data length")
        } catch {
          throw failure(error.message, valueIndex: valueIndex, at: lengthStart)
        }
        // The data bytes must be inside the file.
        guard dataLength <= size - position else {
          throw failure(
            "expected \(dataLength) data bytes, but only \(size - position) bytes remain", valueIndex: valueIndex,
            at: position)
        }
        payload = UInt64(position)
        length = UInt32(truncatingIfNeeded: dataLength)
        position += dataLength
      }
      values.append(
        NIBArchiveValueRecord(payload: payload, keyIndex: canonicalKeys[rawKey], length: length, type: type))
    }
    return (values, position)
  }
}
