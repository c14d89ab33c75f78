/// The wire constants of the typedstream format, in one place (TS-002, TS-003).
package enum TypedstreamFormat {
  /// The streamer version this library reads and writes.
  package static let streamerVersion: UInt8 = 4
  /// The signature of a little-endian stream.
  package static let littleEndianSignature: [UInt8] = Array("streamtyped".utf8)
  /// The signature of a big-endian stream.
  package static let bigEndianSignature: [UInt8] = Array("typedstream".utf8)
  /// The system version Mac OS X writers store.
  package static let defaultSystemVersion: Int64 = 1000

  /// Head bytes that are tags, not integers: -128...-111 (0x80...0x91).
  package static let smallestInteger: Int8 = -110
  /// A 16-bit integer follows.
  package static let int16Tag: Int8 = -127
  /// A 32-bit integer follows.
  package static let int32Tag: Int8 = -126
  /// A 4-byte `float` or 8-byte `double` follows.
  package static let realTag: Int8 = -125
  /// A new literal (string, class, object, C string) follows.
  package static let newTag: Int8 = -124
  /// No value (nil).
  package static let nilTag: Int8 = -123
  /// The end of an object's groups.
  package static let endTag: Int8 = -122
  /// A 64-bit integer follows (written by Apple's `NSArchiver` for `q` and `Q`).
  package static let int64Tag: Int8 = -121
  /// A reference's integer is its table index plus this.
  package static let referenceBase: Int64 = -110

  /// `true` when `data` starts like a typedstream: streamer version 4, length 11 and either signature.
  package static func hasMagic<Bytes: Collection<UInt8>>(_ data: Bytes) -> Bool {
    let head = Array(data.prefix(13))
    guard head.count == 13, head[0] == streamerVersion, head[1] == 11 else { return false }
    let signature = Array(head[2...])
    return signature == littleEndianSignature || signature == bigEndianSignature
  }
}
