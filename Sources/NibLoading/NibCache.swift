import Foundation
import Synchronization

/// The parsed nibs held in memory, for hosts that need memory back: ``purgeAll()`` drops the table of every
/// file-backed ``Nib`` of the cache (what UIKit does on a memory warning), and ``memoryBudget`` bounds the bytes of
/// the sources whose tables are held, dropping the least recently instantiated first (NIB-101). A dropped table is
/// read and parsed again on the nib's next use. Nibs made from bytes in memory keep theirs (there is nothing to
/// read again). Every nib belongs to ``shared`` unless it is given another cache.
///
///     NibCache.shared.memoryBudget = 8 << 20
///     NibCache.shared.purgeAll()  // on a memory warning
public final class NibCache: Sendable {
  /// The cache of every nib not given another.
  public static let shared = NibCache()

  /// Creates a cache with no budget.
  public init() {}

  private struct Entry {
    weak var nib: Nib?
    let cost: Int
  }
  private struct State {
    var entries: [ObjectIdentifier: Entry] = [:]
    var budget: Int?
  }
  private let state = Mutex(State())
  private let clock = Atomic<Int>(0)

  /// The most bytes of nib sources whose parsed tables are kept (`nil`, the default: no bound). Setting a smaller
  /// budget drops tables at once.
  public var memoryBudget: Int? {
    get { state.withLock { $0.budget } }
    set {
      state.withLock { $0.budget = newValue }
      evict(keeping: nil)
    }
  }

  /// The bytes of the sources whose parsed tables are held now.
  public var loadedByteCount: Int {
    state.withLock { state in state.entries.values.reduce(0) { $0 + ($1.nib == nil ? 0 : $1.cost) } }
  }

  /// Drops the parsed table of every file-backed nib.
  public func purgeAll() {
    let nibs = state.withLock { state -> [Nib] in
      let nibs = state.entries.values.compactMap(\.nib)
      state.entries.removeAll()
      return nibs
    }
    for nib in nibs { nib.purge() }
  }

  /// A use of a nib, for the least-recently-used order: an atomic add and a store, so that a budget set later
  /// knows the order.
  func touch(_ nib: Nib) {
    nib.lastUse.store(clock.add(1, ordering: .relaxed).newValue, ordering: .relaxed)
  }

  /// A file-backed nib parsed its source of `cost` bytes.
  func didLoad(_ nib: Nib, cost: Int) {
    nib.lastUse.store(clock.add(1, ordering: .relaxed).newValue, ordering: .relaxed)
    state.withLock { $0.entries[ObjectIdentifier(nib)] = Entry(nib: nib, cost: cost) }
    evict(keeping: nib)
  }

  /// A nib dropped its table, or went away.
  func forget(_ id: ObjectIdentifier) { _ = state.withLock { $0.entries.removeValue(forKey: id) } }

  /// Drops the least recently used tables until the held bytes fit the budget, never `kept`'s.
  private func evict(keeping kept: Nib?) {
    let victims = state.withLock { state -> [Nib] in
      guard let budget = state.budget else { return [] }
      var live = state.entries.compactMap { id, entry in entry.nib.map { (id, $0, entry.cost) } }
      var total = live.reduce(0) { $0 + $1.2 }
      guard total > budget else { return [] }
      live.sort { $0.1.lastUse.load(ordering: .relaxed) < $1.1.lastUse.load(ordering: .relaxed) }
      var victims: [Nib] = []
      for (id, nib, cost) in live where total > budget && nib !== kept {
        victims.append(nib)
        state.entries.removeValue(forKey: id)
        total -= cost
      }
      return victims
    }
    for nib in victims { nib.dropTable() }
  }

  /// The bytes of a nib file, or of the files of a nib directory.
  static func cost(of url: URL) -> Int {
    let manager = FileManager.default
    var isDirectory: ObjCBool = false
    guard manager.fileExists(atPath: url.path, isDirectory: &isDirectory) else { return 0 }
    guard isDirectory.boolValue else {
      return (try? manager.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
    }
    let names = (try? manager.contentsOfDirectory(atPath: url.path)) ?? []
    return names.reduce(0) { $0 + cost(of: url.appendingPathComponent($1)) }
  }
}
