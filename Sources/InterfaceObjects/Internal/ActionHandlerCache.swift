import Synchronization

/// Each class's action table, built once: ``Responder/actionHandlers`` is a class property that merges its
/// superclass's table, so it would otherwise be rebuilt for every action a nib connects or a control sends. A
/// class's table must not change once used.
enum ActionHandlerCache {
  private struct Table: @unchecked Sendable { let handlers: [String: Responder.ActionHandler] }
  private static let tables = Mutex<[ObjectIdentifier: Table]>([:])

  /// The handler of an action for a class.
  static func handler(_ action: String, of type: Responder.Type) -> Responder.ActionHandler? {
    let id = ObjectIdentifier(type)
    if let table = tables.withLock({ $0[id] }) { return table.handlers[action] }
    let table = Table(handlers: type.actionHandlers)
    tables.withLock { $0[id] = table }
    return table.handlers[action]
  }
}
