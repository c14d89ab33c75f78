import ArchiveCoding
import Foundation
import PropertyList

extension ArchiveIndex {
  /// The one pass that builds an index: every `$objects` entry in order, its header read once; each key list (with
  /// its keys) and each class description read the first time an entry names it.
  ///
  /// The tables below map what the archive names (key lists, description UIDs) to their numbers. They grow at most
  /// once per entry, and a key list is read once, so a hostile archive costs time and memory linear in its size.
  struct Builder {
    let reader: BinaryPropertyListReader
    let objects: Header
    let options: KeyedUnarchiverOptions

    private(set) var entries: [Entry] = []
    private(set) var classes: [ClassRecord] = []
    private(set) var layouts: [Layout] = []
    private(set) var layoutKeys: [Key] = []

    /// Layouts by a hash of their key list's bytes (the key objects' numbers as stored), from the second layout on
    /// (the first is the dictionary before's, or no dictionary's); lists whose hash another list has are found in
    /// `collidingLayouts`.
    private var layoutNumbers = IdentityTable(initialBits: 3)
    private var collidingLayouts: [[UInt8]: Int] = [:]
    /// Where the bytes of each layout's key list are, in the first dictionary that has it, and how many
    /// dictionaries have it.
    private var layoutUses: [(bytes: Range<Int>, count: Int)] = []

    /// Class slots by description UID, from the second description on (the first is the object before's).
    private var classSlots = IdentityTable(initialBits: 3)
    /// Class slots by the identity of a description read, and the `$classes` and `$classhints` lists already read
    /// by property-list object (ARC-043), once more than ``linearClassCount`` classes are described; until then both
    /// are found by looking through ``classes``, which costs less than a hashed table for the few classes of most
    /// archives.
    private var slotsByIdentity: [ClassIdentity: Int]?
    private var nameLists: [Int: [String]]?
    private static let linearClassCount = 8
    /// The layout and the class of the last object indexed.
    private var lastLayout = -1
    private var lastClass = (uid: -1, slot: -1)

    init(reader: BinaryPropertyListReader, objects: Header, options: KeyedUnarchiverOptions) {
      self.reader = reader
      self.objects = objects
      self.options = options
      // The plain classes, and room for a few described ones.
      classes.reserveCapacity(PlainClass.allCases.count + 4)
      for _ in PlainClass.allCases { classes.append(ClassRecord(descriptionUID: -1, description: nil)) }
    }

    /// What makes two class descriptions one class: the name and the property-list objects of the two lists.
    private struct ClassIdentity: Hashable {
      var name: String
      var classesList: Int
      var hintsList: Int
    }

    /// Reads every entry, then the keys of the layouts that several objects share.
    mutating func indexEntries() {
      // Bounded by the container check (`maxObjectCount`) and by the entries' bytes. `map` fills the array in
      // place, without the uniqueness and capacity checks of an append per entry.
      entries = (0..<objects.count).map { entry($0) }
      readSharedKeys()
    }

    /// Reads the keys of every layout that two or more objects have, as strings (``Layout/first``): comparing a key
    /// asked for with a string costs less than reading the stored key's bytes, once an object past the first pays
    /// back the strings; the keys of a layout of one object are compared where they are stored.
    private mutating func readSharedKeys() {
      for layout in layouts.indices where layoutUses[layout].count >= 2 {
        let count = Int(layouts[layout].count)
        let header = Header(kind: .dictionary, count: count, start: layoutUses[layout].bytes.lowerBound)
        layouts[layout].first = Int32(truncatingIfNeeded: layoutKeys.count)
        layoutKeys.reserveCapacity(layoutKeys.count + count)
        for position in 0..<count { layoutKeys.append(key(reader.element(header, position))) }
      }
    }

    private mutating func entry(_ uid: Int) -> Entry {
      // UID 0 is `nil` whatever `$objects[0]` holds (ARC-023).
      guard uid > 0 else { return Entry(.null) }
      let object = reader.element(objects, uid)
      guard let header = try? reader.header(of: object) else { return Entry(.unreadable) }
      switch header.kind {
      case .dictionary: return objectEntry(header)
      case .asciiString:
        return Entry(isNull(header) ? .null : .asciiString, start: header.start, count: header.count)
      case .utf16String:
        // `$null` written as UTF-16 is `$null` too (the general reading compares strings).
        let isNull = header.count == 5 && (try? reader.string(header, object: object)) == ArchiveKeys.null
        return Entry(isNull ? .null : .utf16String, start: header.start, count: header.count)
      case .null: return Entry(.null)
      case .bool: return Entry(.bool, start: header.start, count: header.count)
      case .integer: return Entry(.integer, start: header.start, count: header.count)
      case .real: return Entry(.real, start: header.start, count: header.count)
      case .date: return Entry(.date, start: header.start, count: header.count)
      case .data: return Entry(.data, start: header.start, count: header.count)
      case .uid, .array, .set: return Entry(.unreadable)
      }
    }

    /// `true` for the ASCII string `$null`, compared as bytes.
    @inline(__always)
    private func isNull(_ header: Header) -> Bool {
      header.count == 5
        && ArchiveKeys.nullKey.withUTF8Buffer { reader.bytes[header.start..<(header.start + 5)].elementsEqual($0) }
    }

    /// A dictionary entry: an object when its `$class` refers to an entry past `$null` that is a readable class
    /// description or one the decode will report; ``Kind/unreadable`` otherwise (a class description, or a damaged
    /// object: the decode reports what is wrong).
    private mutating func objectEntry(_ header: Header) -> Entry {
      let layout = layoutNumber(header)
      let classPosition = Int(layouts[layout].classPosition)
      guard classPosition >= 0, let raw = reader.uidValue(ofObject: reader.dictionaryValue(header, classPosition)),
        raw < UInt64(objects.count)
      else { return Entry(.unreadable) }
      return Entry(object: header.start, classSlot: classSlot(Int(raw)), layout: layout)
    }

    /// The class slot of the description at `classUID`, read the first time.
    private mutating func classSlot(_ classUID: Int) -> Int {
      // Objects of one class usually follow one another (an array's elements): the slot of the object before is
      // checked first.
      if classUID == lastClass.uid { return lastClass.slot }
      let slot = slotOfDescription(classUID)
      lastClass = (classUID, slot)
      return slot
    }

    private mutating func slotOfDescription(_ classUID: Int) -> Int {
      if let known = classSlots[word: UInt64(classUID)] { return known }
      // Moved out for the read, so that a list added to it is not a copy of the table.
      var lists = nameLists
      nameLists = nil
      // The object the description is read for only locates errors, and errors are not kept: each object's
      // decode reads a damaged description again, naming itself.
      let read = try? KeyedArchiveClassDescription(
        reading: classUID, for: classUID, reader: reader, objects: objects, options: options,
        cachedList: { lists?[$0] ?? listRead(at: $0) }, rememberList: { lists?[$0] = $1 })
      nameLists = lists
      let slot: Int
      if let description = read {
        let identity = ClassIdentity(
          name: description.name, classesList: description.classesList, hintsList: description.hintsList)
        if let same = describedSlot(identity) {
          slot = same
        } else {
          slot = classes.count
          classes.append(ClassRecord(descriptionUID: classUID, description: description))
          slotsByIdentity?[identity] = slot
          if slotsByIdentity == nil, slot - PlainClass.allCases.count >= Self.linearClassCount { makeClassTables() }
        }
      } else {
        slot = classes.count
        classes.append(ClassRecord(descriptionUID: classUID, description: nil))
      }
      if lastClass.uid >= 0, classSlots.isEmpty { classSlots.set(word: UInt64(lastClass.uid), lastClass.slot) }
      if lastClass.uid >= 0 { classSlots.set(word: UInt64(classUID), slot) }
      return slot
    }

    /// The slot of a description read before with the identity `identity`.
    private func describedSlot(_ identity: ClassIdentity) -> Int? {
      if let slotsByIdentity { return slotsByIdentity[identity] }
      return classes.indices.first { slot in
        guard let description = classes[slot].description else { return false }
        return description.name == identity.name && description.classesList == identity.classesList
          && description.hintsList == identity.hintsList
      }
    }

    /// A `$classes` or `$classhints` list read before, at property-list object `object`, found among the described
    /// classes (while they are few).
    private func listRead(at object: Int) -> [String]? {
      for record in classes {
        guard let description = record.description else { continue }
        if description.classesList == object { return description.classes }
        if description.hintsList == object { return description.hints }
      }
      return nil
    }

    /// The hashed tables of the described classes, made once there are more than ``linearClassCount``.
    private mutating func makeClassTables() {
      var identities: [ClassIdentity: Int] = [:]
      var lists: [Int: [String]] = [:]
      for (slot, record) in classes.enumerated() {
        guard let description = record.description else { continue }
        identities[
          ClassIdentity(
            name: description.name, classesList: description.classesList, hintsList: description.hintsList)] = slot
        if description.classesList >= 0 { lists[description.classesList] = description.classes }
        if description.hintsList >= 0 { lists[description.hintsList] = description.hints }
      }
      slotsByIdentity = identities
      nameLists = lists
    }

    /// The layout of a dictionary's keys, made the first time a key list is met.
    private mutating func layoutNumber(_ header: Header) -> Int {
      // The keys' references, as stored: the header was checked to fit the object area.
      let bytes = header.start..<(header.start + header.count * reader.objectRefSize)
      // Dictionaries of one key list usually follow one another (an array's elements): the layout of the
      // dictionary before is compared first.
      if lastLayout < 0 || !ArchiveIndex.sameBytes(layoutUses[lastLayout].bytes, bytes, in: reader) {
        lastLayout = internedLayout(header, bytes: bytes)
      }
      layoutUses[lastLayout].count += 1
      return lastLayout
    }

    private mutating func internedLayout(_ header: Header, bytes: Range<Int>) -> Int {
      // The first layout needs no table: the dictionary after it is compared with it (`lastLayout`).
      guard !layouts.isEmpty else { return makeLayout(header, bytes: bytes) }
      if layouts.count == 1 { register(0) }
      let hash = ArchiveIndex.hash(UnsafeRawBufferPointer(reader.bytes[bytes]))
      if let layout = layoutNumbers[word: hash] {
        if ArchiveIndex.sameBytes(layoutUses[layout].bytes, bytes, in: reader) { return layout }
        if let colliding = collidingLayouts[Array(reader.bytes[bytes])] { return colliding }
      }
      let layout = makeLayout(header, bytes: bytes)
      register(layout)
      return layout
    }

    /// Enters `layout` in the table of layouts by hash.
    private mutating func register(_ layout: Int) {
      let bytes = layoutUses[layout].bytes
      let hash = ArchiveIndex.hash(UnsafeRawBufferPointer(reader.bytes[bytes]))
      if layoutNumbers[word: hash] == nil {
        layoutNumbers.set(word: hash, layout)
      } else {
        collidingLayouts[Array(reader.bytes[bytes])] = layout
      }
    }

    private mutating func makeLayout(_ header: Header, bytes: Range<Int>) -> Int {
      var asciiClass = -1
      var utf16Class = -1
      var position = 0
      while asciiClass < 0, position < header.count {
        switch classKeyForm(reader.element(header, position)) {
        case .ascii: asciiClass = position
        case .utf16 where utf16Class < 0: utf16Class = position
        default: break
        }
        position += 1
      }
      layouts.append(
        Layout(
          first: -1, count: Int32(truncatingIfNeeded: header.count),
          classPosition: Int32(truncatingIfNeeded: asciiClass >= 0 ? asciiClass : utf16Class)))
      layoutUses.append((bytes, 0))
      return layouts.count - 1
    }

    /// What the key at property-list object `object` is to the search for `$class`.
    private enum ClassKeyForm { case ascii, utf16, other }

    /// Whether the key at property-list object `object` is `$class`, stored as an ASCII string or as UTF-16, read
    /// from its bytes.
    private func classKeyForm(_ object: Int) -> ClassKeyForm {
      // Compared as bytes from the marker on, without a header: most keys are not `$class`.
      if ArchiveKeys.classKey.withUTF8Buffer({ reader.isASCIIString(object, equalTo: $0) }) { return .ascii }
      guard reader.isUTF16String(object), let header = try? reader.header(of: object), header.count == 6,
        (try? reader.string(header, object: object)) == ArchiveKeys.class
      else { return .other }
      return .utf16
    }

    /// The key at property-list object `object` (``Key``).
    private func key(_ object: Int) -> Key {
      guard let header = try? reader.header(of: object), header.kind == .asciiString || header.kind == .utf16String,
        let stored = try? reader.string(header, object: object)
      else { return .none }
      let isUTF16 = header.kind == .utf16String
      let units = stored.utf8
      guard units.first == KeyedArchiver.escapeByte else {
        return Key(userKey: stored, isASCII: !isUTF16 || stored.isASCII)
      }
      guard units.count > 1, units[units.index(after: units.startIndex)] == KeyedArchiver.escapeByte else {
        return .none
      }
      let userKey = String(stored.dropFirst())
      return Key(userKey: userKey, isASCII: !isUTF16 || userKey.isASCII)
    }
  }
}
