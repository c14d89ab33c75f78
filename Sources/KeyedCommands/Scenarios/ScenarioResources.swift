import ArchiveCoding
import Foundation
import InterfaceObjects
import NibLoading

/// The XIB files of the scenarios (`../shared/guide/scenarios.md`), which ship with the tool, and the classes
/// they name.
public enum ScenarioResources {
  /// The folder holding the scenario XIBs: next to the executable (SwiftPM's resource bundle) or, in a source
  /// checkout, in `Sources/KeyedCommands/Resources/Scenarios`.
  public static let url: URL? = {
    let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? ".").resolvingSymlinksInPath()
    var candidates: [URL] = []
    var directory = executable.deletingLastPathComponent()
    for _ in 0..<3 {
      candidates.append(directory.appendingPathComponent("KeyedArchive_KeyedCommands.resources/Scenarios"))
      directory = directory.deletingLastPathComponent()
    }
    candidates.append(
      URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Resources/Scenarios"))
    return candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("PlainView.xib").path) }
  }()

  /// A bundle over the scenario folder.
  /// - Throws: ``ArchiveError`` (`fileIO`) when the XIBs cannot be found.
  public static func bundle() throws -> NibBundle {
    guard let url else {
      throw ArchiveError(.fileIO, "the scenario XIB files were not found next to the executable or in the sources")
    }
    return NibBundle(resourceURL: url)
  }

  /// Registers the catalog and every scenario class under the names the XIBs use.
  public static func register(in registry: ClassRegistry = .shared) {
    InterfaceCatalog.register(in: registry)
    registry.register(ScenarioViewController.self, as: "ScenarioViewController")
    registry.register(PlainView.self, as: "PlainView")
    registry.register(SubclassedViewOwner.self, as: "SubclassedViewOwner")
    registry.register(SubclassedView.self, as: "SubclassedView")
    registry.register(DecoupledViewOwner.self, as: "DecoupledViewOwner")
    registry.register(DecoupledView.self, as: "DecoupledView")
    registry.register(ProfileBadgeView.self, as: "ProfileBadgeView")
    registry.register(BookCardView.self, as: "BookCardView")
    registry.register(ScenarioTableViewCell.self, as: "TableViewCell")
    registry.register(DemoInboxController.self, as: "DemoInboxController")
    registry.register(DemoMessageController.self, as: "DemoMessageController")
    registry.register(DemoUnreadController.self, as: "DemoUnreadController")
  }
}
