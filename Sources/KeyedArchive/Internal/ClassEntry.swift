import ArchiveCoding
import Foundation

extension KeyedUnarchiver {
  /// What is known about one archived class description: its resolution, the index of its chain, and where the
  /// fields its `init(coder:)` asks for were found.
  struct ClassEntry {
    var info: ClassInfo
    var resolved: Resolved
    var chainIndex: Int32
    /// `true` once the class passed the supports-secure-coding check.
    var secureChecked = false
    /// The n-th keyed call of an `init(coder:)` of this class: the key asked for, the key object and its
    /// position where it was found last time. Objects of one class usually have the same layout, so the next
    /// object's n-th call is checked against the hint (one string comparison, one reference read) instead of
    /// scanning the dictionary's keys.
    var hints: [FieldHint] = []
    /// `true` once an object of this class was decoded: hints are recorded from the second object on, so an
    /// archive holding one object of a class (most small archives) allocates none.
    var recordsHints = false
  }

  /// An archived class description as read: its name, its `$classes` chain and its `$classhints`.
  struct ClassInfo {
    var name: String
    var chain: [String]
    var hints: [String]
    /// What makes two class descriptions the same class: the name and the plist objects of the two lists
    /// (-1 when absent). Descriptions with one identity share one class entry (ARC-043).
    var identity: Identity

    struct Identity: Hashable {
      var name: String
      var chainList: Int
      var hintsList: Int
    }
  }

  /// What a class description resolved to: a ``Coding`` class, a Foundation class decoded here, or a generic
  /// ``ArchivedObject``.
  struct Resolved {
    enum Kind {
      case coding(any Coding.Type)
      case foundation(String)
      case generic
    }
    var kind: Kind
    /// The chain the allowed-class check uses: from our own knowledge of the class, never from the archive's
    /// `$classes` (a file must not be able to claim a superclass it does not have).
    var chain: [String]
    /// The ``SecureCoding`` class of a `.coding` kind, `nil` when it is not one (or the kind is another).
    var secureType: (any SecureCoding.Type)?

    init(kind: Kind, chain: [String], secureType: (any SecureCoding.Type)? = nil) {
      self.kind = kind
      self.chain = chain
      if case .coding(let type) = kind { self.secureType = secureType ?? (type as? any SecureCoding.Type) }
    }
  }
}
