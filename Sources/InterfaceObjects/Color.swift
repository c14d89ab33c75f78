import ArchiveCoding
import NibLoading

/// A colour: RGBA components, or a named system or catalog colour with its resolved fallback.
public struct Color: Hashable, Sendable, CustomStringConvertible {
  /// Red, 0…1.
  public var red: Double
  /// Green, 0…1.
  public var green: Double
  /// Blue, 0…1.
  public var blue: Double
  /// Alpha, 0…1.
  public var alpha: Double
  /// The name, for system and catalog colours (`"systemBackgroundColor"`, `"labelColor"`).
  public var name: String?

  /// Creates a colour from components.
  public init(red: Double, green: Double, blue: Double, alpha: Double = 1, name: String? = nil) {
    self.red = red
    self.green = green
    self.blue = blue
    self.alpha = alpha
    self.name = name
  }

  /// Creates a grey.
  public init(white: Double, alpha: Double = 1) {
    self.init(red: white, green: white, blue: white, alpha: alpha)
  }

  /// Opaque black.
  public static let black = Color(white: 0)
  /// Opaque white.
  public static let white = Color(white: 1)
  /// Fully transparent.
  public static let clear = Color(white: 0, alpha: 0)

  /// `rgba(r, g, b, a)` or the name.
  public var description: String {
    if let name { return name }
    return "rgba(\(red), \(green), \(blue), \(alpha))"
  }
}

/// A font: a system font of a size and weight, a text style, or a named font.
public struct Font: Hashable, Sendable {
  /// The font's name, or `nil` for the system font.
  public var name: String?
  /// The point size.
  public var pointSize: Double
  /// The weight or type (`"system"`, `"boldSystem"`, `"semibold"`).
  public var style: String?

  /// Creates a font.
  public init(name: String? = nil, pointSize: Double, style: String? = nil) {
    self.name = name
    self.pointSize = pointSize
    self.style = style
  }

  /// The system font at 17 points.
  public static let system = Font(pointSize: 17, style: "system")
}

/// An image reference by name (no pixels are loaded on Linux).
public struct Image: Hashable, Sendable {
  /// The image's name in the app's resources.
  public var name: String
  /// Creates an image reference.
  public init(named name: String) { self.name = name }
}

extension Color: KeyValueConvertible {
  /// A colour from a XIB `<color>` record or a compiled colour object.
  public init?(keyValue: Any) {
    switch keyValue {
    case let record as NibRecord: self.init(record: record)
    case let object as ColorObject: self = object.color
    default: return nil
    }
  }
}
