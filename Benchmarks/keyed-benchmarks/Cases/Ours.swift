import ArchiveCoding
import Foundation
import KeyedArchive
import PropertyList

/// Where our KeyedArchive plugs into the benchmarks: one slot per operation and input. A slot that returns nil is
/// reported as "ours: pending" (and `null` in JSON); returning a side is all it takes to compare ours with every peer
/// of that case, at every size.
///
/// Build each side with ``Side/encoding(_:_:build:encode:check:)`` or ``Side/decoding(_:_:archive:decode:check:)``:
/// - `build` / `archive` run before the clock starts: make your twins from the input's plain records (each input
///   has a `build` helper that does the walking), and for decoding, archive them with our archiver.
/// - `encode` / `decode` are the timed operations. Return the archive / the decoded root; the harness sends it to the
///   blackhole and releases it inside the measured time, as the peers' results are.
/// - `check` compares one decoded result with the input after the warm-up (the inputs have `verify` helpers).
///
/// Sketch for the flat slots, with a `FlatItem` class of ours conforming to `Coding` (names of our API assumed):
///
///     static func flatEncode() -> Side? {
///       .encoding("KeyedArchiver", FlatInput.self,
///         build: { input in input.build(FlatItem.init) },                       // [FlatItem], untimed
///         encode: { items in try KeyedArchiver.archivedData(withRootObject: items) })
///     }
///     static func flatDecode() -> Side? {
///       .decoding("KeyedUnarchiver", FlatInput.self,
///         archive: { input in try KeyedArchiver.archivedData(withRootObject: input.build(FlatItem.init)) },
///         decode: { data in try KeyedUnarchiver.unarchivedRoot(of: [FlatItem].self, from: data) },
///         check: { items, input in input.verify(items, record: \.record) })
///     }
///
/// The floor of each decoding case then walks ours's archive instead of PropertyListEncoder's.
enum Ours {
  /// `KeyedArchive.encode.flat-N`: archive an array of `input.records.count` objects built from
  /// ``FlatRecord`` (`int`, `double`, `bool`, `string`, `data`; keys in ``FlatRecord/Key``).
  /// Build with `input.build { record in YourFlatItem(record) }` → `[YourFlatItem]`.
  static func flatEncode() -> Side? {
    OurModels.registered
    return .encoding(
      "KeyedArchiver", FlatInput.self, build: { input in input.build(OurFlatItem.init) },
      encode: { items in try KeyedArchiver.archivedData(withRootObject: items) })
  }

  /// `KeyedArchive.decode.flat-N`: unarchive that array. Check with `input.verify(items) { $0.record }`.
  static func flatDecode() -> Side? {
    OurModels.registered
    return .decoding(
      "KeyedUnarchiver", FlatInput.self,
      archive: { input in try KeyedArchiver.archivedData(withRootObject: input.build(OurFlatItem.init)) },
      decode: { data in try KeyedUnarchiver.unarchivedObject(ofClass: [OurFlatItem].self, from: data) ?? [] },
      check: { items, input in input.verify(items) { $0.record } })
  }

  /// `KeyedArchive.encode.tree-N`: archive the root of a tree of ``TreeNodeRecord`` (`name`, `value`, children;
  /// keys in ``TreeNodeRecord/Key``). Build bottom-up with `input.build { record, children in YourNode(...) }`.
  static func treeEncode() -> Side? {
    OurModels.registered
    return .encoding(
      "KeyedArchiver", TreeInput.self,
      build: { input in
        input.build { record, children in OurTreeNode(name: record.name, value: record.value, children: children) }
      }, encode: { root in try KeyedArchiver.archivedData(withRootObject: root) })
  }

  /// `KeyedArchive.decode.tree-N`: unarchive that tree. Check with
  /// `input.verify(root) { ($0.name, $0.value, $0.children) }`.
  static func treeDecode() -> Side? {
    OurModels.registered
    return .decoding(
      "KeyedUnarchiver", TreeInput.self,
      archive: { input in
        try KeyedArchiver.archivedData(
          withRootObject: input.build { record, children in
            OurTreeNode(name: record.name, value: record.value, children: children)
          })
      },
      decode: { data in
        guard let root = try KeyedUnarchiver.unarchivedObject(ofClass: OurTreeNode.self, from: data) else {
          throw BenchmarkFailure("the tree archive decoded to nil")
        }
        return root
      },
      check: { (root: OurTreeNode, input: TreeInput) in input.verify(root) { ($0.name, $0.value, $0.children) } })
  }

  /// `KeyedArchive.encode.plist-N`: archive Foundation-like values only: a dictionary of `input.entries.count`
  /// dictionaries of the ten values of ``PlistEntryRecord`` (keys in ``PlistEntryRecord/Key``). Build your
  /// archiver's value form from the records (or archive `input.foundationValue()` if ours takes NSDictionary).
  static func plistEncode() -> Side? {
    .encoding(
      "KeyedArchiver", PlistInput.self, build: { input in OurModels.value(of: input) },
      encode: { value in try KeyedArchiver.archivedData(withRootObject: value) })
  }

  /// `KeyedArchive.decode.plist-N`: unarchive that dictionary. Check with
  /// `input.verify(count: decoded.count) { key in /* decoded entry for key, as a PlistEntryRecord */ }`.
  static func plistDecode() -> Side? {
    .decoding(
      "KeyedUnarchiver", PlistInput.self,
      archive: { input in try KeyedArchiver.archivedData(withRootObject: OurModels.value(of: input)) },
      decode: { data in
        let plistTypes: [Any.Type] = [
          [String: Any].self, [Any].self, String.self, Int.self, Double.self, Bool.self,
          Data.self, Date.self,
        ]
        return try KeyedUnarchiver.unarchivedObject(ofClasses: plistTypes, from: data) as? [String: Any] ?? [:]
      },
      check: { decoded, input in input.verify(count: decoded.count) { key in OurModels.record(key: key, decoded[key]) }
      })
  }

  /// `KeyedArchive.encode.small`: archive one object of the ten fields of ``SmallRecord`` (`input.record`); the
  /// harness repeats the operation `input.repetitions` times per run.
  static func smallEncode() -> Side? {
    OurModels.registered
    return .encoding(
      "KeyedArchiver", SmallInput.self, build: { input in OurSmallObject(input.record) },
      encode: { object in try KeyedArchiver.archivedData(withRootObject: object) })
  }

  /// `KeyedArchive.decode.small`: unarchive that object. Check with `input.verify(decoded.record)`.
  static func smallDecode() -> Side? {
    OurModels.registered
    return .decoding(
      "KeyedUnarchiver", SmallInput.self,
      archive: { input in try KeyedArchiver.archivedData(withRootObject: OurSmallObject(input.record)) },
      decode: { data in
        guard let object = try KeyedUnarchiver.unarchivedObject(ofClass: OurSmallObject.self, from: data) else {
          throw BenchmarkFailure("the small archive decoded to nil")
        }
        return object
      },
      check: { (object: OurSmallObject, input: SmallInput) in input.verify(object.record) })
  }

  /// `KeyedArchive.encode.cycle-N`: archive the first node of a doubly linked list of ``CycleNodeRecord``
  /// (`value`, `label`; links under ``CycleNodeRecord/Key/previous`` and ``CycleNodeRecord/Key/next``). Build with
  /// `input.build(YourNode.init) { previous, next in previous.next = next; next.previous = previous }`, which returns
  /// every node in order: keep that array alive in your model, so releasing a million-node list does not recurse.
  static func cycleEncode() -> Side? {
    OurModels.registered
    return .encoding(
      "KeyedArchiver", CycleInput.self,
      build: { input in
        input.build(OurCycleNode.init) { previous, next in
          previous.next = next; next.previous = previous
        }
      },
      encode: { nodes in try KeyedArchiver.archivedData(withRootObject: nodes.first) })
  }

  /// `KeyedArchive.decode.cycle-N`: unarchive that list (its cycles go through our link phase). Check with
  /// `input.verify(first: head, fields: { ($0.record, $0.previous, $0.next) }, same: ===)`.
  static func cycleDecode() -> Side? {
    OurModels.registered
    return .decoding(
      "KeyedUnarchiver", CycleInput.self,
      archive: { input in
        let nodes = input.build(OurCycleNode.init) { previous, next in
          previous.next = next; next.previous = previous
        }
        defer { OurCycleNode.release(nodes.first) }
        return try KeyedArchiver.archivedData(withRootObject: nodes.first)
      },
      decode: { data in
        guard let head = try KeyedUnarchiver.unarchivedObject(ofClass: OurCycleNode.self, from: data) else {
          throw BenchmarkFailure("the list archive decoded to nil")
        }
        return CycleList(head: head)
      },
      check: { (list: CycleList, input: CycleInput) in
        input.verify(
          first: list.head, fields: { (node: OurCycleNode) in (node.record, node.previous, node.next) }, same: ===)
      })
  }

  /// `PropertyList.write.plist-N`: write a binary plist of the `plist-N` input with our PropertyList writer.
  static func propertyListWrite() -> Side? {
    .encoding(
      "PropertyListWriter", PlistInput.self, build: { input in OurModels.propertyListValue(of: input) },
      encode: { value in try PropertyListWriter.write(value, format: .binary) })
  }

  /// `PropertyList.read.plist-N` and `PropertyList.read.bplist-10mb`: read a binary plist with our reader, from the
  /// very bytes PropertyListSerialization reads (`PropertyListCases.binaryPlist`).
  static func propertyListRead() -> Side? {
    .decoding(
      "PropertyListReader", PlistInput.self, archive: PropertyListCases.binaryPlist,
      decode: { data in try PropertyListReader.read(data) },
      check: { value, input in
        let count = value.dictionaryValue?.count ?? -1
        return count == input.entries.count ? nil : "expected \(input.entries.count) entries, read \(count)"
      })
  }
}

extension Ours {
  /// A reference side for `KeyedArchive.decode.flat-N`: makes the objects ours's decoder makes (`OurFlatItem`s
  /// with a fresh 16-byte `Data` each, in an array) from values laid out in memory beforehand, and frees them, with
  /// no archive at all. No decoder of this model can be faster, so it shows how much of the bare-walk gap is
  /// the objects themselves.
  static func flatConstruction() -> Side {
    Side(label: "construction only (no archive)") { n, inputs in
      let input: FlatInput = inputs.input(count: n)
      let records = input.records
      var bytes: [UInt8] = []
      bytes.reserveCapacity(records.count * 16)
      for record in records { bytes.append(contentsOf: record.data) }
      let width = records.first?.data.count ?? 0
      func construct() -> [OurFlatItem] {
        bytes.withUnsafeBytes { raw in
          var items: [OurFlatItem] = []
          items.reserveCapacity(records.count)
          guard let base = raw.baseAddress else { return items }
          for (i, record) in records.enumerated() {
            // `Data(bytes:count:)`: the cheapest way to make a 16-byte `Data` (callgrind: about 1,240 instructions
            // to make and free, against 1,300-2,100 for the other initialisers).
            let data = Data(bytes: base + i * width, count: width)
            items.append(
              OurFlatItem(
                FlatRecord(
                  int: record.int, double: record.double, bool: record.bool, string: record.string, data: data)))
          }
          return items
        }
      }
      return PreparedRun(
        objects: records.count, operations: 1,
        warmUp: { (0, input.verify(construct()) { $0.record }) },
        run: { Blackhole.consume(construct()) })
    }
  }
}
