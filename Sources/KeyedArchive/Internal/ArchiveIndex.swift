import ArchiveCoding
import Foundation
import FoundationForms
import PropertyList

/// What a keyed archive holds, read in one linear pass over `$objects` when the archive is opened (Decision 0032):
/// each entry's header, the class descriptions objects name (each read once), and the keys of objects'
/// dictionaries, interned, with the key list (layout) of every object.
///
/// Decoding then looks answers up instead of working them out again per object: an object's dictionary, its class
/// slot and its layout are one load; a field is found by comparing the key asked for with the layout's interned keys,
/// starting after the last key found. Nothing here depends on what was decoded or on the coder's settings, so the
/// index never changes once built: what the process makes of each class (the registry's answer, the secure-coding
/// verdicts) is the ``ObjectStore``'s class table.
///
/// Building the index throws only for what makes the archive unreadable as a whole (the container, ARC-020). An
/// entry that cannot be read, an object whose `$class` is damaged and a class description that breaks a rule are
/// recorded as such, and reported, with the error the general reading gives, by the decode that reaches them
/// (Decision 0010: an archive with damaged entries that nothing refers to opens).
///
/// A struct kept in place by the unarchiver (a `let`): its tables are read without a reference to retain.
struct ArchiveIndex {
  typealias Header = BinaryPropertyListReader.Header

  /// The property list the archive is read from.
  let reader: BinaryPropertyListReader
  /// `$top`.
  let top: Header
  /// `$objects`.
  let objects: Header
  /// Each `$objects` entry, by UID.
  let entries: [Entry]
  /// The class descriptions objects name, one per identity (ARC-043), after the ``PlainClass`` slots.
  let classes: [ClassRecord]
  /// The distinct key lists of objects' dictionaries, by layout number (``Entry/layout``).
  let layouts: [Layout]
  /// The keys of every layout, one after another (``Layout/first`` and ``Layout/count``), each read once per key
  /// object.
  let layoutKeys: [Key]

  /// Indexes the archive `reader` reads.
  /// - Throws: ``ArchiveError``: the container's errors (``KeyedArchiveContainer``), `limitExceeded` for more
  ///   entries than `options.maxObjectCount`.
  init(reader: BinaryPropertyListReader, options: KeyedUnarchiverOptions) throws {
    let container = try KeyedArchiveContainer(reader: reader, maxObjectCount: options.maxObjectCount)
    var builder = Builder(reader: reader, objects: container.objects, options: options)
    builder.indexEntries()
    self.reader = reader
    top = container.top
    objects = container.objects
    entries = builder.entries
    classes = builder.classes
    layouts = builder.layouts
    layoutKeys = builder.layoutKeys
  }

  /// The number of `$objects` entries.
  var count: Int { objects.count }

  /// The property-list object of `$objects[uid]`.
  @inline(__always)
  func object(_ uid: Int) -> Int { reader.element(objects, uid) }

  /// The dictionary of object `uid` (an entry that ``Entry/isObject``).
  @inline(__always)
  func dictionary(of entry: Entry) -> Header {
    Header(kind: .dictionary, count: Int(layouts[entry.layout].count), start: entry.start)
  }

  /// The header of plain entry `entry` (one that is not an object): its kind, size and payload.
  @inline(__always)
  func header(of entry: Entry) -> Header {
    Header(kind: entry.kind.plistKind, count: Int(entry.count), start: entry.start)
  }

  /// The name of the class in slot `slot`, for messages (`?` for a description that cannot be read).
  func className(ofSlot slot: Int) -> String {
    if let plain = PlainClass(rawValue: slot) { return plain.chain[0] }
    return classes[slot].description?.name ?? "?"
  }

  /// `true` when `key` is the key at `position` of `layout` (keys are usually read in the order they were written,
  /// so this is what a lookup compares first). Keys compare code unit by code unit (ARC-026).
  @inline(__always)
  func hasKey(_ key: String, at position: Int, in layout: Layout) -> Bool {
    position < layout.count && layout.first >= 0 && layoutKeys[Int(layout.first) &+ position].matches(key)
  }

  /// The position of the key `key` in `layout`, the layout of `dictionary`, looking from `start` to the end and then
  /// from the first key; `nil` when the layout does not hold it. Keys compare code unit by code unit (ARC-026); `key`
  /// is the key an `init(coder:)` asks for (``Key``).
  func position(of key: String, in layout: Layout, dictionary: Header, from start: Int) -> Int? {
    let first = Int(layout.first)
    guard first >= 0 else { return storedPosition(of: key, in: dictionary, from: start) }
    let count = Int(layout.count)
    var position = start < count ? start : 0
    for _ in 0..<count {
      if layoutKeys[first &+ position].matches(key) { return position }
      position = position &+ 1 == count ? 0 : position &+ 1
    }
    return nil
  }

  /// The position of the key `key` in `dictionary`, whose keys were not read (a layout of one object), compared where
  /// they are stored: the next key first (keys are usually read in the order they were written), then from there
  /// (ARC-026).
  private func storedPosition(of key: String, in dictionary: Header, from start: Int) -> Int? {
    let escape = KeyedArchiver.escapeByte
    if reader.hasASCIIKey(key, at: start, in: dictionary, escaping: escape) { return start }
    return reader.lookupPosition(string: key, inDictionary: dictionary, from: start, escaping: escape)
  }
}

extension ArchiveIndex {
  /// One `$objects` entry: an object (a dictionary with a readable `$class`) with its class slot and layout, or
  /// another entry with its kind and payload. 16 bytes.
  struct Entry {
    /// The offset of the payload: a dictionary's keys, a string's or data's bytes, a number's bytes.
    var start: Int
    /// An object's layout; another entry's size (elements, units or bytes, as ``BinaryPropertyListReader/Header``).
    private var size: Int32
    /// An object's class slot (0 or more); another entry's kind, as `-1 - kind`.
    private var tag: Int32

    /// An object of class slot `classSlot` whose dictionary starts at `start` and has the keys of `layout`.
    init(object start: Int, classSlot: Int, layout: Int) {
      self.start = start
      size = Int32(truncatingIfNeeded: layout)
      tag = Int32(truncatingIfNeeded: classSlot)
    }

    /// An entry that is not an object.
    init(_ kind: Kind, start: Int = 0, count: Int = 0) {
      self.start = start
      size = Int32(truncatingIfNeeded: count)
      tag = -1 - Int32(kind.rawValue)
    }

    /// `true` for an object (a dictionary with a readable `$class`).
    @inline(__always) var isObject: Bool { tag >= 0 }
    /// The class slot of an object.
    @inline(__always) var classSlot: Int { Int(tag) }
    /// The layout of an object.
    @inline(__always) var layout: Int { Int(size) }
    /// The size of another entry.
    @inline(__always) var count: Int32 { size }
    /// The kind of an entry that is not an object.
    @inline(__always) var kind: Kind {
      // A switch rather than `Kind(rawValue:)`, which is a call, on the path of every plain field read.
      let raw = UInt8(truncatingIfNeeded: -1 - tag)
      return switch raw {
      case Kind.bool.rawValue: .bool
      case Kind.integer.rawValue: .integer
      case Kind.real.rawValue: .real
      case Kind.date.rawValue: .date
      case Kind.data.rawValue: .data
      case Kind.asciiString.rawValue: .asciiString
      case Kind.utf16String.rawValue: .utf16String
      case Kind.null.rawValue: .null
      default: .unreadable
      }
    }
  }

  /// What an entry that is not an object is.
  enum Kind: UInt8 {
    /// The kinds of plain values, as the reader's (``BinaryPropertyListReader/Kind``).
    case bool, integer, real, date, data, asciiString, utf16String
    /// The string `$null`, or the null object (ARC-023, ARC-160): decodes as `nil`.
    case null
    /// An entry whose header cannot be read, or that cannot be decoded (a UID, an array or set, a dictionary without
    /// a readable `$class`): the decode that reaches it reports why, with the general reading's error.
    case unreadable

    /// The reader's kind of a plain value.
    var plistKind: BinaryPropertyListReader.Kind {
      switch self {
      case .bool: .bool
      case .integer: .integer
      case .real: .real
      case .date: .date
      case .data: .data
      case .asciiString: .asciiString
      case .utf16String: .utf16String
      case .null, .unreadable: .null
      }
    }

    /// The slot of the class a plain value of this kind decodes as (``PlainClass``).
    var plainClass: PlainClass {
      switch self {
      case .asciiString, .utf16String, .null, .unreadable: .string
      case .data: .data
      case .date: .date
      case .bool, .integer, .real: .number
      }
    }
  }

  /// The classes of plain entries, in the first class slots: strings, data, dates and numbers are written as plain
  /// property-list values, and decode as `NSString`, `NSData`, `NSDate` and `NSNumber` (ARC-024).
  enum PlainClass: Int, CaseIterable {
    case string, data, date, number

    /// The chain the allowed-class check uses.
    var chain: [String] {
      switch self {
      case .string: [FoundationClass.string, FoundationClass.object]
      case .data: [FoundationClass.data, FoundationClass.object]
      case .date: [FoundationClass.date, FoundationClass.object]
      case .number: [FoundationClass.number, FoundationClass.value, FoundationClass.object]
      }
    }
  }

  /// A class description objects name, as read (ARC-043: descriptions with one name and the same lists share one
  /// record), or the UID of one that cannot be read (the decode of each object naming it reads it again, so that the
  /// error names that object).
  struct ClassRecord {
    /// The `$objects` index of the (first) description.
    var descriptionUID: Int
    /// The description, `nil` when it cannot be read or for a ``PlainClass`` slot.
    var description: KeyedArchiveClassDescription?
  }

  /// A key of objects' dictionaries, read once, in the form an `init(coder:)` asks for it: a stored key that starts
  /// with `$$` is the user's key that starts with `$` (ARC-026); another stored key that starts with `$` (`$class`,
  /// an unkeyed `$0`) is the format's, and `userKey` is `nil`, as for a key that is not a readable string.
  struct Key {
    var userKey: String?
    /// Whether ``userKey`` is ASCII: `==` on an ASCII string of the same UTF-8 length as the other is a code-unit
    /// comparison (see `String.isLiterally`).
    var isASCII: Bool

    /// A key no key asked for matches.
    static let none = Key(userKey: nil, isASCII: false)

    /// `true` when this key is `key`, code unit for code unit.
    @inline(__always)
    func matches(_ key: String) -> Bool {
      guard let userKey, userKey == key else { return false }
      return isASCII ? userKey.utf8.count == key.utf8.count : userKey.hasSameCodeUnits(as: key)
    }
  }

  /// A key list: where its keys start in ``layoutKeys`` (-1 for the layout of one object, whose keys are compared
  /// where they are stored), how many, and the position of `$class`.
  struct Layout {
    var first: Int32
    var count: Int32
    /// The position of the first `$class` key stored as an ASCII string, else of the first stored as UTF-16, as a
    /// key lookup finds it; -1 when there is none.
    var classPosition: Int32
  }
}

extension ArchiveIndex {
  /// A cheap hash of a run of the input's bytes, eight at a time (a match is then compared byte for byte).
  static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    func mix(_ word: UInt64) -> UInt64 {
      let word = (word ^ (word &>> 31)) &* 0xBF58_476D_1CE4_E5B9
      return word ^ (word &>> 29)
    }
    var hash = UInt64(truncatingIfNeeded: bytes.count) &* 0x9E37_79B9_7F4A_7C15
    var offset = 0
    while offset &+ 8 <= bytes.count {
      hash = mix(hash ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
      offset &+= 8
    }
    var tail: UInt64 = 0
    while offset < bytes.count {
      tail = tail &<< 8 | UInt64(bytes[offset])
      offset &+= 1
    }
    return mix(hash ^ tail)
  }

  /// `true` when the input's bytes in `a` and `b` are equal, compared eight at a time.
  @inline(__always)
  static func sameBytes(_ a: Range<Int>, _ b: Range<Int>, in reader: BinaryPropertyListReader) -> Bool {
    guard a.count == b.count else { return false }
    let left = UnsafeRawBufferPointer(reader.bytes[a])
    let right = UnsafeRawBufferPointer(reader.bytes[b])
    var offset = 0
    while offset &+ 8 <= left.count {
      guard
        left.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
          == right.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      else { return false }
      offset &+= 8
    }
    while offset < left.count {
      guard left[offset] == right[offset] else { return false }
      offset &+= 1
    }
    return true
  }
}
