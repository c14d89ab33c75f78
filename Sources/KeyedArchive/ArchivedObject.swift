import ArchiveCoding
import Foundation
import PropertyList

/// An archived object of a class this process does not know, kept with its class name and raw fields.
///
/// The unarchiver produces it for unknown classes when asked to (``KeyedUnarchiver/decodesUnknownClassesGenerically``),
/// which is what `keyed dump` uses; the archiver writes it back with the same class, chain, hints and fields, so a
/// decode–encode round trip loses nothing (COD-202).
public final class ArchivedObject: CustomStringConvertible {
  /// A field's value.
  public enum Field {
    /// An inline primitive.
    case value(PropertyListValue)
    /// A reference to another object (`nil` for `$null`); a reference that closes a cycle is a ``BackReference``.
    case object(Any?)
    /// An inline array of references (`NS.objects`, `NS.keys`).
    case objects([Any?])
  }

  /// A reference from inside an object's fields (or a collection among them) back to a generic object that is
  /// still being decoded around it: the edge that closes a reference cycle.
  ///
  /// Swift frees objects by reference counting, so a cycle of strong references is never freed. The unarchiver
  /// hands out every edge that closes a cycle through generic objects as this weak reference, which keeps a
  /// decoded graph free of strong cycles while the value returned for the root holds every object. The archiver
  /// and `ArchiveTesting` treat a back reference as the object it refers to, so a round trip keeps the cycle.
  public final class BackReference: CustomStringConvertible {
    /// The object referred to; `nil` once the graph holding it has been released.
    public private(set) weak var object: ArchivedObject?
    /// The object's index in `$objects`.
    public let objectIndex: Int?

    /// Creates a weak reference to `object`.
    public init(_ object: ArchivedObject) {
      self.object = object
      self.objectIndex = object.objectIndex
    }

    /// `→ ClassName`, or `→ (released)`.
    public var description: String { "→ " + (object?.className ?? "(released)") }
  }

  /// One field, under its key as stored in the archive (`$`-escaped).
  public struct Entry {
    /// The key as stored (a user key starting with `$` is stored with one more `$`).
    public var key: String
    /// The value.
    public var value: Field
    /// Creates a field under a stored (escaped) key.
    public init(key: String, value: Field) {
      self.key = key
      self.value = value
    }
    /// The key as the object's class wrote it (escaping undone).
    public var unescapedKey: String { KeyedArchiveGraph.unescaped(key) }
  }

  /// The archived class name (`$classname`).
  public let className: String
  /// The archived class chain (`$classes`), most derived first.
  public let classChain: [String]
  /// The classes the writer named to decode the object as where its class is unknown (`$classhints`), in order.
  public let classHints: [String]
  /// The fields in archive order, without `$class`.
  public var fields: [Entry]
  /// The object's index in `$objects`, when it was decoded from an archive.
  public let objectIndex: Int?

  /// Creates a generic object.
  public init(
    className: String, classChain: [String] = [], classHints: [String] = [], fields: [Entry] = [],
    objectIndex: Int? = nil
  ) {
    self.className = className
    self.classChain = classChain
    self.classHints = classHints
    self.fields = fields
    self.objectIndex = objectIndex
  }

  /// The value of a field, by the key its class wrote.
  public subscript(key: String) -> Field? {
    let stored = KeyedArchiver.escape(key)
    return fields.first { $0.key == stored }?.value
  }

  /// `ClassName(key: value, …)`, one level deep.
  public var description: String {
    "\(className)(" + fields.map { "\($0.unescapedKey)" }.joined(separator: ", ") + ")"
  }
}

/// An `NSValue` holding one of the geometry or range types Apple archives with `NS.special`.
public enum ArchivedValue: Hashable, Sendable {
  /// `NS.special` 1: a point, `NS.pointval` = `"{x, y}"`.
  case point(x: Double, y: Double)
  /// `NS.special` 2: a size, `NS.sizeval` = `"{w, h}"`.
  case size(width: Double, height: Double)
  /// `NS.special` 3: a rectangle, `NS.rectval` = `"{{x, y}, {w, h}}"`.
  case rect(x: Double, y: Double, width: Double, height: Double)
  /// `NS.special` 4: a range, `NS.rangeval.location` and `NS.rangeval.length` as number objects.
  case range(location: Int64, length: Int64)
  /// `NS.special` 10: an affine transform, inline doubles `NS.atval.a` … `NS.atval.ty`.
  case transform(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double)
  /// `NS.special` 11 (UIKit) or 12 (AppKit): edge insets, inline doubles `NS.edgeval.top/left/bottom/right`.
  case edgeInsets(top: Double, left: Double, bottom: Double, right: Double, special: Int64)

  /// The `NS.special` number.
  public var special: Int64 {
    switch self {
    case .point: 1
    case .size: 2
    case .rect: 3
    case .range: 4
    case .transform: 10
    case .edgeInsets(_, _, _, _, let special): special
    }
  }
}
