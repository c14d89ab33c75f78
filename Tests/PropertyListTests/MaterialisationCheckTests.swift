import ArchiveCoding
import Foundation
import TestSupport
import Testing

@testable import PropertyList

/// ARC-331: `checkValue(of:)` of a list checked when it was read counts a tree of containers with a bit per object,
/// and falls back to the general count otherwise; either way its result is the general check's, which a reader
/// that checks on access runs.
@Suite("Materialisation check")
struct MaterialisationCheckTests {
  /// A 16-byte integer that does not fit in 64 bits.
  static let wideInteger: [UInt8] = [0x14] + [UInt8](repeating: 0x01, count: 16)
  /// An ASCII string holding a byte that is not ASCII.
  static let badString: [UInt8] = [0x52, 0x61, 0xFF]

  /// `checkValue` of the top object through a reader of `validation`: "ok" or the error.
  static func check(
    _ bytes: [UInt8], _ validation: BinaryPropertyListReader.Validation, _ options: PropertyListDecodingOptions
  )
    -> String
  {
    do {
      let reader = try BinaryPropertyListReader(bytes: bytes, options: options, validation: validation)
      try reader.checkValue(of: reader.topObject)
      return "ok"
    } catch {
      return "\(error)"
    }
  }

  /// The checked reader's result, which must equal the general check's (a reader that checks on access).
  static func checked(
    _ bytes: [UInt8], options: PropertyListDecodingOptions = .default, sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> String {
    _ = try BinaryPropertyListReader(bytes: bytes, options: options, validation: .full)
    let full = check(bytes, .full, options)
    #expect(full == check(bytes, .onAccess, options), sourceLocation: sourceLocation)
    return full
  }

  /// Whether the checked reader takes the tree path for the top object (`nil` when that path throws).
  static func takesTreePath(_ bytes: [UInt8], options: PropertyListDecodingOptions = .default) throws -> Bool? {
    let reader = try BinaryPropertyListReader(bytes: bytes, options: options, validation: .full)
    return try? reader.checkTree(from: reader.topObject)
  }

  @Test("ARC-331: a tree of containers is checked in one pass, as the general check checks it")
  func tree() throws {
    var plist = RawPropertyList()
    let inner = plist.array([plist.integer(1), plist.string("two"), plist.array([])])
    let top = plist.dictionary([(plist.string("a"), inner), (plist.string("b"), plist.array([plist.integer(3)]))])
    #expect(try Self.checked(plist.bytes(top: UInt64(top))) == "ok")
    #expect(try Self.takesTreePath(plist.bytes(top: UInt64(top))) == true)
  }

  @Test("ARC-331: a bad value before a shared container is reported after the general count")
  func readErrorBeforeSharedContainer() throws {
    var plist = RawPropertyList()
    let bad = plist.add(Self.badString)
    let shared = plist.array([plist.integer(1), plist.integer(2)])
    let top = plist.array([bad, shared, shared])
    let bytes = plist.bytes(top: UInt64(top))
    #expect(try Self.takesTreePath(bytes) == false)
    var options = PropertyListDecodingOptions.default
    options.maxExpandedValueCount = 7
    #expect(try Self.checked(bytes, options: options).contains("expands to more than 7"))
    options.maxExpandedValueCount = 8
    let error = try Self.checked(bytes, options: options)
    #expect(error != "ok" && !error.contains("expands"), "\(error)")
  }

  @Test("ARC-331: a container reached twice is counted each time, by the general check")
  func sharedContainer() throws {
    var plist = RawPropertyList()
    let shared = plist.array([plist.integer(1), plist.integer(2), plist.integer(3)])
    let top = plist.array([shared, shared, shared])
    let bytes = plist.bytes(top: UInt64(top))
    #expect(try Self.checked(bytes) == "ok")
    #expect(try Self.takesTreePath(bytes) == false)
    // 1 + 3 × 4 values: within 13, past 12.
    var options = PropertyListDecodingOptions.default
    options.maxExpandedValueCount = 13
    #expect(try Self.checked(bytes, options: options) == "ok")
    options.maxExpandedValueCount = 12
    #expect(try Self.checked(bytes, options: options).contains("expands to more than 12 values"))
  }

  @Test("ARC-331: an expansion past the limit is reported before a bad value read earlier")
  func limitBeforeReadError() throws {
    var plist = RawPropertyList()
    let bad = plist.add(Self.badString)
    let top = plist.array([bad] + (0..<20).map { plist.integer($0) })
    var options = PropertyListDecodingOptions.default
    options.maxExpandedValueCount = 10
    #expect(try Self.checked(plist.bytes(top: UInt64(top)), options: options).contains("expands to more than 10"))
    options.maxExpandedValueCount = 100
    let error = try Self.checked(plist.bytes(top: UInt64(top)), options: options)
    #expect(error != "ok" && !error.contains("expands"))
  }

  @Test("ARC-331: the first bad value in reading order is the one reported")
  func firstReadError() throws {
    var plist = RawPropertyList()
    let wide = plist.add(Self.wideInteger)
    let bad = plist.add(Self.badString)
    let top = plist.dictionary([(plist.string("k"), plist.array([plist.integer(0), wide])), (bad, plist.integer(1))])
    let error = try Self.checked(plist.bytes(top: UInt64(top)))
    #expect(error.contains("16-byte integer"), "\(error)")
  }

  @Test("ARC-331: a container reached again deeper than the limit allows is refused, by the general check")
  func sharedTooDeep() throws {
    // x (height 2) is first reached at depth 3 (top, a, x), then at depth 5 (top, b, b1, b2, x): 6 levels there.
    var plist = RawPropertyList()
    let x = plist.array([plist.array([plist.integer(1)])])
    let a = plist.array([x])
    let b = plist.array([plist.array([plist.array([x])])])
    let top = plist.array([a, b])
    var options = PropertyListDecodingOptions.default
    options.maxDepth = 5
    let error = try Self.checked(plist.bytes(top: UInt64(top)), options: options)
    #expect(error.contains("deeper than the limit of 5"), "\(error)")
    options.maxDepth = 6
    #expect(try Self.checked(plist.bytes(top: UInt64(top)), options: options) == "ok")
  }

  @Test("ARC-331: a scalar top object and an empty container are checked alike")
  func smallLists() throws {
    var plist = RawPropertyList()
    let top = plist.add(Self.wideInteger)
    #expect(try Self.checked(plist.bytes(top: UInt64(top))).contains("16-byte integer"))
    var empty = RawPropertyList()
    let array = empty.array([])
    #expect(try Self.checked(empty.bytes(top: UInt64(array))) == "ok")
  }
}
