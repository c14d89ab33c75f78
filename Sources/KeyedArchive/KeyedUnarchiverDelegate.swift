import ArchiveCoding
import Foundation

/// Hears about a ``KeyedUnarchiver``'s work and may substitute classes and objects, in the spirit of
/// `NSKeyedUnarchiverDelegate`.
///
/// Calls come in Apple's order (COD-104): ``unarchiver(_:cannotDecodeObjectOfClassName:originalClasses:)`` once per
/// class that no other lookup finds (``KeyedUnarchiver/setClass(_:forClassName:)``, the registry, the superclasses and
/// hints, ``KeyedUnarchiver/classResolver``); then, for each decoded ``/ArchiveCoding/Coding`` instance when it is
/// awoken (right after its `init(coder:)` returns, or after the link phase when it asked for deferred references; inner
/// objects first): its ``/ArchiveCoding/Coding/awakeAfter(using:)``, ``unarchiver(_:willReplace:with:)`` if that
/// replaced it, ``unarchiver(_:didDecode:)``, and ``unarchiver(_:willReplace:with:)`` if the delegate replaced it.
/// ``KeyedUnarchiver/finishDecoding()`` calls ``unarchiverWillFinish(_:)`` and ``unarchiverDidFinish(_:)``. Every
/// method has a default that does nothing (or keeps the object).
public protocol KeyedUnarchiverDelegate: AnyObject {
  /// The class to decode an object of class `name` as, when no class is known for it; `nil` leaves the object
  /// undecodable (an error, or a generic object when the unarchiver decodes unknown classes generically).
  /// `classNames` is the archived chain, `name` first. Default: `nil`.
  func unarchiver(
    _ unarchiver: KeyedUnarchiver, cannotDecodeObjectOfClassName name: String, originalClasses classNames: [String]
  ) -> (any Coding.Type)?

  /// The object to hand out in place of `object`, which was just decoded and awoken: `object` itself, another
  /// object, or `nil`. Default: `object`.
  func unarchiver(_ unarchiver: KeyedUnarchiver, didDecode object: AnyObject) -> AnyObject?

  /// `object` is about to be replaced by `newObject`. Default: nothing.
  func unarchiver(_ unarchiver: KeyedUnarchiver, willReplace object: AnyObject, with newObject: AnyObject?)

  /// ``KeyedUnarchiver/finishDecoding()`` was called. Default: nothing.
  func unarchiverWillFinish(_ unarchiver: KeyedUnarchiver)

  /// Decoding is finished. Default: nothing.
  func unarchiverDidFinish(_ unarchiver: KeyedUnarchiver)
}

extension KeyedUnarchiverDelegate {
  /// Default: `nil`.
  public func unarchiver(
    _ unarchiver: KeyedUnarchiver, cannotDecodeObjectOfClassName name: String, originalClasses classNames: [String]
  ) -> (any Coding.Type)? { nil }
  /// Default: keeps `object`.
  public func unarchiver(_ unarchiver: KeyedUnarchiver, didDecode object: AnyObject) -> AnyObject? { object }
  /// Default: nothing.
  public func unarchiver(_ unarchiver: KeyedUnarchiver, willReplace object: AnyObject, with newObject: AnyObject?) {}
  /// Default: nothing.
  public func unarchiverWillFinish(_ unarchiver: KeyedUnarchiver) {}
  /// Default: nothing.
  public func unarchiverDidFinish(_ unarchiver: KeyedUnarchiver) {}
}
