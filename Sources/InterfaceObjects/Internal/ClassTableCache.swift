import Synchronization

/// A table made once per class and kept, for the per-class tables of the catalog (actions, outlet declarations):
/// the first object of a class asked about makes its class's table. A class's table must not change once made.
final class ClassTableCache<Table>: Sendable {
  /// Unchecked: a table is immutable once stored, and only reached under the lock.
  private struct Stored: @unchecked Sendable { let table: Table }
  private let tables = Mutex<[ObjectIdentifier: Stored]>([:])

  /// The table of `object`'s class, made by `make` from the object the first time.
  func table(of object: AnyObject, make: (AnyObject) -> Table) -> Table {
    let id = ObjectIdentifier(type(of: object))
    if let stored = tables.withLock({ $0[id] }) { return stored.table }
    let stored = Stored(table: make(object))
    tables.withLock { $0[id] = stored }
    return stored.table
  }
}
