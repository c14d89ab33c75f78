import ArchiveCoding

/// What an archived class resolves to in this process: a ``Coding`` class, a Foundation class decoded by the
/// unarchiver, or a generic ``ArchivedObject``, with the chain the allowed-class check uses.
struct ResolvedClass {
  enum Kind {
    case coding(any Coding.Type)
    case foundation(String)
    case generic
  }
  var kind: Kind
  /// The chain the allowed-class check uses: the archived class's own, as this process knows it (a file must not
  /// be able to claim a superclass it does not have), never the archive's `$classes`.
  var chain: [String]
  /// The ``SecureCoding`` class of a `.coding` kind, `nil` when it is not one (or the kind is another).
  var secureType: (any SecureCoding.Type)?

  init(kind: Kind, chain: [String], secureType: (any SecureCoding.Type)? = nil) {
    self.kind = kind
    self.chain = chain
    if case .coding(let type) = kind { self.secureType = secureType ?? (type as? any SecureCoding.Type) }
  }
}
