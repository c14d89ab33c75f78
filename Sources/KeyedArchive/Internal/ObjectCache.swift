import ArchiveCoding
import PropertyList

/// The decoding state of each `$objects` entry and its decoded value, stored compactly: 8 bytes per entry (its
/// state, where its value is kept and at which index), and a value only for the entries that hold one. Values are
/// kept by kind: class instances (the most common) as references, strings as `String`, anything else as `Any`, so
/// that a typed read (a class instance for a typed array, a shared string) takes its value back without a cast.
struct ObjectCache {
  /// The decoding state of an entry. `seenOnce`: a small string or data entry read once without keeping it; its
  /// second read keeps it, so that an entry referenced many times is shared while one referenced once costs no
  /// slot (ARC-007). `published`: a mutable collection handed out before its contents are decoded, while they are
  /// (a reference to it closes a cycle); `refusing`: a mutable dictionary or set while one of its keys or its members
  /// is decoded (a reference to it from there is a reference cycle error, ARC-042).
  enum State: UInt8 { case notStarted, inProgress, done, seenOnce, published, refusing }

  /// Where an entry's value is kept.
  enum Storage: UInt8 { case none, value, instance, string }

  struct Entry {
    /// The index of the value in the table that `storage` names.
    var slot: Int32 = 0
    var state: State = .notStarted
    var storage: Storage = .none
  }

  private var entries: [Entry]
  private var values: [Any?] = []
  /// `nil` where an instance was replaced by a value of another kind (it is not kept alive).
  private var instances: [AnyObject?] = []
  private var strings: [String] = []
  /// Strings and data that the archive stores inline (in an object's fields, not as `$objects` entries) and that
  /// were read once, by their object in the property list, as the typed or generic reading made them: one that
  /// other fields refer to as well is shared, not read again (ARC-007).
  private var inline: [Int: Any] = [:]
  /// The inline containers materialised, with what they hold, made at the first (ARC-007, ARC-043).
  private var containers: MaterialisationMemo?
  /// The objects whose decode began since the outermost decode under way began, in the order they began
  /// (``begin(_:)``): what a decode that fails takes back (``takeBack(from:)``, ARC-044). An object begins once
  /// unless taken back, so the list stays within the entry count.
  private var begun: [Int32] = []

  /// A cache of `count` entries, none decoded.
  /// - Precondition: `count` is below `Int32.max` (the container check bounds the object count).
  init(count: Int) {
    entries = [Entry].filled(with: Entry(), count: count)
  }

  /// The decoding state of entry `uid`.
  subscript(state uid: Int) -> State {
    @inline(__always) get { entries[uid].state }
    @inline(__always) set { entries[uid].state = newValue }
  }

  /// Marks object `uid` in progress, noting that its decode began.
  @inline(__always)
  mutating func begin(_ uid: Int) {
    entries[uid].state = .inProgress
    // Below Int32.max (the container check bounds the object count).
    begun.append(Int32(truncatingIfNeeded: uid))
  }

  /// Ends the outermost decode, whose objects all decoded: none of them is taken back any more.
  mutating func endOutermostDecode() { begun.removeAll(keepingCapacity: true) }

  /// Takes back object `uid`, whose decode failed, and every object whose decode began after it (its fields' and
  /// their fields'): each entry is not started again, its value no longer kept. `uid` `nil` takes back every object
  /// of the outermost decode.
  /// - Returns: the values that were kept, for the caller to break the cycles they may form (ARC-044).
  mutating func takeBack(from uid: Int?) -> [Any] {
    let first = uid.map { uid in begun.lastIndex(of: Int32(truncatingIfNeeded: uid)) ?? begun.count } ?? 0
    var released: [Any] = []
    for taken in begun[first...] {
      let uid = Int(taken)
      if let value = self[uid] { released.append(value) }
      self[uid] = nil
      entries[uid].state = .notStarted
    }
    begun.removeSubrange(first...)
    return released
  }

  /// The value of entry `uid`, or `nil`.
  subscript(uid: Int) -> Any? {
    get {
      let entry = entries[uid]
      switch entry.storage {
      case .none: return nil
      case .value: return values[Int(entry.slot)]
      case .instance: return instances[Int(entry.slot)].map { $0 as Any }
      case .string: return strings[Int(entry.slot)]
      }
    }
    set {
      if entries[uid].storage == .value {
        values[Int(entries[uid].slot)] = newValue
      } else if let newValue {
        store(newValue, uid: uid)
      } else {
        if entries[uid].storage == .instance { instances[Int(entries[uid].slot)] = nil }
        entries[uid].storage = .none
      }
    }
  }

  /// Makes `value` the value of entry `uid`, taking it: the subscript's setter copies its `Any?` through the
  /// runtime's generic witnesses.
  mutating func store(_ value: consuming Any, uid: Int) {
    switch entries[uid].storage {
    case .value:
      values[Int(entries[uid].slot)] = .some(value)
      return
    case .instance: instances[Int(entries[uid].slot)] = nil
    case .none, .string: break
    }
    // Each entry gets at most one slot per table, so no table outgrows the entry count (below Int32.max).
    entries[uid].slot = Int32(truncatingIfNeeded: values.count)
    entries[uid].storage = .value
    values.append(.some(value))
  }

  /// The class instance kept for entry `uid`, or `nil` when it holds another value. (`mutating`, though it changes
  /// nothing: read through the store, a non-mutating call would copy the cache's tables out, a retain each.)
  @inline(__always)
  mutating func instance(_ uid: Int) -> AnyObject? {
    let entry = entries[uid]
    return entry.storage == .instance ? instances[Int(entry.slot)] : nil
  }

  /// Makes a class instance the value of entry `uid`.
  mutating func setInstance(_ object: AnyObject, uid: Int) {
    if entries[uid].storage == .instance {
      instances[Int(entries[uid].slot)] = object
      return
    }
    if entries[uid].storage == .value { values[Int(entries[uid].slot)] = nil }
    entries[uid].slot = Int32(truncatingIfNeeded: instances.count)
    entries[uid].storage = .instance
    instances.append(object)
  }

  /// The string kept for entry `uid`, or `nil` when it holds another value (`mutating`, as ``instance(_:)``).
  @inline(__always)
  mutating func string(_ uid: Int) -> String? {
    let entry = entries[uid]
    return entry.storage == .string ? strings[Int(entry.slot)] : nil
  }

  /// Makes a string the value of entry `uid` (a plain string entry, kept once).
  mutating func setString(_ string: String, uid: Int) {
    entries[uid].slot = Int32(truncatingIfNeeded: strings.count)
    entries[uid].storage = .string
    strings.append(string)
  }

  /// The value kept for object `object` of the property list, a value stored inline, when it was read as a `Value`.
  func inlineValue<Value>(_ object: Int, as _: Value.Type) -> Value? { inline[object] as? Value }

  /// Keeps `value`, read from object `object` of the property list, a value stored inline.
  mutating func keepInline(_ value: Any, object: Int) { inline[object] = value }

  /// The memo the inline containers are materialised with: a container, or a string or data inside one, that
  /// several fields reach is made once and shared, and each container is counted once.
  mutating func containerMemo() -> MaterialisationMemo {
    if let containers { return containers }
    let memo = MaterialisationMemo(keepingValues: true)
    containers = memo
    return memo
  }
}
