import Foundation

/// Each class's actions, gathered once: the ``Responder/actionHandlers`` table (a class property that merges its
/// superclass's), then the ``Responder/actions`` declared by each class of the chain from the root down (the chain
/// found by reflecting on the first instance asked about). A class's actions must not change once used.
///
/// A declaration whose selector does not match its method (NIB-342) is kept apart: it is never performed, a nib that
/// connects to it (by the selector written or the one the method calls for) is refused naming the mistake, and it is
/// reported on standard error once, when the class's actions are gathered.
enum ActionHandlerCache {
  private struct Table {
    var actions: [String: Action] = [:]
    /// Declarations whose selector does not match the method, by the selector written and the one expected.
    var mistakes: [String: Action] = [:]
  }
  private static let tables = ClassTableCache<Table>()

  /// The action of a name for an object's class.
  static func action(_ selector: String, of object: Responder) -> Action? {
    tables.table(of: object) { gather($0) }.actions[selector]
  }

  /// A declaration of the object's class that names `selector` (or should have) but does not match its method.
  static func mistake(_ selector: String, of object: Responder) -> Action? {
    tables.table(of: object) { gather($0) }.mistakes[selector]
  }

  /// The class chain's declarations, the superclasses' first, so that an override replaces what it overrides.
  private static func gather(_ object: AnyObject) -> Table {
    var chain: [Responder.Type] = []
    var mirror: Mirror? = Mirror(reflecting: object)
    while let current = mirror {
      if let type = current.subjectType as? Responder.Type { chain.append(type) }
      mirror = current.superclassMirror
    }
    var table = Table()
    for (selector, handler) in (type(of: object) as? Responder.Type)?.actionHandlers ?? [:] {
      table.actions[selector] = Action(selector: selector, handler: handler)
    }
    for type in chain.reversed() {
      for action in type.actions {
        guard let mistake = action.declarationError else {
          table.actions[action.selector] = action
          continue
        }
        table.mistakes[action.selector] = action
        table.mistakes[action.expectedSelector] = action
        FileHandle.standardError.write(Data("error: \(type): \(mistake)\n".utf8))
      }
    }
    return table
  }
}
