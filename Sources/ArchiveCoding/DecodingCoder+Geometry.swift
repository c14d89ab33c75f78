import Foundation

// The geometry decode calls UIKit and AppKit add to `NSCoder`, reading the strings the encode calls write
// (COD-101). A missing key decodes as zero (`.zero`, `.identity` for a transform), as on Apple's platforms; a string
// of another shape is an error naming the key. None is a protocol requirement: each forwards to
// ``DecodingCoder/decodeString(forKey:)``.
extension DecodingCoder {
  /// Reads the string under `key` as numbers of the given shape and makes the value from them; `missing` when the
  /// key is absent. The decoding-failure policy applies (a failure gives `missing`).
  private func geometry<Value>(
    forKey key: String, shape: String, expected: String, missing: Value, make: ([Double]) -> Value
  ) throws -> Value {
    try applyingFailurePolicy(missing) {
      guard let text = try decodeString(forKey: key) else { return missing }
      guard let values = GeometryString.parse(text, shape: shape) else {
        let shown = text.count > 64 ? String(text.prefix(64)) + "…" : text
        throw ArchiveError(.corruptData, "expected \(expected), found \"\(shown)\"", at: .init(keyPath: key))
      }
      return make(values)
    }
  }

  /// A rectangle written as `{{x, y}, {width, height}}`, as UIKit's `decodeCGRect(forKey:)`; missing is `.zero`.
  /// - Throws: ``ArchiveError`` (`typeMismatch`) when the key holds something other than a string; `corruptData`
  ///   when the string is not a rectangle.
  public func decodeCGRect(forKey key: String) throws -> CGRect {
    try geometry(
      forKey: key, shape: GeometryString.rectShape, expected: "a rectangle such as {{0, 0}, {320, 480}}",
      missing: .zero
    ) { CGRect(x: $0[0], y: $0[1], width: $0[2], height: $0[3]) }
  }

  /// A point written as `{x, y}`, as UIKit's `decodeCGPoint(forKey:)`; missing is `.zero`.
  /// - Throws: ``ArchiveError`` as ``decodeCGRect(forKey:)``.
  public func decodeCGPoint(forKey key: String) throws -> CGPoint {
    try geometry(forKey: key, shape: GeometryString.pointShape, expected: "a point such as {10, 20}", missing: .zero) {
      CGPoint(x: $0[0], y: $0[1])
    }
  }

  /// A size written as `{width, height}`, as UIKit's `decodeCGSize(forKey:)`; missing is `.zero`.
  /// - Throws: ``ArchiveError`` as ``decodeCGRect(forKey:)``.
  public func decodeCGSize(forKey key: String) throws -> CGSize {
    try geometry(forKey: key, shape: GeometryString.pointShape, expected: "a size such as {320, 480}", missing: .zero) {
      CGSize(width: $0[0], height: $0[1])
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
    try geometry(
      forKey: key, shape: GeometryString.insetsShape, expected: "edge insets such as {1, 2, 3, 4}",
      missing: NSEdgeInsets()
    ) { NSEdgeInsets(top: $0[0], left: $0[1], bottom: $0[2], right: $0[3]) }
  }

  /// An affine transform written as `[a, b, c, d, tx, ty]`, as UIKit's `decodeCGAffineTransform(forKey:)`; missing
  /// is the identity, as on Apple's platforms.
  /// - Throws: ``ArchiveError`` as ``decodeCGRect(forKey:)``.
  public func decodeCGAffineTransform(forKey key: String) throws -> AffineTransform {
    try geometry(
      forKey: key, shape: GeometryString.transformShape, expected: "an affine transform such as [1, 0, 0, 1, 0, 0]",
      missing: .identity
    ) { AffineTransform(m11: $0[0], m12: $0[1], m21: $0[2], m22: $0[3], tX: $0[4], tY: $0[5]) }
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
