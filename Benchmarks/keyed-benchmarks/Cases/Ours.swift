import Foundation

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
  static func flatEncode() -> Side? { nil }

  /// `KeyedArchive.decode.flat-N`: unarchive that array. Check with `input.verify(items) { $0.record }`.
  static func flatDecode() -> Side? { nil }

  /// `KeyedArchive.encode.tree-N`: archive the root of a tree of ``TreeNodeRecord`` (`name`, `value`, children;
  /// keys in ``TreeNodeRecord/Key``). Build bottom-up with `input.build { record, children in YourNode(...) }`.
  static func treeEncode() -> Side? { nil }

  /// `KeyedArchive.decode.tree-N`: unarchive that tree. Check with
  /// `input.verify(root) { ($0.name, $0.value, $0.children) }`.
  static func treeDecode() -> Side? { nil }

  /// `KeyedArchive.encode.plist-N`: archive Foundation-like values only: a dictionary of `input.entries.count`
  /// dictionaries of the ten values of ``PlistEntryRecord`` (keys in ``PlistEntryRecord/Key``). Build your
  /// archiver's value form from the records (or archive `input.foundationValue()` if ours takes NSDictionary).
  static func plistEncode() -> Side? { nil }

  /// `KeyedArchive.decode.plist-N`: unarchive that dictionary. Check with
  /// `input.verify(count: decoded.count) { key in /* decoded entry for key, as a PlistEntryRecord */ }`.
  static func plistDecode() -> Side? { nil }

  /// `KeyedArchive.encode.small`: archive one object of the ten fields of ``SmallRecord`` (`input.record`); the
  /// harness repeats the operation `input.repetitions` times per run.
  static func smallEncode() -> Side? { nil }

  /// `KeyedArchive.decode.small`: unarchive that object. Check with `input.verify(decoded.record)`.
  static func smallDecode() -> Side? { nil }

  /// `KeyedArchive.encode.cycle-N`: archive the first node of a doubly linked list of ``CycleNodeRecord``
  /// (`value`, `label`; links under ``CycleNodeRecord/Key/previous`` and ``CycleNodeRecord/Key/next``). Build with
  /// `input.build(YourNode.init) { previous, next in previous.next = next; next.previous = previous }`, which returns
  /// every node in order: keep that array alive in your model, so releasing a million-node list does not recurse.
  static func cycleEncode() -> Side? { nil }

  /// `KeyedArchive.decode.cycle-N`: unarchive that list (its cycles go through our link phase). Check with
  /// `input.verify(first: head, fields: { ($0.record, $0.previous, $0.next) }, same: ===)`.
  static func cycleDecode() -> Side? { nil }

  /// `PropertyList.write.plist-N`: write a binary plist of the `plist-N` input with our PropertyList writer.
  static func propertyListWrite() -> Side? { nil }

  /// `PropertyList.read.plist-N` and `PropertyList.read.bplist-10mb`: read a binary plist with our reader. Use
  /// `archive: PropertyListCases.binaryPlist` so ours reads the very bytes PropertyListSerialization reads.
  static func propertyListRead() -> Side? { nil }
}
