import ArchiveCoding
import Foundation
import PropertyList

/// A ``/ArchiveCoding/Coding`` class whose objects keep the fields of their archive entry that their `init(coder:)` did not read,
/// and write them back, as swift-protobuf keeps a message's unknown fields: a document decoded and archived again by
/// a program whose model lacks a newer version's fields loses none of them (COD-210).
///
/// After the object's `init(coder:)` returns, ``KeyedUnarchiver`` sets ``unreadFields`` to every field of the entry
/// the initialiser did not ask for (by any keyed call, `containsValue(forKey:)` included, or by the unkeyed calls):
/// inline values as read, references decoded as every other reference of the archive is (the same instance for the
/// same entry, with the allowed classes of the object's own decode call; an object of an unknown class as an
/// ``ArchivedObject`` when the unarchiver decodes unknown classes generically). After the object's
/// `encode(with:)` returns, ``KeyedArchiver`` writes each of them that `encode(with:)` did not write itself, under its
/// stored key, a reference re-pointed to where its object is in the new archive.
///
///     final class Attachment: KeepsUnreadFields {
///       var name: String
///       var unreadFields = UnreadFields()
///       required init(coder: any DecodingCoder) throws { name = try coder.decodeString(forKey: "name") ?? "" }
///       func encode(with coder: any EncodingCoder) { coder.encode(name, forKey: "name") }
///     }
///
/// Classes that do not adopt the protocol pay nothing for it: the unarchiver and the archiver work out once per class
/// whether it does.
public protocol KeepsUnreadFields: Coding {
  /// The fields the object's archive entry held that its `init(coder:)` did not read; empty for an object not
  /// decoded from a keyed archive. Required: the storage the coders fill and read.
  var unreadFields: UnreadFields { get set }
}

/// The fields of an archive entry that the decoded object did not read (``KeepsUnreadFields``), in their stored order.
public struct UnreadFields {
  /// The fields, under their stored keys (a key the object wrote with a leading `$` has one more).
  public var entries: [ArchivedObject.Entry]

  /// No fields.
  public init() { entries = [] }

  /// The given fields.
  public init(_ entries: [ArchivedObject.Entry]) { self.entries = entries }

  /// `true` when there are no fields.
  public var isEmpty: Bool { entries.isEmpty }

  /// The value of a field, by the key its class wrote (escaping undone), or `nil`.
  public subscript(key: String) -> ArchivedObject.Field? {
    let stored = KeyedArchiver.escape(key)
    return entries.first { $0.key == stored }?.value
  }
}
