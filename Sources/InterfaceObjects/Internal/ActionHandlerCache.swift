import Synchronization

/// Each class's actions, gathered once: the ``Responder/actionHandlers`` table (a class property that merges its
/// superclass's), then the ``Responder/actions`` declared by each class of the chain from the root down (the chain
/// found by reflecting on the first instance asked about). A class's actions must not change once used.
enum ActionHandlerCache {
  private struct Table: @unchecked Sendable { let actions: [String: Action] }
  private static let tables = Mutex<[ObjectIdentifier: Table]>([:])

  /// The action of a name for an object's class.
  static func action(_ selector: String, of object: Responder) -> Action? {
    let id = ObjectIdentifier(type(of: object))
    if let table = tables.withLock({ $0[id] }) { return table.actions[selector] }
    let table = Table(actions: gather(object))
    tables.withLock { $0[id] = table }
    return table.actions[selector]
  }

  /// The class chain's declarations, the superclasses' first, so that an override replaces what it overrides.
  private static func gather(_ object: Responder) -> [String: Action] {
    var chain: [Responder.Type] = []
    var mirror: Mirror? = Mirror(reflecting: object)
    while let current = mirror {
      if let type = current.subjectType as? Responder.Type { chain.append(type) }
      mirror = current.superclassMirror
    }
    var actions: [String: Action] = [:]
    for (selector, handler) in type(of: object).actionHandlers {
      actions[selector] = Action(selector: selector, handler: handler)
    }
    for type in chain.reversed() {
      for action in type.actions { actions[action.selector] = action }
    }
    return actions
  }
}
