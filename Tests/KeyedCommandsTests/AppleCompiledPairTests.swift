import ArchiveCoding
import Foundation
import NibLoading
import Testing

/// The XIB sources of `../shared/corpus/nib` next to the nibs Apple's ibtool compiled from them.
@Suite("XIBs against the nibs Apple compiled from them")
struct AppleCompiledPairTests {
  static var pairs: [(xib: URL, nib: URL)] {
    corpusFiles("nib", extensions: ["xib"]).compactMap { xib in
      let nib = xib.deletingPathExtension().appendingPathExtension("nib")
      return FileManager.default.fileExists(atPath: nib.path) ? (xib, nib) : nil
    }
  }

  /// A class name without its module (`App.Delegate` → `Delegate`): ibtool qualifies or not depending on the
  /// module options it was run with.
  static func unqualified(_ name: String) -> String {
    let name = ClassRegistry.demangledName(name) ?? name
    return name.split(separator: ".").last.map(String.init) ?? name
  }

  /// Outlets and actions as (kind, label, source class, destination class), placeholders named by role.
  static func connections(_ table: ObjectTable) -> [String] {
    func name(_ index: Int?) -> String {
      guard let index else { return "nil" }
      let record = table.objects[index]
      switch record.placeholder {
      case .filesOwner?: return "<File's Owner>"
      case .firstResponder?: return "<First Responder>"
      case .application?: return "<Application>"
      case .some: return "<placeholder>"
      case nil: return unqualified(record.className)
      }
    }
    return table.connections.filter { $0.kind == .outlet || $0.kind == .action || $0.kind == .outletCollection }
      .map { connection in
        // A compiled action without a destination is sent to the First Responder.
        let destination =
          connection.destination == nil && connection.kind == .action
          ? "<First Responder>" : name(connection.destination)
        return "\(connection.kind.rawValue) \(connection.label) \(name(connection.source)) → \(destination)"
      }.sorted()
  }

  @Test("XIB-140, NIBA-060, NIBA-051: the graph from Apple's compiled nib has the XIB's connections and view classes")
  func sameConnections() throws {
    let pairs = Self.pairs
    guard !pairs.isEmpty else {
      print("skipped: ../shared/corpus is absent")
      return
    }
    var compared = 0
    for (xib, nib) in pairs {
      let ours = try NibReader.objectTable(contentsOf: xib)
      let apple = try NibReader.objectTable(contentsOf: nib)
      #expect(Self.connections(ours) == Self.connections(apple), "\(xib.lastPathComponent)")
      // Every class of a document object with an id is an object class of Apple's nib too.
      let appleClasses = Set(apple.objects.filter { $0.placeholder == nil }.map { Self.unqualified($0.className) })
      let oursClasses = Set(ours.objects.filter { $0.placeholder == nil }.map { Self.unqualified($0.className) })
      #expect(
        oursClasses.subtracting(appleClasses).isEmpty,
        "\(xib.lastPathComponent): \(oursClasses.subtracting(appleClasses).sorted())")
      compared += 1
    }
    #expect(compared == pairs.count)
  }
}
