import ArchiveCoding
import Foundation
import TestSupport
import Testing

@testable import CompiledNib

/// Truncations and bit flips of real and synthetic files: each must end in a parsed document or a thrown
/// `ArchiveError`, never a crash or a hang (rule NIBA-018).
@Suite("NIBArchive mutation sweeps")
struct NIBArchiveMutationTests {
  static let allowedCodes: Set<ArchiveError.Code> = [.corruptData, .unsupportedFormat, .limitExceeded]

  /// Parses and, on success, exercises every accessor; returns the error thrown by the parser, if any.
  static func exercise(_ bytes: [UInt8]) -> ArchiveError? {
    let document: NIBArchiveDocument
    do {
      document = try NIBArchiveDocument(bytes: bytes)
    } catch {
      return error
    }
    for index in 0..<document.objectCount {
      _ = document.entries(ofObject: index)
      _ = document.classNameChain(ofObject: index)
      _ = document.string(ofObject: index)
      _ = try? document.collectionElements(ofObject: index)
      _ = document.geometry(forKey: "UIBounds", inObject: index)
    }
    do {
      _ = try document.nibStructure()
    } catch {
      // Structure errors on a mutated file are expected; they must be ArchiveErrors with a known code.
      #expect([.corruptData, .unsupportedFormat, .typeMismatch].contains(error.code), "\(error)")
    }
    return nil
  }

  /// Small real files (1–1.1 KB), or the synthetic archives when the corpus is absent.
  static func smallSamples() throws -> [(String, [UInt8])] {
    let synthetic = [
      ("minimal", minimalArchive), ("uiKit", NIBArchiveNibStructureTests.uiKitNib()),
    ]
    guard Corpus.isAvailable else { return synthetic }
    let names = [
      "viraptor-ibtool/correct/minimal.nib",
      "fastlane-very-capable-app/Base.lproj/Main.storyboardc/UIViewController-BYZ-38-t0r.nib",
      "appium-ios-uicatalog/2023/Base.lproj/SearchViewControllers.storyboardc/SearchResultsViewController.nib",
    ]
    return try synthetic
      + names.map { ($0, try Corpus.bytes(Corpus.nibDirectory.appendingPathComponent($0))) }
  }

  @Test("NIBA-018: truncation at every byte throws below the end of the tables and parses from there on")
  func truncations() throws {
    for (name, bytes) in try Self.smallSamples() {
      let endOfTables = try NIBArchiveDocument(bytes: bytes).endOfTables
      for length in 0..<bytes.count {
        let error = Self.exercise(Array(bytes[0..<length]))
        if length < endOfTables {
          let thrown = try #require(error, "\(name): prefix of \(length) bytes parsed")
          #expect(Self.allowedCodes.contains(thrown.code), "\(name): \(thrown)")
          #expect(thrown.location.byteOffset != nil, "\(name): \(thrown)")
          #expect(thrown.location.byteOffset.map { $0 <= length } == true, "\(name) at \(length): \(thrown)")
        } else {
          #expect(error == nil, "\(name): prefix of \(length) bytes failed: \(String(describing: error))")
        }
      }
    }
  }

  @Test("NIBA-018: seeded bit flips end in a document or an ArchiveError with a byte offset")
  func bitFlips() throws {
    var samples = try Self.smallSamples()
    if Corpus.isAvailable {
      // A few larger real files as well: an iOS scene and a macOS window nib.
      for (path, url) in Corpus.nibArchiveFiles
      where path.hasSuffix("MainMenu.nib/keyedobjects-110000.nib")
        || path.hasSuffix("Main.storyboardc/MasterViewController.nib")
      {
        samples.append((path, try Corpus.bytes(url)))
      }
    }
    var generator = SplitMix64(seed: 0x4E49_4241_7263_6869)
    var parsed = 0
    var rejected = 0
    let flipsPerSample = 3000 / samples.count
    for (name, original) in samples {
      for _ in 0..<flipsPerSample {
        var bytes = original
        // One to three flips, biased towards the header and tables' start where structure lives.
        for _ in 0..<Int.random(in: 1...3, using: &generator) {
          let limit = Bool.random(using: &generator) ? min(bytes.count, 120) : bytes.count
          let offset = Int.random(in: 0..<limit, using: &generator)
          bytes[offset] ^= UInt8(1) << UInt8.random(in: 0...7, using: &generator)
        }
        if let error = Self.exercise(bytes) {
          #expect(Self.allowedCodes.contains(error.code), "\(name): \(error)")
          #expect(error.location.byteOffset != nil, "\(name): \(error)")
          rejected += 1
        } else {
          parsed += 1
        }
      }
    }
    // Both outcomes occur: flips in string bytes survive, flips in counts and indices do not.
    #expect(parsed > 0)
    #expect(rejected > 0)
  }

  @Test("NIBA-007: huge counts in a small file are refused without large allocations")
  func hugeCountsEveryTable() throws {
    for countField in [18, 26, 34, 42] {
      for count: UInt32 in [0x0001_0000, 0x000F_FFFF, 0x7FFF_FFFF, 0xFFFF_FFFF] {
        let bytes = patched(countField, TestArchiveBuilder.le(count))
        let error = try #require(throws: ArchiveError.self) { try NIBArchiveDocument(bytes: bytes) }
        #expect(error.location.byteOffset == countField)
        #expect([.corruptData, .limitExceeded].contains(error.code))
      }
    }
  }
}
