import ArchiveCoding
import ArchiveTesting
import Foundation

/// The Foundation side of a twin pair: an `NSCoding` class archived by the toolchain's `NSKeyedArchiver`.
///
/// corelibs names a Swift class without `@objc(Name)` `Module.Class` and ignores `setClassName(_:for:)` on encode
/// (research note §10, bug 5), so its archived name is `NSStringFromClass(FoundationTwin.self)`; ``OurTwin`` is
/// registered under exactly that name.
///
/// corelibs treats an absent key as an error in `decodeObject(forKey:)` (bug 2), so every optional field is read
/// only after `containsValue(forKey:)` says it is there.
final class FoundationTwin: NSObject, NSCoding {
  var label: String?
  var count: Int64 = 0
  var small: Int32 = 0
  var flag = false
  var ratio = 0.0
  var single: Float = 0
  var bytes: Data?
  var weird: Int64 = 0
  var payload: Any?
  var buddy: FoundationTwin?

  override init() { super.init() }

  required init?(coder: NSCoder) {
    label = coder.containsValue(forKey: "label") ? coder.decodeObject(forKey: "label") as? String : nil
    count = coder.decodeInt64(forKey: "count")
    small = coder.decodeInt32(forKey: "small")
    flag = coder.decodeBool(forKey: "flag")
    ratio = coder.decodeDouble(forKey: "ratio")
    single = coder.decodeFloat(forKey: "single")
    if coder.containsValue(forKey: "bytes") {
      bytes = coder.withDecodedUnsafeBufferPointer(forKey: "bytes") { $0.map { Data(buffer: $0) } ?? Data() }
    }
    weird = coder.decodeInt64(forKey: "$weird")
    payload = coder.containsValue(forKey: "payload") ? coder.decodeObject(forKey: "payload") : nil
    buddy = coder.containsValue(forKey: "buddy") ? coder.decodeObject(forKey: "buddy") as? FoundationTwin : nil
    super.init()
  }

  func encode(with coder: NSCoder) {
    coder.encode(label, forKey: "label")
    coder.encode(count, forKey: "count")
    coder.encode(small, forKey: "small")
    coder.encode(flag, forKey: "flag")
    coder.encode(ratio, forKey: "ratio")
    coder.encode(single, forKey: "single")
    if let bytes {
      bytes.withUnsafeBytes { buffer in
        coder.encodeBytes(buffer.bindMemory(to: UInt8.self).baseAddress, length: buffer.count, forKey: "bytes")
      }
    }
    coder.encode(weird, forKey: "$weird")
    coder.encode(payload, forKey: "payload")
    // Conditional references are left out of Foundation-written archives: corelibs drops forward ones (bug 6).
  }

  /// The archived class name corelibs writes.
  static let archivedName = NSStringFromClass(FoundationTwin.self)

  /// Snapshots a `FoundationTwin` with the fields ``OurTwin/encode(with:)`` writes, under the same class name, so
  /// the two sides compare node for node.
  static let describer: ValueSnapshot.ObjectDescriber = { object in
    guard let twin = object as? FoundationTwin else { return nil }
    var fields: [(key: String, value: Any?)] = [
      ("label", twin.label), ("count", twin.count), ("small", twin.small), ("flag", twin.flag), ("ratio", twin.ratio),
      ("single", twin.single), ("$weird", twin.weird), ("payload", twin.payload), ("buddy", twin.buddy),
    ]
    if let bytes = twin.bytes { fields.append(("bytes", bytes)) }
    return (archivedName, fields)
  }
}

/// Our side of the twin pair: the same fields and keys as ``FoundationTwin``, as a ``Coding`` class.
final class OurTwin: Coding {
  var label: String?
  var count: Int64 = 0
  var small: Int32 = 0
  var flag = false
  var ratio = 0.0
  var single: Float = 0
  var bytes: Data?
  var weird: Int64 = 0
  var payload: Any?
  /// Written as a conditional reference; the graphs are acyclic, so a strong reference is fine.
  var buddy: OurTwin?

  init() {}

  required init(coder: any DecodingCoder) throws {
    label = try coder.decodeString(forKey: "label")
    count = try coder.decodeInt64(forKey: "count")
    small = try coder.decodeInt32(forKey: "small")
    flag = try coder.decodeBool(forKey: "flag")
    ratio = try coder.decodeDouble(forKey: "ratio")
    single = try coder.decodeFloat(forKey: "single")
    bytes = try coder.decodeBytes(forKey: "bytes")
    weird = try coder.decodeInt64(forKey: "$weird")
    payload = try coder.decodeObject(forKey: "payload")
    // A back reference through the link phase, whichever library wrote the archive.
    try coder.decodeReference(forKey: "buddy", into: \OurTwin.buddy)
  }

  func encode(with coder: any EncodingCoder) {
    coder.encode(label, forKey: "label")
    coder.encode(count, forKey: "count")
    coder.encode(small, forKey: "small")
    coder.encode(flag, forKey: "flag")
    coder.encode(ratio, forKey: "ratio")
    coder.encode(single, forKey: "single")
    if let bytes { coder.encodeBytes(bytes, forKey: "bytes") }
    coder.encode(weird, forKey: "$weird")
    coder.encodeObject(payload, forKey: "payload")
    coder.encodeConditionalObject(buddy, forKey: "buddy")
  }
}
