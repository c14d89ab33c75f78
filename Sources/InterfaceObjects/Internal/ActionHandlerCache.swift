/// Each class's actions, gathered once: the ``Responder/actionHandlers`` table (a class property that merges its
/// superclass's), then the ``Responder/actions`` declared by each class of the chain from the root down (the chain
/// found by reflecting on the first instance asked about). A class's actions must not change once used.
enum ActionHandlerCache {
  private static let tables = ClassTableCache<[String: Action]>()

  /// The action of a name for an object's class.
  static func action(_ selector: String, of object: Responder) -> Action? {
    tables.table(of: object) { gather($0) }[selector]
  }

  /// The class chain's declarations, the superclasses' first, so that an override replaces what it overrides.
  private static func gather(_ object: AnyObject) -> [String: Action] {
    var chain: [Responder.Type] = []
    var mirror: Mirror? = Mirror(reflecting: object)
    while let current = mirror {
      if let type = current.subjectType as? Responder.Type { chain.append(type) }
      mirror = current.superclassMirror
    }
    var actions: [String: Action] = [:]
    for (selector, handler) in (type(of: object) as? Responder.Type)?.actionHandlers ?? [:] {
      actions[selector] = Action(selector: selector, handler: handler)
    }
    for type in chain.reversed() {
      for action in type.actions { actions[action.selector] = action }
    }
    return actions
  }
}
