import Foundation

// The geometry decode calls UIKit and AppKit add to `NSCoder`, reading the strings the encode calls write
// (COD-101). A missing key decodes as zero (`.zero`, `.identity` for a transform), as on Apple's platforms; a string
// of another shape is an error naming the key. None is a protocol requirement: each forwards to
// ``DecodingCoder/decodeString(forKey:)``.
extension DecodingCoder {
  /// Reads the string under `key` as numbers of the given shape; `nil` when the key is absent.
  private func geometry(forKey key: String, shape: String, expected: String) throws -> [Double]? {
    guard let text = try decodeString(forKey: key) else { return nil }
    guard let values = GeometryString.parse(text, shape: shape) else {
      let shown = text.count > 64 ? String(text.prefix(64)) + "…" : text
      throw ArchiveError(.corruptData, "expected \(expected), found \"\(shown)\"", at: .init(keyPath: key))
    }
    return values
  }

  /// A rectangle written as `{{x, y}, {width, height}}`, as UIKit's `decodeCGRect(forKey:)`; missing is `.zero`.
  /// - Throws: ``ArchiveError`` (`typeMismatch`) when the key holds something other than a string; `corruptData`
  ///   when the string is not a rectangle.
  public func decodeCGRect(forKey key: String) throws -> CGRect {
    try applyingFailurePolicy(.zero) {
      guard
        let v = try geometry(
          forKey: key, shape: GeometryString.rectShape, expected: "a rectangle such as {{0, 0}, {320, 480}}")
      else { return .zero }
      return CGRect(x: v[0], y: v[1], width: v[2], height: v[3])
    }
  }

  /// A point written as `{x, y}`, as UIKit's `decodeCGPoint(forKey:)`; missing is `.zero`.
  /// - Throws: ``ArchiveError`` as ``decodeCGRect(forKey:)``.
  public func decodeCGPoint(forKey key: String) throws -> CGPoint {
    try applyingFailurePolicy(.zero) {
      guard let v = try geometry(forKey: key, shape: GeometryString.pointShape, expected: "a point such as {10, 20}")
      else { return .zero }
      return CGPoint(x: v[0], y: v[1])
    }
  }

  /// A size written as `{width, height}`, as UIKit's `decodeCGSize(forKey:)`; missing is `.zero`.
  /// - Throws: ``ArchiveError`` as ``decodeCGRect(forKey:)``.
  public func decodeCGSize(forKey key: String) throws -> CGSize {
    try applyingFailurePolicy(.zero) {
      guard let v = try geometry(forKey: key, shape: GeometryString.pointShape, expected: "a size such as {320, 480}")
      else { return .zero }
      return CGSize(width: v[0], height: v[1])
    }
  }

  /// AppKit's name for ``decodeCGRect(forKey:)``.
  public func decodeRect(forKey key: String) throws -> CGRect { try decodeCGRect(forKey: key) }
  /// AppKit's name for ``decodeCGPoint(forKey:)``.
  public func decodePoint(forKey key: String) throws -> CGPoint { try decodeCGPoint(forKey: key) }
  /// AppKit's name for ``decodeCGSize(forKey:)``.
  public func decodeSize(forKey key: String) throws -> CGSize { try decodeCGSize(forKey: key) }

  /// Edge insets written as `{top, left, bottom, right}`, as UIKit's `decodeUIEdgeInsets(forKey:)`; missing is all
  /// zeros.
  /// - Throws: ``ArchiveError`` as ``decodeCGRect(forKey:)``.
  public func decodeUIEdgeInsets(forKey key: String) throws -> NSEdgeInsets {
    try applyingFailurePolicy(NSEdgeInsets()) {
      guard
        let v = try geometry(
          forKey: key, shape: GeometryString.insetsShape, expected: "edge insets such as {1, 2, 3, 4}")
      else { return NSEdgeInsets() }
      return NSEdgeInsets(top: v[0], left: v[1], bottom: v[2], right: v[3])
    }
  }

  /// An affine transform written as `[a, b, c, d, tx, ty]`, as UIKit's `decodeCGAffineTransform(forKey:)`; missing
  /// is the identity, as on Apple's platforms.
  /// - Throws: ``ArchiveError`` as ``decodeCGRect(forKey:)``.
  public func decodeCGAffineTransform(forKey key: String) throws -> AffineTransform {
    try applyingFailurePolicy(.identity) {
      guard
        let v = try geometry(
          forKey: key, shape: GeometryString.transformShape, expected: "an affine transform such as [1, 0, 0, 1, 0, 0]")
      else { return .identity }
      return AffineTransform(m11: v[0], m12: v[1], m21: v[2], m22: v[3], tX: v[4], tY: v[5])
    }
  }

  /// A range written as `{location, length}`; missing is `{0, 0}`.
  /// - Throws: ``ArchiveError`` as ``decodeCGRect(forKey:)``; `corruptData` also for a field that is not a whole
  ///   number between 0 and `Int.max`.
  public func decodeRange(forKey key: String) throws -> NSRange {
    try applyingFailurePolicy(NSRange(location: 0, length: 0)) {
      guard let text = try decodeString(forKey: key) else { return NSRange(location: 0, length: 0) }
      guard let tokens = GeometryString.tokens(text, shape: GeometryString.pointShape),
        let location = Int(tokens[0]), let length = Int(tokens[1]), location >= 0, length >= 0
      else {
        let shown = text.count > 64 ? String(text.prefix(64)) + "…" : text
        throw ArchiveError(
          .corruptData, "expected a range such as {3, 4} (two whole non-negative numbers), found \"\(shown)\"",
          at: .init(keyPath: key))
      }
      return NSRange(location: location, length: length)
    }
  }
}
