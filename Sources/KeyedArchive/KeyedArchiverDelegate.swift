import ArchiveCoding
import Foundation

/// Hears about a ``KeyedArchiver``'s work and may substitute objects, in the spirit of `NSKeyedArchiverDelegate`.
///
/// Calls come in this order (COD-103): for each ``/ArchiveCoding/Coding`` instance the first time it is met,
/// ``archiver(_:willEncode:)`` (after the object's own ``/ArchiveCoding/Coding/replacementObject(for:)``), then
/// ``archiver(_:willReplace:with:)`` when the object to write is not the one met; ``archiver(_:didEncode:)`` once the
/// object's `encode(with:)` returned; and when finishing, ``archiverWillFinish(_:)`` after the last object and
/// ``archiverDidFinish(_:)`` once the archive is written. Apple's archiver recurses, so an object's `didEncode`
/// follows those of the objects it refers to; this one writes objects from a work list (no recursion), so the
/// objects an object refers to are met (`willEncode`) while it is written and written (`didEncode`) after it.
/// Foundation values (strings, numbers, collections) are written without calls. Every method has a default that does
/// nothing (or keeps the object).
public protocol KeyedArchiverDelegate: AnyObject {
  /// The object to write in place of `object`: `object` itself, another ``/ArchiveCoding/Coding`` instance, a
  /// Foundation value, or `nil` to write `nil`. Default: `object`.
  func archiver(_ archiver: KeyedArchiver, willEncode object: AnyObject) -> Any?

  /// `object` was written (its `encode(with:)` returned). Default: nothing.
  func archiver(_ archiver: KeyedArchiver, didEncode object: AnyObject)

  /// `object` is about to be written as `newObject` (from its `replacementObject(for:)` or from
  /// ``archiver(_:willEncode:)``). Default: nothing.
  func archiver(_ archiver: KeyedArchiver, willReplace object: AnyObject, with newObject: Any?)

  /// Every object was written; the archive is about to be assembled. Default: nothing.
  func archiverWillFinish(_ archiver: KeyedArchiver)

  /// The archive is written. Default: nothing.
  func archiverDidFinish(_ archiver: KeyedArchiver)
}

extension KeyedArchiverDelegate {
  /// Default: keeps `object`.
  public func archiver(_ archiver: KeyedArchiver, willEncode object: AnyObject) -> Any? { object }
  /// Default: nothing.
  public func archiver(_ archiver: KeyedArchiver, didEncode object: AnyObject) {}
  /// Default: nothing.
  public func archiver(_ archiver: KeyedArchiver, willReplace object: AnyObject, with newObject: Any?) {}
  /// Default: nothing.
  public func archiverWillFinish(_ archiver: KeyedArchiver) {}
  /// Default: nothing.
  public func archiverDidFinish(_ archiver: KeyedArchiver) {}
}
