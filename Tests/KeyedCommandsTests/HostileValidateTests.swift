import Foundation
import PropertyList
import Testing

#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// `keyed validate` as a separate process on hostile files: deep nesting, counts far larger than the file, long
/// chains of objects, and random mutations of real files of every format. The process must exit 0 or 65 (with a
/// diagnostic), never die from a signal, within seconds and within 4 GB of address space.
@Suite("Hostile input through keyed validate", .serialized)
struct HostileValidateTests {
  /// CPU-time limit per file (`ulimit -t`; a debug build), and a wall-clock limit against hangs that use no CPU
  /// (the machine is shared, so wall-clock time says little about the work done).
  static let cpuSecondsLimit = 20
  static let secondsLimit = 120.0

  /// Runs `keyed validate FILE` under `ulimit -v` (4 GiB) and `ulimit -t`, killing it after ``secondsLimit``.
  static func validate(_ file: URL) throws -> (status: Int32, signalled: Bool, errors: String, seconds: Double) {
    try runLimited(["validate", file.path])
  }

  /// Runs `keyed` with `arguments` under the limits of ``validate(_:)``.
  static func runLimited(
    _ arguments: [String]
  ) throws -> (
    status: Int32, signalled: Bool, errors: String, seconds: Double
  ) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments =
      ["-c", "ulimit -v 4194304; ulimit -t \(cpuSecondsLimit); exec \"$0\" \"$@\"", keyedExecutable.path] + arguments
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    let started = Date()
    try process.run()
    let deadline = started.addingTimeInterval(secondsLimit)
    while process.isRunning, Date() < deadline { usleep(5_000) }
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    let collected = errors.fileHandleForReading.readDataToEndOfFile()
    return (
      process.terminationStatus, process.terminationReason == .uncaughtSignal,
      String(decoding: collected, as: UTF8.self),
      Date().timeIntervalSince(started)
    )
  }

  /// Checks the contract on one file and returns its exit status.
  @discardableResult
  static func expectContract(_ file: URL, _ what: String) throws -> Int32 {
    let result = try validate(file)
    #expect(!result.signalled, "\(what): killed by signal \(result.status) after \(result.seconds) s: \(result.errors)")
    #expect(result.seconds < secondsLimit, "\(what): took \(result.seconds) s")
    #expect([0, 65].contains(result.status), "\(what): exit \(result.status): \(result.errors)")
    if result.status == 65 {
      #expect(
        result.errors.contains(file.lastPathComponent), "\(what): the diagnostic names the file: \(result.errors)")
    }
    return result.status
  }

  /// `original` with one mutation, chosen by `round`: truncated, four bytes flipped, a run copied over another, or a
  /// large value where counts and offsets live.
  static func mutate(_ original: [UInt8], round: Int, using generator: inout SplitMix64) -> [UInt8] {
    var bytes = original
    switch round % 4 {
    case 0: bytes.removeLast(Int.random(in: 1..<bytes.count, using: &generator))
    case 1:
      for _ in 0..<4 {
        bytes[Int.random(in: 0..<bytes.count, using: &generator)] ^= UInt8.random(in: 1...255, using: &generator)
      }
    case 2:
      let from = Int.random(in: 0..<bytes.count, using: &generator)
      let to = Int.random(in: 0..<bytes.count, using: &generator)
      let length = min(64, bytes.count - max(from, to))
      bytes.replaceSubrange(to..<(to + length), with: original[from..<(from + length)])
    default:
      // Large values where counts and offsets live: the trailer of a bplist, the header of a NIBArchive.
      let at =
        round % 8 == 3
        ? bytes.count - Int.random(in: 1...min(32, bytes.count), using: &generator)
        : Int.random(in: 0..<min(64, bytes.count), using: &generator)
      bytes[at] = 0xFF
    }
    return bytes
  }

  /// A binary property list from raw object encodings (4-byte references, 8-byte offsets), `top` the root object.
  static func binaryPlist(_ objects: [[UInt8]], top: UInt64 = 0, claimedCount: UInt64? = nil) -> Data {
    Data(RawPropertyList(objects: objects).bytes(top: top, objectCount: claimedCount))
  }

  static func bigEndian(_ value: UInt64, _ width: Int) -> [UInt8] { RawPropertyList.bigEndian(value, width) }

  /// Hostile files made here, named by what they try.
  static func craftedFiles(in directory: URL) throws -> [(String, URL)] {
    var files: [(String, Data)] = []
    // 200,000 arrays, each holding the next: nesting far past any depth limit.
    let depth = 200_000
    files.append(
      (
        "deep-arrays.plist",
        binaryPlist((0..<depth).map { i in i + 1 < depth ? [0xA1] + bigEndian(UInt64(i + 1), 4) : [0xA0] })
      ))
    // A trailer claiming 2^62 objects, an array claiming 2^40 elements, a dictionary referring to itself.
    files.append(("huge-object-count.plist", binaryPlist([[0x08]], claimedCount: 1 << 62)))
    files.append(("huge-array-count.plist", binaryPlist([[0xAF, 0x13] + bigEndian(1 << 40, 8)])))
    files.append(
      ("self-containing-dict.plist", binaryPlist([[0xD1] + bigEndian(1, 4) + bigEndian(0, 4), [0x51, 0x6B]])))
    // A keyed archive whose objects form a chain of 100,000 generic objects: nesting past the depth limit.
    let chain = 100_000
    var chainObjects: [PropertyListValue] = ["$null", ["$classname": "Link", "$classes": ["Link", "NSObject"]]]
    for i in 0..<chain {
      chainObjects.append(["$class": .uid(1), "next": .uid(i + 1 < chain ? UInt64(i + 3) : 0)])
    }
    files.append(
      (
        "long-chain.archive",
        try PropertyListWriter.write([
          "$archiver": "NSKeyedArchiver", "$version": 100_000, "$top": ["root": .uid(2)],
          "$objects": .array(chainObjects),
        ])
      ))
    // A keyed archive of 20,000 class descriptions that all list one shared $classes array of 5,001 names: read per
    // description, 10^8 names (minutes and gigabytes from 1.3 MB); refused by the chain limit (ARC-043).
    files.append(
      (
        "shared-class-chains.archive",
        Data(RawPropertyList.sharedClassChainArchive(descriptions: 20_000, names: 5_000))
      ))
    // XML nested 100,000 levels deep, and a XIB whose views nest 50,000 levels deep.
    let xmlDepth = 100_000
    files.append(
      (
        "deep.xml.plist",
        Data(
          ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><plist version=\"1.0\">"
            + String(repeating: "<array>", count: xmlDepth)
            + String(repeating: "</array>", count: xmlDepth) + "</plist>").utf8)
      ))
    let viewDepth = 50_000
    var xib =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?><document type=\"com.apple.InterfaceBuilder3.CocoaTouch.XIB\" version=\"3.0\"><objects>"
    for i in 0..<viewDepth { xib += "<view id=\"v\(i)\"><subviews>" }
    for _ in 0..<viewDepth { xib += "</subviews></view>" }
    xib += "</objects></document>"
    files.append(("deep-views.xib", Data(xib.utf8)))
    // A NIBArchive header claiming 2^32-1 objects, keys, values and class names at offsets past the end.
    var nib = Array("NIBArchive".utf8)
    for value: UInt32 in [1, 10] + [UInt32](repeating: 0xFFFF_FFF0, count: 8) {
      nib += withUnsafeBytes(of: value.littleEndian, Array.init)
    }
    files.append(("huge-counts.nib", Data(nib)))
    return try files.map { name, data in
      let url = directory.appendingPathComponent(name)
      try data.write(to: url)
      return (name, url)
    }
  }

  @Test(
    "CLI-032: keyed validate refuses hostile files of every format with exit 65 and a diagnostic, in seconds and under 4 GB"
  )
  func craftedHostileFiles() throws {
    let directory = try makeTemporaryDirectory("hostile")
    defer { try? FileManager.default.removeItem(at: directory) }
    for (name, url) in try Self.craftedFiles(in: directory) {
      let status = try Self.expectContract(url, name)
      // Every one of these is malformed or beyond the limits.
      #expect(status == 65, "\(name) was accepted")
      if name == "shared-class-chains.archive" {
        let errors = try Self.validate(url).errors
        #expect(errors.contains("5001 class names, more than the limit of 1000"), "\(errors)")
      }
    }
  }

  @Test(
    "CLI-032: keyed validate reads a well-formed old-style array of 200,000 NS.object.i keys within the CPU limit")
  func largeOldStyleArray() throws {
    // Looking each numbered key up by name scans every key per index: 2 * 10^10 key comparisons here, far past the
    // CPU limit (a 100,000-key array took minutes). The keys are matched in one pass instead (ARC-030).
    let count = 200_000
    var array = PropertyListDictionary(
      (0..<count).map { (PropertyListValue.string("NS.object.\($0)"), PropertyListValue.uid(3)) })
    array["$class"] = .uid(2)
    let archive = try PropertyListWriter.write([
      "$archiver": "NSKeyedArchiver", "$version": 100_000, "$top": ["root": .uid(1)],
      "$objects": [
        "$null", .dictionary(array), ["$classname": "NSArray", "$classes": ["NSArray", "NSObject"]], "element",
      ],
    ])
    let directory = try makeTemporaryDirectory("old-style")
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("old-style-array.archive")
    try archive.write(to: url)
    #expect(try Self.expectContract(url, "old-style array") == 0)
  }

  @Test("CLI-021, CLI-032: keyed validate decodes every one of 200,000 $top entries within the CPU limit")
  func manyTopLevelKeys() throws {
    // Looking each key up by name scanned $top from its start: quadratic (100,000 keys took 23 s in a release
    // build). Every entry is read at its position instead. The last one refers past $objects: it is decoded too.
    let count = 200_000
    func archive(lastRef: UInt64) throws -> Data {
      let top = PropertyListDictionary(
        (0..<count).map { (PropertyListValue.string("k\($0)"), PropertyListValue.uid($0 == count - 1 ? lastRef : 1)) })
      return try PropertyListWriter.write([
        "$archiver": "NSKeyedArchiver", "$version": 100_000, "$top": .dictionary(top), "$objects": ["$null", "x"],
      ])
    }
    let directory = try makeTemporaryDirectory("top-keys")
    defer { try? FileManager.default.removeItem(at: directory) }
    let good = directory.appendingPathComponent("many-keys.archive")
    try archive(lastRef: 1).write(to: good)
    #expect(try Self.expectContract(good, "200,000 $top keys") == 0)
    let bad = directory.appendingPathComponent("many-keys-bad-last.archive")
    try archive(lastRef: 7).write(to: bad)
    let result = try Self.validate(bad)
    #expect(result.status == 65, "\(result.errors)")
    #expect(result.errors.contains("k\(count - 1)"), "the diagnostic names the last key: \(result.errors)")
  }

  @Test(
    "CLI-032: keyed validate and dump read 120,000 objects whose fields hold inline containers within the CPU limit")
  func manyInlineContainers() throws {
    // Each inline container was counted with tables the size of the whole list: quadratic (40,000 objects took 5 s
    // to validate in a release build). The counts are kept from one container to the next instead.
    let directory = try makeTemporaryDirectory("inline-containers")
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("inline-containers.archive")
    try Data(RawPropertyList.nestedInlineContainersArchive(objects: 120_000, size: 1)).write(to: url)
    #expect(try Self.expectContract(url, "120,000 inline containers") == 0)
    let dumped = try Self.runLimited(["dump", "--json", url.path])
    #expect(
      !dumped.signalled && dumped.status == 0, "dump: exit \(dumped.status) after \(dumped.seconds) s: \(dumped.errors)"
    )
  }

  @Test("CLI-032: keyed validate reads a well-formed XIB of 25,000 views written on one line within the CPU limit")
  func oneLineXIB() throws {
    // Every element's column used to be counted from the start of its line: on one 6 MB line, 10^11 byte steps,
    // far past the CPU limit (XIB-121).
    let count = 25_000
    var xib =
      #"<?xml version="1.0" encoding="UTF-8"?><document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0"><objects><view id="root"><subviews>"#
    for i in 0..<count { xib += #"<view id="v\#(i)"><rect key="frame" x="0" y="0" width="1" height="1"/></view>"# }
    xib += "<constraints>"
    for i in 0..<count {
      xib +=
        #"<constraint firstItem="v\#(i)" firstAttribute="width" secondItem="v\#((i + 1) % count)" secondAttribute="width" id="c\#(i)"/>"#
    }
    xib += "</constraints></subviews></view></objects></document>"
    let directory = try makeTemporaryDirectory("one-line")
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("one-line.xib")
    try Data(xib.utf8).write(to: url)
    #expect(!xib.contains("\n"))
    #expect(try Self.expectContract(url, "one-line XIB") == 0)
  }

  @Test(
    "CLI-032: keyed validate on random mutations of real archives, plists, XIBs and nibs exits 0 or 65, never a signal")
  func mutatedCorpusFiles() throws {
    let samples =
      Array(corpusFiles("archives", extensions: ["plist", "bin"]).prefix(3))
      + Array(corpusFiles("xib", extensions: ["xib", "storyboard"]).prefix(2))
      + Array(
        corpusFiles("nib", extensions: ["nib"]).filter { $0.lastPathComponent.hasPrefix("keyedobjects") }.prefix(3))
    guard !samples.isEmpty else {
      print("../shared/corpus is absent: the mutation sweep through keyed validate is skipped")
      return
    }
    let directory = try makeTemporaryDirectory("mutants")
    defer { try? FileManager.default.removeItem(at: directory) }
    var generator = SplitMix64(seed: 0x4B45_5945_44)
    var statuses: [Int32: Int] = [:]
    for sample in samples {
      let original = try [UInt8](Data(contentsOf: sample))
      guard original.count > 16 else { continue }
      for round in 0..<8 {
        let bytes = Self.mutate(original, round: round, using: &generator)
        let url = directory.appendingPathComponent("\(round)-\(sample.lastPathComponent)")
        try Data(bytes).write(to: url)
        statuses[try Self.expectContract(url, "mutation \(round) of \(sample.lastPathComponent)"), default: 0] += 1
        try? FileManager.default.removeItem(at: url)
      }
    }
    #expect((statuses[65] ?? 0) > 0, "some mutations were refused")
    print("keyed validate on \(statuses.values.reduce(0, +)) mutated files: \(statuses.sorted { $0.key < $1.key })")
  }
}
