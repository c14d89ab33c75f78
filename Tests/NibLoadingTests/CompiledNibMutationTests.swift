import ArchiveCoding
import Foundation
import NibLoading
import TestSupport
import Testing

/// Hostile bytes: corpus nibs with flipped bytes and cut tails either build a consistent table or throw an
/// `ArchiveError`; they never crash the builder or the pipeline.
@Suite(
  "Compiled nib tables: mutated inputs",
  .enabled(if: CompiledNibCorpus.isAvailable, Comment(rawValue: CompiledNibCorpus.absentMessage)))
struct CompiledNibMutationTests {
  static let samples = [
    "nib/nskeyedunarchiver/MainWindow.nib",
    "nib/avrfuses-sparkle/en.lproj/SUUpdatePermissionPrompt.nib",
    "nib/viraptor-ibtool/correct/checkbox_hugging.nib",
    "nib/appium-ios-uicatalog/2019/Base.lproj/StackViewController.storyboardc/K8w-Uq-R9J-view-Hwb-09-b4P.nib",
  ]

  /// Every index the table holds is in range, so the pipeline can use it.
  static func checkConsistent(_ table: ObjectTable, _ name: String) {
    let count = table.objects.count
    func check(_ value: FieldValue) -> Bool {
      switch value {
      case .object(let index): return (0..<count).contains(index)
      case .array(let elements): return elements.allSatisfy(check)
      case .record(_, let fields): return fields.allSatisfy { check($0.value) }
      default: return true
      }
    }
    #expect(table.objects.allSatisfy { $0.fields.allSatisfy { check($0.value) } }, "\(name): field index out of range")
    #expect(table.topLevel.allSatisfy { (0..<count).contains($0) }, "\(name)")
    #expect(table.visibleWindows.allSatisfy { (0..<count).contains($0) }, "\(name)")
    #expect(
      table.connections.allSatisfy {
        (0..<count).contains($0.source) && ($0.destination.map { (0..<count).contains($0) } ?? true)
      },
      "\(name)")
    #expect(table.runtimeAttributes.allSatisfy { (0..<count).contains($0.object) && check($0.value) }, "\(name)")
  }

  @Test("NIBA-050: byte flips and truncations give a consistent table or an ArchiveError", arguments: samples)
  func mutations(_ sample: String) throws {
    let file = try CompiledNibCorpus.file(sample)
    let original = try Data(contentsOf: file.url)
    var generator = SplitMix64(seed: UInt64(original.count))
    var built = 0
    var refused = 0
    for round in 0..<250 {
      var bytes = [UInt8](original)
      if round % 5 == 4 {
        bytes.removeLast(1 + generator.below(bytes.count - 1))
      } else {
        for _ in 0...generator.below(3) {
          let position = generator.below(bytes.count)
          bytes[position] = round % 2 == 0 ? UInt8(truncatingIfNeeded: generator.next()) : bytes[position] ^ 0x01
        }
      }
      let name = "\(sample) round \(round)"
      do {
        let table = try NibReader.objectTable(from: Data(bytes), fileName: name)
        Self.checkConsistent(table, name)
        _ = try? Nib(table: table, registry: ClassRegistry()).instantiateGraph(
          owner: GenericNibObject(className: "Owner"),
          options: NibOptions(missingOwnerPolicy: .skipConnections, warning: nil))
        built += 1
      } catch is ArchiveError {
        refused += 1
      } catch {
        Issue.record("\(name): not an ArchiveError: \(error)")
      }
    }
    // Both outcomes occur, so the sweep reaches the table builder and not only the container checks.
    #expect(built > 0)
    #expect(refused > 0)
  }
}
