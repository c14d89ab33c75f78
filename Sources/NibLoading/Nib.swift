import ArchiveCoding
import Foundation
import Synchronization

/// A nib that parses once and instantiates many times, like `UINib`.
///
///     let nib = try Nib(named: "TableViewCell", in: resources)
///     let cell = try nib.instantiate(owner: nil).first as? TableViewCell
///
/// The file (XIB, storyboard scene, keyed-archive nib or NIBArchive) is read and parsed into an
/// ``/ArchiveCoding/ObjectTable`` on first use and kept; every ``instantiate(owner:options:)`` builds a fresh,
/// independent object graph from it, doing only the work that depends on the instance: what can be derived from the
/// table (classes, field indexes, connection lists) is prepared on the first instantiation and kept with it.
/// ``purge()`` drops the parsed table (as UIKit does under memory pressure); the next instantiation reloads it from the
/// source. Safe to use from several threads at once.
public final class Nib: Sendable {
  /// Where the nib's bytes come from.
  public enum Source: Sendable {
    /// A file or nib directory, read again after a purge.
    case file(URL)
    /// Bytes in memory, with a name for messages.
    case data(Data, name: String)
  }

  /// The source.
  public let source: Source
  private let registry: ClassRegistry
  /// The parsed table, and the plan prepared from it on the first instantiation.
  private struct Loaded {
    var table: ObjectTable
    var plan: NibPlan?
  }
  private let cached = Mutex<Loaded?>(nil)
  /// When the nib was last instantiated, on its ``NibCache``'s clock.
  let lastUse = Atomic<Int>(0)

  /// The cache that may drop the parsed table.
  let cache: NibCache

  deinit { cache.forget(ObjectIdentifier(self)) }

  /// Creates a nib from a file or `.nib` directory; nothing is read until first use.
  /// - Parameters:
  ///   - url: the file or directory.
  ///   - registry: where classes are looked up.
  ///   - cache: the cache that may drop the parsed table under a memory budget or a purge (NIB-101).
  public init(contentsOf url: URL, registry: ClassRegistry = .shared, cache: NibCache = .shared) {
    source = .file(url)
    self.registry = registry
    self.cache = cache
  }

  /// Creates a nib from bytes in memory.
  public init(data: Data, name: String = "<data>", registry: ClassRegistry = .shared) {
    source = .data(data, name: name)
    self.registry = registry
    cache = .shared
  }

  /// Creates a nib from an already parsed table.
  public init(table: ObjectTable, name: String = "<table>", registry: ClassRegistry = .shared) {
    source = .data(Data(), name: name)
    self.registry = registry
    cache = .shared
    cached.withLock { $0 = Loaded(table: table) }
  }

  /// Finds a nib by name in a resource directory (see ``NibBundle``).
  public convenience init(named name: String, in bundle: NibBundle, registry: ClassRegistry = .shared) throws {
    self.init(contentsOf: try bundle.url(forNibNamed: name), registry: registry)
  }

  /// The parsed table, parsing the source on first use (or after a purge).
  /// - Throws: ``/ArchiveCoding/ArchiveError`` when the source cannot be read or parsed.
  public func objectTable() throws -> ObjectTable {
    if let table = cached.withLock({ $0?.table }) { return table }
    let table: ObjectTable
    switch source {
    case .file(let url): table = try NibReader.objectTable(contentsOf: url)
    case .data(let data, let name): table = try NibReader.objectTable(from: data, fileName: name)
    }
    let stored = cached.withLock { loaded -> Bool in
      guard loaded == nil else { return false }
      loaded = Loaded(table: table)
      return true
    }
    if stored, case .file(let url) = source { cache.didLoad(self, cost: NibCache.cost(of: url)) }
    return table
  }

  /// The instantiation plan, prepared from the table on first use (or after a purge).
  func plan() throws -> NibPlan {
    if let plan = cached.withLock({ $0?.plan }) { return plan }
    let table = try objectTable()
    let plan = NibPlan(table: table, registry: registry)
    return cached.withLock { loaded in
      if let existing = loaded?.plan { return existing }
      loaded = Loaded(table: table, plan: plan)
      return plan
    }
  }

  /// `true` while the parsed table is held in memory.
  public var isLoaded: Bool { cached.withLock { $0 != nil } }

  /// Drops the parsed table; the next instantiation reads and parses the source again. ``NibCache/purgeAll()``
  /// does this for every nib.
  public func purge() {
    guard case .file = source else { return }
    cache.forget(ObjectIdentifier(self))
    dropTable()
  }

  /// Drops the parsed table of a file-backed nib (``NibCache`` has already forgotten it).
  func dropTable() {
    guard case .file = source else { return }
    cached.withLock { $0 = nil }
  }

  /// Builds a fresh object graph and returns its top-level objects (placeholders excluded).
  /// - Parameters:
  ///   - owner: File's Owner, or `nil`.
  ///   - options: external objects, the missing-owner policy, a trace.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` for a failing `init(coder:)`, an outlet to an undefined key, an unknown
  ///   action.
  public func instantiate(owner: AnyObject?, options: NibOptions = NibOptions()) throws -> [AnyObject] {
    try instantiateGraph(owner: owner, options: options).topLevelObjects
  }

  /// Builds a fresh object graph and returns it with its statistics.
  public func instantiateGraph(owner: AnyObject?, options: NibOptions = NibOptions()) throws -> NibInstance {
    cache.touch(self)
    return try NibInstantiator(plan: try plan(), owner: owner, options: options, registry: registry).run()
  }
}
