/// A binary property list written object by object, for tests that need what the project's writer never produces:
/// one container referred to from many places (the writer shares scalars only, ARC-006), hand-made corrupt
/// objects, trailers that lie.
package struct RawPropertyList {
  /// The objects' encoded bytes, by object number.
  package var objects: [[UInt8]] = []

  package init(objects: [[UInt8]] = []) { self.objects = objects }

  /// The unsigned big-endian integer `value` in `width` bytes.
  package static func bigEndian(_ value: UInt64, _ width: Int) -> [UInt8] {
    (0..<width).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64(width - 1 - $0))) }
  }

  private static func length(_ marker: UInt8, _ count: Int) -> [UInt8] {
    count < 15 ? [marker | UInt8(count)] : [marker | 0x0F, 0x13] + bigEndian(UInt64(count), 8)
  }

  /// Appends an object's bytes and returns its object number.
  @discardableResult
  package mutating func add(_ bytes: [UInt8]) -> Int {
    objects.append(bytes)
    return objects.count - 1
  }

  // Objects for a list assembled with 4-byte references (see ``data(top:)``).

  package mutating func string(_ text: String) -> Int { add(Self.length(0x50, text.utf8.count) + Array(text.utf8)) }
  package mutating func integer(_ value: Int) -> Int { add([0x13] + Self.bigEndian(UInt64(value), 8)) }
  package mutating func uid(_ value: Int) -> Int { add([0x83] + Self.bigEndian(UInt64(value), 4)) }
  package mutating func array(_ refs: [Int]) -> Int {
    add(Self.length(0xA0, refs.count) + refs.flatMap { Self.bigEndian(UInt64($0), 4) })
  }
  package mutating func dictionary(_ entries: [(key: Int, value: Int)]) -> Int {
    add(
      Self.length(0xD0, entries.count) + entries.flatMap { Self.bigEndian(UInt64($0.key), 4) }
        + entries.flatMap { Self.bigEndian(UInt64($0.value), 4) })
  }

  /// The file: the header, the objects, the offset table and the trailer. `objectCount` and `tableOffset` replace
  /// the trailer's true values (for corrupt files).
  package func bytes(
    top: UInt64 = 0, refSize: UInt8 = 4, offsetSize: UInt8 = 8, objectCount: UInt64? = nil, tableOffset: UInt64? = nil
  ) -> [UInt8] {
    var out = Array("bplist00".utf8)
    var offsets: [Int] = []
    for object in objects {
      offsets.append(out.count)
      out += object
    }
    let table = out.count
    for offset in offsets { out += Self.bigEndian(UInt64(offset), Int(offsetSize)) }
    out += [0, 0, 0, 0, 0, 0, offsetSize, refSize]
    out += Self.bigEndian(objectCount ?? UInt64(objects.count), 8) + Self.bigEndian(top, 8)
    out += Self.bigEndian(tableOffset ?? UInt64(table), 8)
    return out
  }
}

extension RawPropertyList {
  /// A class description: `$classname` `name`, `$classes` `name` and `NSObject`.
  package mutating func classDescription(_ name: String) -> Int {
    dictionary([
      (string("$classname"), string(name)), (string("$classes"), array([string(name), string("NSObject")])),
    ])
  }

  /// The bytes of a keyed archive (`NSKeyedArchiver`, version 100,000) whose `$objects` are `objects` and whose
  /// `$top` holds `top`'s keys, each a reference to its `$objects` entry (by default `root`, `$objects[1]`).
  package mutating func keyedArchiveBytes(objects: [Int], top: [(key: String, uid: Int)] = [("root", 1)]) -> [UInt8] {
    let entries = array(objects)
    let topEntries = top.map { (string($0.key), uid($0.uid)) }
    let top = dictionary([
      (string("$archiver"), string("NSKeyedArchiver")), (string("$version"), integer(100_000)),
      (string("$top"), dictionary(topEntries)), (string("$objects"), entries),
    ])
    return bytes(top: UInt64(top))
  }

  /// A keyed archive whose root (`$objects[1]`) is an `NSArray` of `descriptions` objects (`$objects[3 + 2i]`),
  /// each with its own class description `C0` (`$objects[4 + 2i]`), all of whose `$classes` are one array object
  /// of `names` names and `NSObject` (ARC-043).
  package static func sharedClassChainArchive(descriptions: Int, names: Int) -> [UInt8] {
    var plist = RawPropertyList()
    let (classNameKey, classesKey, classKey) = (
      plist.string("$classname"), plist.string("$classes"), plist.string("$class")
    )
    let chain = plist.array((0..<names).map { plist.string("C\($0)") } + [plist.string("NSObject")])
    let className = plist.string("C0")
    let arrayClass = plist.dictionary([
      (classNameKey, plist.string("NSArray")),
      (classesKey, plist.array([plist.string("NSArray"), plist.string("NSObject")])),
    ])
    var entries = [plist.string("$null"), -1, arrayClass]
    for i in 0..<descriptions {
      entries.append(plist.dictionary([(classKey, plist.uid(4 + 2 * i))]))
      entries.append(plist.dictionary([(classNameKey, className), (classesKey, chain)]))
    }
    entries[1] = plist.dictionary([
      (classKey, plist.uid(2)),
      (plist.string("NS.objects"), plist.array((0..<descriptions).map { plist.uid(3 + 2 * $0) })),
    ])
    return plist.keyedArchiveBytes(objects: entries)
  }
}

extension RawPropertyList {
  /// A keyed archive whose root (`$objects[1]`) is an `NSArray` of `objects` objects of class `Thing`
  /// (`$objects[3 + i]`), each with one field, `list`: an inline array of its own holding an inline array of its own
  /// that holds one data object of `size` bytes, the same for all (what a hand-made file can do, no archiver).
  package static func nestedInlineContainersArchive(objects: Int, size: Int) -> [UInt8] {
    var plist = RawPropertyList()
    let payload = plist.add(
      [0x4F, 0x12] + RawPropertyList.bigEndian(UInt64(size), 4) + [UInt8](repeating: 0xCD, count: size))
    let (classKey, listKey) = (plist.string("$class"), plist.string("list"))
    let things = (0..<objects).map { _ in
      plist.dictionary([(classKey, plist.uid(3 + objects)), (listKey, plist.array([plist.array([payload])]))])
    }
    let root = plist.dictionary([
      (classKey, plist.uid(2)), (plist.string("NS.objects"), plist.array((0..<objects).map { plist.uid(3 + $0) })),
    ])
    return plist.keyedArchiveBytes(
      objects: [plist.string("$null"), root, plist.classDescription("NSArray")] + things
        + [plist.classDescription("Thing")])
  }

  /// `bytes` (a binary list) with one more object, which nothing refers to, after the others: an array of one
  /// reference, to the object whose number `target` gives for the list's object count.
  package static func appendingArray(to bytes: [UInt8], referringTo target: (Int) -> Int) -> [UInt8] {
    let trailer = Array(bytes.suffix(32))
    func number(_ at: Int, _ width: Int) -> Int { trailer[at..<(at + width)].reduce(0) { $0 << 8 | Int($1) } }
    let (offsetSize, refSize, count, tableOffset) = (number(6, 1), number(7, 1), number(8, 8), number(24, 8))
    let object = [0xA1] + RawPropertyList.bigEndian(UInt64(target(count)), refSize)
    var out = Array(bytes[0..<tableOffset]) + object
    let offsets =
      (0..<count).map { index in
        (0..<offsetSize).reduce(0) { $0 << 8 | Int(bytes[tableOffset + index * offsetSize + $1]) }
      } + [tableOffset]
    for offset in offsets { out += RawPropertyList.bigEndian(UInt64(offset), 8) }
    out += [0, 0, 0, 0, 0, 0, 8, UInt8(refSize)]
    out += RawPropertyList.bigEndian(UInt64(count + 1), 8) + trailer[16..<24]
    out += RawPropertyList.bigEndian(UInt64(tableOffset + object.count), 8)
    return out
  }
}
