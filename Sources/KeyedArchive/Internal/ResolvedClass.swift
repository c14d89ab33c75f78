import ArchiveCoding

/// What an archived class resolves to in this process: a ``Coding`` class (one that keeps the fields its
/// `init(coder:)` does not read, or another), a Foundation class decoded by the unarchiver, or a generic
/// ``ArchivedObject``, with the chain the allowed-class check uses.
struct ResolvedClass {
  enum Kind {
    case coding(any Coding.Type)
    case keepingUnreadFields(any KeepsUnreadFields.Type)
    case foundation(String)
    case generic
  }
  var kind: Kind
  /// The chain the allowed-class check uses: the archived class's own, as this process knows it (a file must not
  /// be able to claim a superclass it does not have), never the archive's `$classes`.
  var chain: [String]
  /// The ``SecureCoding`` class of a ``Coding`` kind, `nil` when it is not one (or the kind is another).
  var secureType: (any SecureCoding.Type)?

  /// A resolution to `kind`; a ``Coding`` class that keeps its unread fields (``KeepsUnreadFields``) is made a
  /// ``Kind/keepingUnreadFields(_:)`` kind, worked out once per class of an archive.
  init(kind: Kind, chain: [String], secureType: (any SecureCoding.Type)? = nil) {
    self.chain = chain
    guard case .coding(let type) = kind else {
      self.kind = kind
      self.secureType = secureType
      return
    }
    self.kind = (type as? any KeepsUnreadFields.Type).map(Kind.keepingUnreadFields) ?? kind
    self.secureType = secureType ?? (type as? any SecureCoding.Type)
  }

  /// `true` for a ``Coding`` class, whether or not it keeps its unread fields.
  var isCoding: Bool {
    switch kind {
    case .coding, .keepingUnreadFields: true
    case .foundation, .generic: false
    }
  }
}
