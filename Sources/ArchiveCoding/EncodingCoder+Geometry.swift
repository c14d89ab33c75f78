import Foundation

// The geometry calls UIKit and AppKit add to `NSCoder`. Each writes a string object in the form Apple's
// `NSStringFromCGRect` family gives (COD-101); none is a protocol requirement: each forwards to
// ``EncodingCoder/encode(_:forKey:)-(String?,_)``.
extension EncodingCoder {
  /// Writes a rectangle as `{{x, y}, {width, height}}`, as `encode(_: CGRect, forKey:)` (UIKit) and
  /// `encode(_: NSRect, forKey:)` (AppKit) do.
  public func encode(_ rect: CGRect, forKey key: String) {
    let text =
      "{\(GeometryString.pair(Double(rect.origin.x), Double(rect.origin.y))), "
      + "\(GeometryString.pair(Double(rect.size.width), Double(rect.size.height)))}"
    encode(text as String?, forKey: key)
  }

  /// Writes a point as `{x, y}`.
  public func encode(_ point: CGPoint, forKey key: String) {
    encode(GeometryString.pair(Double(point.x), Double(point.y)) as String?, forKey: key)
  }

  /// Writes a size as `{width, height}`.
  public func encode(_ size: CGSize, forKey key: String) {
    encode(GeometryString.pair(Double(size.width), Double(size.height)) as String?, forKey: key)
  }

  /// Writes edge insets as `{top, left, bottom, right}`, as UIKit's `encode(_: UIEdgeInsets, forKey:)` does.
  public func encode(_ insets: NSEdgeInsets, forKey key: String) {
    let values = [insets.top, insets.left, insets.bottom, insets.right].map { Double($0) }
    encode(GeometryString.list(values) as String?, forKey: key)
  }

  /// Writes an affine transform as `[a, b, c, d, tx, ty]`, as UIKit's `encode(_: CGAffineTransform, forKey:)` does
  /// (`m11`, `m12`, `m21`, `m22`, `tX`, `tY` of Foundation's `AffineTransform`).
  public func encode(_ transform: AffineTransform, forKey key: String) {
    let values = [transform.m11, transform.m12, transform.m21, transform.m22, transform.tX, transform.tY]
    encode(GeometryString.list(values.map { Double($0) }, brackets: true) as String?, forKey: key)
  }

  /// Writes a range as `{location, length}`, as `NSStringFromRange` gives it.
  public func encode(_ range: NSRange, forKey key: String) {
    encode("{\(range.location), \(range.length)}" as String?, forKey: key)
  }
}
