import ArchiveCoding
import Foundation
import Testing

@testable import CompiledNib

@Suite("Compiled nib containers")
struct CompiledNibContainerTests {
  static let anywhere = URL(fileURLWithPath: "/nonexistent/X.nib")

  @Test("NIBA-028: an iOS .nib directory picks the highest fitting objects-V+.nib, else runtime.nib")
  func iOSSelection() {
    let directory = CompiledNibDirectory(
      url: Self.anywhere, memberNames: ["objects-14.0+.nib", "runtime.nib", "objects-11.0+.nib", "objects-8.0+.nib"])
    typealias V = CompiledNibDirectory.Version
    #expect(directory.preferredMemberName() == "runtime.nib")
    #expect(directory.preferredMemberName(forSystemVersion: V(17, 2)) == "objects-14.0+.nib")
    #expect(directory.preferredMemberName(forSystemVersion: V(14)) == "objects-14.0+.nib")
    #expect(directory.preferredMemberName(forSystemVersion: V(13, 7)) == "objects-11.0+.nib")
    #expect(directory.preferredMemberName(forSystemVersion: V(7)) == "runtime.nib")
    let noRuntime = CompiledNibDirectory(url: Self.anywhere, memberNames: ["objects-8.0+.nib", "objects-14.0+.nib"])
    #expect(noRuntime.preferredMemberName() == "objects-14.0+.nib")
    #expect(noRuntime.preferredMemberName(forSystemVersion: V(6)) == nil)
    let plain = CompiledNibDirectory(url: Self.anywhere, memberNames: ["objects.nib", "objects-13.0+.nib"])
    #expect(plain.preferredMemberName() == "objects.nib")
    #expect(plain.preferredMemberName(forSystemVersion: V(12)) == "objects.nib")
  }

  @Test("NIBA-028: a macOS .nib directory picks the highest fitting keyedobjects-N.nib, else keyedobjects.nib")
  func macOSSelection() {
    let directory = CompiledNibDirectory(
      url: Self.anywhere,
      memberNames: [
        "designable.nib", "keyedobjects.nib", "keyedobjects-101300.nib", "keyedobjects-110000.nib", "info.nib",
      ])
    typealias V = CompiledNibDirectory.Version
    #expect(directory.preferredMemberName() == "keyedobjects-110000.nib")
    #expect(directory.preferredMemberName(forSystemVersion: V(14, 1)) == "keyedobjects-110000.nib")
    #expect(directory.preferredMemberName(forSystemVersion: V(10, 15)) == "keyedobjects-101300.nib")
    #expect(directory.preferredMemberName(forSystemVersion: V(10, 12)) == "keyedobjects.nib")
    let editorOnly = CompiledNibDirectory(url: Self.anywhere, memberNames: ["designable.nib", "classes.nib"])
    #expect(editorOnly.preferredMemberName() == nil)
    #expect(CompiledNibDirectory.macOSVersion(of: "keyedobjects-101300.nib") == V(10, 13))
    #expect(CompiledNibDirectory.macOSVersion(of: "keyedobjects-x.nib") == nil)
    #expect(CompiledNibDirectory.Version("14.0") == V(14))
    #expect(CompiledNibDirectory.Version("14..0") == nil)
    #expect(CompiledNibDirectory.Version("") == nil)
  }

  @Test("NIBA-029: Info.plist maps identifiers to nib names; unsafe names are corrupt")
  func storyboardInfo() throws {
    let url = URL(fileURLWithPath: "/nonexistent/Main.storyboardc")
    func plist(_ dictionary: [String: Any]) throws -> Data {
      try PropertyListSerialization.data(fromPropertyList: dictionary, format: .binary, options: 0)
    }
    let storyboard = try CompiledStoryboard(
      infoPlist: try plist([
        "UIViewControllerIdentifiersToNibNames": ["Start": "UIViewController-BYZ-38-t0r"],
        "UIStoryboardDesignatedEntryPointIdentifier": "Start", "UIStoryboardVersion": 1,
      ]), url: url)
    #expect(storyboard.platform == .uiKit)
    #expect(storyboard.nibNamesByIdentifier == ["Start": "UIViewController-BYZ-38-t0r"])
    #expect(storyboard.entryPointIdentifier == "Start")
    #expect(storyboard.version == 1)
    #expect(storyboard.nibURL(forIdentifier: "Start")?.lastPathComponent == "UIViewController-BYZ-38-t0r.nib")
    #expect(storyboard.nibURL(forIdentifier: "Other") == nil)

    let escaping = try #require(throws: ArchiveError.self) {
      try CompiledStoryboard(
        infoPlist: try plist(["UIViewControllerIdentifiersToNibNames": ["A": "../../etc/passwd"]]), url: url)
    }
    #expect(escaping.code == .corruptData)
    let nonString = try #require(throws: ArchiveError.self) {
      try CompiledStoryboard(infoPlist: try plist(["NSViewControllerIdentifiersToNibNames": ["A": 3]]), url: url)
    }
    #expect(nonString.code == .corruptData)
    let neither = try #require(throws: ArchiveError.self) {
      try CompiledStoryboard(infoPlist: try plist(["Other": "x"]), url: url)
    }
    #expect(neither.code == .unsupportedFormat)
    let garbage = try #require(throws: ArchiveError.self) {
      try CompiledStoryboard(infoPlist: Data("NIBArchive".utf8), url: url)
    }
    #expect(garbage.code == .corruptData)
  }

  @Test(
    "NIBA-028: the corpus's iOS .nib directories open through their selected member",
    .enabled(if: Corpus.isAvailable, Comment(rawValue: Corpus.absentMessage)))
  func corpusIOSDirectories() throws {
    let directories = Corpus.directories(withSuffix: ".nib").filter {
      FileManager.default.fileExists(atPath: $0.appendingPathComponent("runtime.nib").path)
    }
    #expect(directories.count >= 2)
    for url in directories {
      let directory = try CompiledNibDirectory(contentsOf: url)
      #expect(directory.preferredMemberName() == "runtime.nib")
      #expect(
        directory.preferredMemberName(forSystemVersion: .init(16)) == "objects-14.0+.nib", "\(directory.memberNames)")
      let viaDirectory = try NIBArchiveDocument(contentsOf: url)
      let runtime = try NIBArchiveDocument(contentsOf: url.appendingPathComponent("runtime.nib"))
      #expect(viaDirectory.objectCount == runtime.objectCount)
      #expect(viaDirectory.byteCount == runtime.byteCount)
      #expect(try viaDirectory.nibStructure().flavor == .uiKit)
    }
  }

  @Test(
    "NIBA-028: the corpus's macOS .nib directories select the NIBArchive, or report a keyed archive",
    .enabled(if: Corpus.isAvailable, Comment(rawValue: Corpus.absentMessage)))
  func corpusMacOSDirectories() throws {
    let directories = Corpus.directories(withSuffix: ".nib").filter {
      FileManager.default.fileExists(atPath: $0.appendingPathComponent("keyedobjects.nib").path)
    }
    var opened = 0
    var refused = 0
    for url in directories {
      let directory = try CompiledNibDirectory(contentsOf: url)
      let member = try #require(directory.preferredMemberName(), "\(url.path)")
      if member.hasPrefix("keyedobjects-") {
        let document = try NIBArchiveDocument(contentsOf: url)
        #expect(try document.nibStructure().flavor == .appKit)
        #expect(directory.preferredMemberName(forSystemVersion: .init(10, 12)) == "keyedobjects.nib")
        opened += 1
      } else {
        // Older directories hold only the keyed-archive member: the NIBArchive reader names the format found.
        let error = try #require(throws: ArchiveError.self) { try NIBArchiveDocument(contentsOf: url) }
        #expect(error.code == .unsupportedFormat)
        #expect(error.message.contains("binary property list"), "\(error)")
        #expect(error.location.file?.hasSuffix("keyedobjects.nib") == true)
        refused += 1
      }
    }
    #expect(opened >= 2)
    #expect(refused >= 1)
  }

  @Test(
    "NIBA-029: every corpus .storyboardc maps its identifiers to scene nibs that open",
    .enabled(if: Corpus.isAvailable, Comment(rawValue: Corpus.absentMessage)))
  func corpusStoryboards() throws {
    let bundles = Corpus.directories(withSuffix: ".storyboardc") + Corpus.directories(withSuffix: ".out")
    #expect(bundles.count >= 20)
    var scenes = 0
    for url in bundles {
      #expect(CompiledStoryboard.isStoryboard(at: url), "\(url.path)")
      let storyboard = try CompiledStoryboard(contentsOf: url)
      #expect(!storyboard.nibNamesByIdentifier.isEmpty, "\(url.path)")
      if let entry = storyboard.entryPointIdentifier {
        #expect(storyboard.nibNamesByIdentifier[entry] != nil, "\(url.path): entry point \(entry)")
      }
      if storyboard.platform == .appKit {
        #expect(storyboard.version == 1)
      }
      for identifier in storyboard.nibNamesByIdentifier.keys.sorted() {
        let nibURL = try #require(storyboard.nibURL(forIdentifier: identifier))
        let document = try NIBArchiveDocument(contentsOf: nibURL)
        let nib = try document.nibStructure()
        #expect(nib.flavor == storyboard.platform, "\(nibURL.path)")
        scenes += 1
      }
    }
    #expect(scenes >= 40)
  }

  @Test("NIBA-028: a missing file is a file I/O error naming the path")
  func missingFile() throws {
    let error = try #require(throws: ArchiveError.self) {
      try NIBArchiveDocument(contentsOf: URL(fileURLWithPath: "/nonexistent/None.nib"))
    }
    #expect(error.code == .fileIO)
    #expect(error.location.file == "/nonexistent/None.nib")
  }
}
