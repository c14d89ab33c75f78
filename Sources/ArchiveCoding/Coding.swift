/// A class whose instances can be written to and read from an archive, in the spirit of `NSCoding`.
///
/// Conforming classes implement ``init(coder:)`` and ``encode(with:)``; everything else has a default. The same
/// `init(coder:)` runs whatever the source: a binary or XML keyed archive, a compiled nib, or a XIB document.
///
///     final class Book: Coding {
///       var title: String
///       var pages: Int
///       weak var shelf: Shelf?
///       required init(coder: any DecodingCoder) throws {
///         title = try coder.decodeString(forKey: "title") ?? ""
///         pages = try coder.decodeInt(forKey: "pages")
///         // A back reference: set after construction, in the link phase, so cycles are fine.
///         try coder.decodeReference(forKey: "shelf", into: \Book.shelf)
///       }
///       func encode(with coder: any EncodingCoder) {
///         coder.encode(title, forKey: "title")
///         coder.encode(pages, forKey: "pages")
///         coder.encodeConditionalObject(shelf, forKey: "shelf")
///       }
///     }
public protocol Coding: AnyObject {
  /// Creates an instance from the fields the coder presents. Required; no default.
  /// - Throws: any error; the unarchiver reports it with the object's index, class and key path.
  init(coder: any DecodingCoder) throws

  /// Writes the instance's fields. Required; no default.
  func encode(with coder: any EncodingCoder)

  /// The class name written to archives (`$classname`). Default: the name registered in ``ClassRegistry/shared``,
  /// else `Module.Type`, as `NSStringFromClass` gives for a Swift class.
  static var archivedClassName: String { get }

  /// The version of the class's archived form, as `NSObject.version()`: a sequential (typedstream) archive records it
  /// with the class and ``DecodingCoder/version(forClassName:)`` reports what the archive recorded; a keyed archive
  /// records none (as Apple's). Default: 0.
  static var classVersion: Int { get }

  /// The class whose name is written for this instance, as `NSObject.classForCoder`: `Self` or another ``Coding``
  /// class (a class cluster's public class for a private subclass). Default: `Self`.
  var classForCoder: any Coding.Type { get }

  /// The class whose name a keyed archiver writes for this instance, as `NSObject.classForKeyedArchiver`; the
  /// instance is still encoded by its own `encode(with:)`. Default: ``classForCoder``.
  var classForKeyedArchiver: any Coding.Type { get }

  /// Class names tried in order when a reader does not know ``archivedClassName`` (`$classhints`). Default: none.
  static var classFallbacks: [String] { get }

  /// The object to archive in place of this one (`replacementObject(for:)`). Default: `self`.
  func replacementObject(for encoder: any EncodingCoder) -> AnyObject?

  /// The object to hand out in place of this one once decoding (and the link phase) finished
  /// (`awakeAfter(using:)`). Default: `self`.
  func awakeAfter(using decoder: any DecodingCoder) throws -> AnyObject
}

extension Coding {
  /// Default: the registered name, else `Module.Type`.
  public static var archivedClassName: String { ClassRegistry.shared.className(for: self) }
  /// Default: 0.
  public static var classVersion: Int { 0 }
  /// Default: `Self`.
  public var classForCoder: any Coding.Type { Self.self }
  /// Default: ``classForCoder``.
  public var classForKeyedArchiver: any Coding.Type { classForCoder }
  /// Default: no fallbacks.
  public static var classFallbacks: [String] { [] }
  /// Default: archive `self`.
  public func replacementObject(for encoder: any EncodingCoder) -> AnyObject? { self }
  /// Default: keep `self`.
  public func awakeAfter(using decoder: any DecodingCoder) throws -> AnyObject { self }
}

/// A ``Coding`` class that can be decoded safely from untrusted data: it checks the classes of the objects it
/// decodes (through ``DecodingCoder/decodeObject(of:forKey:)->T?``) and the decoder may only instantiate it when it
/// is in the allowed set.
public protocol SecureCoding: Coding {
  /// `true` when the class decodes safely. Default: `true`.
  static var supportsSecureCoding: Bool { get }
}

extension SecureCoding {
  /// Default: `true`.
  public static var supportsSecureCoding: Bool { true }
}
