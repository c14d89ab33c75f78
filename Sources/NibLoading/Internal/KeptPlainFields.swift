/// What one object's `init(coder:)` made of its plain fields through `decodePlainFields(_:)`, kept by the
/// instantiation of a plan that recorded it and handed to the later ones (NIB-300).
///
/// An object's fields are fixed by the plan, and a ``PlainFields`` result depends on them alone, so every later
/// instantiation may take the result instead of reading and converting the fields again. Results are kept by their
/// class: an object's initialisers (its class's and its superclasses') each make their own.
final class KeptPlainFields: @unchecked Sendable {
  // Unchecked: immutable once made; the results are immutable `PlainFields` instances.

  /// The results, in the order the initialisers asked for them (few: one per class of the chain that reads some).
  private let results: [(kind: ObjectIdentifier, value: AnyObject)]

  init(_ results: [(kind: ObjectIdentifier, value: AnyObject)]) { self.results = results }

  /// The result of the class `kind`, if one was kept.
  @inline(__always)
  func value(_ kind: ObjectIdentifier) -> AnyObject? {
    // By index: a result is copied (retained) only when it is the one asked for.
    for i in results.indices where results[i].kind == kind { return results[i].value }
    return nil
  }

  /// How many results are kept.
  var count: Int { results.count }

  /// The results one object's initialisers make on the instantiation that keeps them, in order.
  final class Recorder {
    var results: [(kind: ObjectIdentifier, value: AnyObject)] = []
  }
}
