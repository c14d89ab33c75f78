/// A point, in points.
public struct Point: Hashable, Sendable, CustomStringConvertible {
  /// The horizontal coordinate.
  public var x: Double
  /// The vertical coordinate.
  public var y: Double
  /// Creates a point.
  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }
  /// The origin.
  public static let zero = Point(x: 0, y: 0)
  /// `{x, y}`.
  public var description: String { "{\(Rect.format(x)), \(Rect.format(y))}" }
}

/// A size, in points.
public struct Size: Hashable, Sendable, CustomStringConvertible {
  /// The width.
  public var width: Double
  /// The height.
  public var height: Double
  /// Creates a size.
  public init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }
  /// The empty size.
  public static let zero = Size(width: 0, height: 0)
  /// `{w, h}`.
  public var description: String { "{\(Rect.format(width)), \(Rect.format(height))}" }
}

/// A rectangle: an origin and a size.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
  /// The origin.
  public var origin: Point
  /// The size.
  public var size: Size
  /// Creates a rectangle.
  public init(origin: Point, size: Size) {
    self.origin = origin
    self.size = size
  }
  /// Creates a rectangle from its four numbers.
  public init(x: Double, y: Double, width: Double, height: Double) {
    self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
  }
  /// The empty rectangle at the origin.
  public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)
  /// The smallest x.
  public var minX: Double { origin.x }
  /// The smallest y.
  public var minY: Double { origin.y }
  /// The width.
  public var width: Double { size.width }
  /// The height.
  public var height: Double { size.height }
  /// The centre.
  public var center: Point { Point(x: origin.x + size.width / 2, y: origin.y + size.height / 2) }
  /// `{{x, y}, {w, h}}`.
  public var description: String { "{\(origin), \(size)}" }

  static func format(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
  }
}

/// Insets from the four edges of a rectangle.
public struct EdgeInsets: Hashable, Sendable {
  /// Top inset.
  public var top: Double
  /// Left inset.
  public var left: Double
  /// Bottom inset.
  public var bottom: Double
  /// Right inset.
  public var right: Double
  /// Creates insets.
  public init(top: Double, left: Double, bottom: Double, right: Double) {
    self.top = top
    self.left = left
    self.bottom = bottom
    self.right = right
  }
  /// No insets.
  public static let zero = EdgeInsets(top: 0, left: 0, bottom: 0, right: 0)
}

/// Which margins and dimensions of a view follow its superview's size (`UIView.AutoresizingMask`).
public struct AutoresizingMask: OptionSet, Hashable, Sendable {
  /// The raw bits, as UIKit numbers them.
  public let rawValue: UInt64
  /// Creates a mask from raw bits.
  public init(rawValue: UInt64) { self.rawValue = rawValue }
  /// The left margin is flexible.
  public static let flexibleLeftMargin = AutoresizingMask(rawValue: 1 << 0)
  /// The width is flexible.
  public static let flexibleWidth = AutoresizingMask(rawValue: 1 << 1)
  /// The right margin is flexible.
  public static let flexibleRightMargin = AutoresizingMask(rawValue: 1 << 2)
  /// The top margin is flexible.
  public static let flexibleTopMargin = AutoresizingMask(rawValue: 1 << 3)
  /// The height is flexible.
  public static let flexibleHeight = AutoresizingMask(rawValue: 1 << 4)
  /// The bottom margin is flexible.
  public static let flexibleBottomMargin = AutoresizingMask(rawValue: 1 << 5)
}

/// How a view lays out its content (`UIView.ContentMode`), by its XIB names.
public enum ContentMode: String, Hashable, Sendable, CaseIterable {
  /// Scale to fill (the default).
  case scaleToFill
  /// Scale to fit, keeping the aspect ratio.
  case scaleAspectFit
  /// Scale to fill, keeping the aspect ratio.
  case scaleAspectFill
  /// Redraw on bounds change.
  case redraw
  /// Centred.
  case center
  /// Top.
  case top
  /// Bottom.
  case bottom
  /// Left.
  case left
  /// Right.
  case right
  /// Top left.
  case topLeft
  /// Top right.
  case topRight
  /// Bottom left.
  case bottomLeft
  /// Bottom right.
  case bottomRight

  /// UIKit's raw number for the mode (compiled nibs store it in `UIContentMode`).
  public init?(number: Int) {
    let all = ContentMode.allCases
    guard number >= 0, number < all.count else { return nil }
    self = all[number]
  }
}
