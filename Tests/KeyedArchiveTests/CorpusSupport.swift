import ArchiveCoding
import Foundation
import TestSupport

@testable import KeyedArchive

/// The real-world archives in `../shared/corpus/archives` (third-party data, read in place, never copied).
enum ArchiveCorpus {
  static let directory: URL? = corpusRoot?.appendingPathComponent("archives")

  /// `true` when the corpus is present (tests that need it are skipped otherwise).
  static var isPresent: Bool { directory != nil }

  /// The files the MANIFEST lists, by kind (`valid` or `negative`).
  static let manifest = CorpusManifest.rows(in: directory)

  static var valid: [String] { manifest.filter { $0.kind == "valid" }.map(\.file) }
  static var negative: [String] { manifest.filter { $0.kind == "negative" }.map(\.file) }

  static func data(_ name: String) throws -> Data {
    guard let directory else { throw CocoaError(.fileNoSuchFile) }
    return try Data(contentsOf: directory.appendingPathComponent(name))
  }

  /// Decodes every top-level key of an archive (unknown classes generically), and then every object of
  /// `$objects` (as `keyed validate` does).
  static func decodeEverything(_ data: Data) throws -> [String: Any?] {
    let unarchiver = try KeyedUnarchiver(forReadingFrom: data, requiringSecureCoding: false)
    unarchiver.registry = corpusRegistry
    unarchiver.decodesUnknownClassesGenerically = true
    var result: [String: Any?] = [:]
    for key in unarchiver.topLevelKeys {
      // Top-level keys are stored keys (`$0` is an unkeyed slot).
      result[key] = try unarchiver.decodeObject(forStoredKey: key, allowedClasses: nil)
    }
    for uid in 1..<max(1, unarchiver.objectCount) { _ = try unarchiver.decodeAny(uid: uid) }
    return result
  }
}

/// `crap.Foo` from the bpylist2 fixtures: title, count, active, categories, metadata, stamp, and a `recursive`
/// reference decoded in the link phase (one fixture points it at the object itself). It keeps the fields it does not
/// read, and writes them back (COD-210).
final class CrapFoo: KeepsUnreadFields {
  var unreadFields = UnreadFields()
  var title: String?
  var count = 0
  var active = false
  var categories: [String]?
  var metadata: [String: String]?
  var stamp: Date?
  var recursive: CrapFoo?

  init() {}

  required init(coder: any DecodingCoder) throws {
    title = try coder.decodeString(forKey: "title")
    count = try coder.decodeInt(forKey: "count")
    active = try coder.decodeBool(forKey: "active")
    categories = try coder.decodeArrayOfObjects(ofClass: String.self, forKey: "categories")
    metadata = try coder.decodeObject(of: [String: String].self, forKey: "metadata")
    stamp = try coder.decodeObject(of: Date.self, forKey: "stamp")
    try coder.decodeReference(forKey: "recursive", into: \CrapFoo.recursive)
  }

  func encode(with coder: any EncodingCoder) {
    coder.encode(title, forKey: "title")
    coder.encode(count, forKey: "count")
    coder.encode(active, forKey: "active")
    coder.encodeObject(categories, forKey: "categories")
    coder.encodeObject(metadata, forKey: "metadata")
    coder.encodeObject(stamp, forKey: "stamp")
    coder.encodeObject(recursive, forKey: "recursive")
  }
}
