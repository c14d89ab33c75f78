import ArchiveCoding

extension ArchiveError.Code {
  /// A value decoded from an archive differs from the value that was archived.
  public static let roundTripMismatch = ArchiveError.Code("roundTripMismatch")
  /// An archive differs from its golden file.
  public static let goldenMismatch = ArchiveError.Code("goldenMismatch")
  /// The Foundation oracle refused an archive that would crash the toolchain's `NSKeyedUnarchiver`, or that
  /// unarchiver reported an error.
  public static let oracleFailed = ArchiveError.Code("oracleFailed")
}
