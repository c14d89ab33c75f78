import Foundation

// `NSCoder.version(forClassName:)` (COD-111).
extension DecodingCoder {
  /// Default: ``defaultVersion(forClassName:)``.
  public func version(forClassName className: String) -> Int { defaultVersion(forClassName: className) }

  /// The default implementation of ``version(forClassName:)``, for coders that override it to fall back on: the
  /// version the archive recorded (``classVersionSource``), else the ``Coding/classVersion`` of the class the
  /// ``registry`` decodes the name as, else `NSNotFound`.
  package func defaultVersion(forClassName className: String) -> Int {
    if let recorded = classVersionSource?.recordedVersion(forClassName: className) { return recorded }
    return registry.type(forClassName: className)?.classVersion ?? NSNotFound
  }
}
