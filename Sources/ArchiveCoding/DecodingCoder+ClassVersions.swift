import Foundation

// `NSCoder.version(forClassName:)` (COD-111).
extension DecodingCoder {
  /// The version of the class named `className` in effect for this archive, as `NSCoder.version(forClassName:)`:
  /// the version the archive recorded for it (``classVersionSource``), else the ``Coding/classVersion`` of the class
  /// the ``registry`` decodes the name as, else `NSNotFound`. Not a requirement: built on ``classVersionSource`` and
  /// ``registry``.
  public func version(forClassName className: String) -> Int {
    if let recorded = classVersionSource?.recordedVersion(forClassName: className) { return recorded }
    return registry.type(forClassName: className)?.classVersion ?? NSNotFound
  }
}
