/// Limits applied while reading a NIBArchive (rule NIBA-017).
///
/// The reader never sizes an allocation from a count in the file without first checking that the file has room for
/// that many records; these limits add a ceiling chosen by the caller. A file that goes over one of them is rejected
/// with ``/ArchiveCoding/ArchiveError/Code/limitExceeded`` before any table is read. The defaults accept every real
/// nib seen (the largest has a few thousand objects) with a wide margin.
public struct NIBArchiveDecodingOptions: Hashable, Sendable {
  /// The largest input accepted, in bytes. Default: 64 MiB.
  public var maxTotalBytes: Int
  /// The largest object count accepted. Default: 1,048,576.
  public var maxObjects: Int
  /// The largest key count accepted. Default: 262,144.
  public var maxKeys: Int
  /// The largest value count accepted. Default: 4,194,304.
  public var maxValues: Int
  /// The largest class-name count accepted. Default: 65,536.
  public var maxClassNames: Int

  /// Creates options; every limit has a default that accepts every real nib seen.
  /// - Parameters:
  ///   - maxTotalBytes: the largest input, in bytes.
  ///   - maxObjects: the largest object count.
  ///   - maxKeys: the largest key count.
  ///   - maxValues: the largest value count.
  ///   - maxClassNames: the largest class-name count.
  public init(
    maxTotalBytes: Int = 64 << 20, maxObjects: Int = 1 << 20, maxKeys: Int = 1 << 18, maxValues: Int = 1 << 22,
    maxClassNames: Int = 1 << 16
  ) {
    self.maxTotalBytes = maxTotalBytes
    self.maxObjects = maxObjects
    self.maxKeys = maxKeys
    self.maxValues = maxValues
    self.maxClassNames = maxClassNames
  }
}
