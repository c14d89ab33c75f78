// swift-tools-version: 6.0
import PackageDescription

let strict: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

let package = Package(
  name: "KeyedArchive",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "ArchiveCoding", targets: ["ArchiveCoding"]),
    .library(name: "PropertyList", targets: ["PropertyList"]),
    .library(name: "KeyedArchive", targets: ["KeyedArchive"]),
    .library(name: "NibLoading", targets: ["NibLoading"]),
    .library(name: "XIB", targets: ["XIB"]),
    .library(name: "CompiledNib", targets: ["CompiledNib"]),
    .library(name: "InterfaceObjects", targets: ["InterfaceObjects"]),
    .library(name: "ArchiveTesting", targets: ["ArchiveTesting"]),
    .library(name: "ArchiveComparison", targets: ["ArchiveComparison"]),
    .library(name: "InterfaceComparison", targets: ["InterfaceComparison"]),
    .library(name: "Typedstream", targets: ["Typedstream"]),
    .executable(name: "keyed", targets: ["keyed"]),
  ],
  targets: [
    // Coder protocols, Coding/SecureCoding, class registry, the public error type. Knows no format.
    .target(name: "ArchiveCoding", swiftSettings: strict),
    // What several modules of the package share and users never see: the stack guard of recursive decoders.
    .target(name: "ArchiveSupport", swiftSettings: strict),
    // Foundation's classes as archives hold them: each class's keyed and typedstream forms, the neutral value model
    // of what they mean, and the canonical view's vocabulary. Knows no container format.
    .target(name: "FoundationForms", dependencies: ["ArchiveCoding"], swiftSettings: strict),
    // Binary (bplist00) and XML property lists: validating reader, deterministic writer.
    .target(name: "PropertyList", dependencies: ["ArchiveCoding"], swiftSettings: strict),
    // NSKeyedArchiver-compatible archiver and unarchiver, Foundation classes' wire keys.
    .target(
      name: "KeyedArchive", dependencies: ["ArchiveCoding", "ArchiveSupport", "FoundationForms", "PropertyList"],
      swiftSettings: strict),
    // Apple's compiled NIBArchive format (front end).
    .target(name: "CompiledNib", dependencies: ["ArchiveCoding", "FoundationForms"], swiftSettings: strict),
    // XIB and storyboard XML (front end) and the XIB-to-nib compiler.
    .target(name: "XIB", dependencies: ["ArchiveCoding", "FoundationForms"], swiftSettings: strict),
    // NSArchiver/NSUnarchiver typedstreams: sequential reader and writer, both byte orders.
    .target(
      name: "Typedstream", dependencies: ["ArchiveCoding", "ArchiveSupport", "FoundationForms", "KeyedArchive"],
      swiftSettings: strict),
    // Nib model, connection table, awake phase, Nib cache, bundle lookup.
    .target(
      name: "NibLoading",
      dependencies: [
        "ArchiveCoding", "ArchiveSupport", "FoundationForms", "PropertyList", "KeyedArchive", "XIB", "CompiledNib",
        "Typedstream",
      ],
      swiftSettings: strict),
    // A small UIKit/AppKit-like catalog registered under Apple's class names.
    .target(
      name: "InterfaceObjects", dependencies: ["ArchiveCoding", "KeyedArchive", "NibLoading"], swiftSettings: strict),
    // Comparison by meaning of two keyed archives or property lists, through their canonical walk.
    .target(
      name: "ArchiveComparison",
      dependencies: [
        "ArchiveCoding", "ArchiveSupport", "FoundationForms", "PropertyList", "KeyedArchive",
      ],
      swiftSettings: strict),
    // Comparison of XIBs, storyboards and compiled nibs by document id (`keyed diff`), apart so that comparing
    // archives does not build the nib loader.
    .target(
      name: "InterfaceComparison",
      dependencies: ["ArchiveCoding", "ArchiveComparison", "KeyedArchive", "NibLoading", "PropertyList"],
      swiftSettings: strict),
    // Helpers for users' round-trip archiving tests.
    .target(
      name: "ArchiveTesting",
      dependencies: [
        "ArchiveCoding", "ArchiveSupport", "FoundationForms", "PropertyList", "KeyedArchive", "ArchiveComparison",
      ],
      swiftSettings: strict),
    // The logic of the `keyed` tool, callable in-process from tests.
    .target(
      name: "KeyedCommands",
      dependencies: [
        "ArchiveCoding", "ArchiveSupport", "FoundationForms", "PropertyList", "KeyedArchive", "CompiledNib", "XIB",
        "NibLoading", "InterfaceObjects", "Typedstream", "ArchiveComparison", "InterfaceComparison",
      ],
      resources: [.copy("Resources/Scenarios")], swiftSettings: strict),
    // Release builds on Linux link the Swift runtime and Foundation statically: the tool starts in a few
    // milliseconds instead of resolving twenty shared libraries (Decision 0055). No test target depends on it, so
    // that the flag stays out of the test product; `swift build` and `swift test` build it all the same.
    .executableTarget(
      name: "keyed", dependencies: ["KeyedCommands"],
      swiftSettings: strict + [.unsafeFlags(["-static-stdlib"], .when(platforms: [.linux], configuration: .release))],
      linkerSettings: [.unsafeFlags(["-static-stdlib"], .when(platforms: [.linux], configuration: .release))]),
    .executableTarget(
      name: "keyed-benchmarks",
      dependencies: [
        "ArchiveCoding", "ArchiveSupport", "PropertyList", "KeyedArchive", "NibLoading", "XIB", "InterfaceObjects",
        "ArchiveComparison",
      ],
      path: "Benchmarks/keyed-benchmarks",
      swiftSettings: strict),
    // What several test targets share: the seeded generator and a hand-made binary plist builder.
    .target(name: "TestSupport", path: "Tests/TestSupport", swiftSettings: strict),
    .testTarget(name: "ArchiveCodingTests", dependencies: ["ArchiveCoding"], swiftSettings: strict),
    .testTarget(
      name: "FoundationFormsTests",
      dependencies: [
        "FoundationForms", "ArchiveCoding", "KeyedArchive", "PropertyList", "KeyedCommands", "ArchiveTesting",
      ],
      swiftSettings: strict),
    .testTarget(
      name: "PropertyListTests", dependencies: ["PropertyList", "ArchiveCoding", "TestSupport"], swiftSettings: strict),
    .testTarget(
      name: "KeyedArchiveTests",
      dependencies: [
        "KeyedArchive", "PropertyList", "ArchiveCoding", "ArchiveSupport", "ArchiveTesting", "ArchiveComparison",
        "TestSupport",
      ],
      swiftSettings: strict),
    .testTarget(
      name: "CompiledNibTests", dependencies: ["CompiledNib", "ArchiveCoding", "TestSupport"], swiftSettings: strict),
    .testTarget(name: "XIBTests", dependencies: ["XIB", "ArchiveCoding", "TestSupport"], swiftSettings: strict),
    .testTarget(
      name: "NibLoadingTests",
      dependencies: [
        "NibLoading", "InterfaceObjects", "ArchiveCoding", "KeyedArchive", "XIB", "CompiledNib", "PropertyList",
        "TestSupport",
      ],
      // Copied one by one so that they sit at the top of the bundle, as Bundle.loadNibNamed looks for them
      // (`.copy` of a folder keeps the folder; `.process` flattens folders, `.lproj` ones excepted).
      resources: [
        .copy("Resources/Greeting.xib"), .copy("Resources/fr.lproj"), .copy("Resources/MistypedGreeting.xib"),
        .copy("Resources/BundledBadge.xib"), .copy("Resources/BundledBadgeHost.xib"),
        .copy("Resources/Flow.storyboard"), .copy("Resources/ClassNamedController.xib"),
      ],
      swiftSettings: strict),
    .testTarget(
      name: "TypedstreamTests",
      dependencies: [
        "Typedstream", "KeyedCommands", "ArchiveComparison", "ArchiveCoding", "FoundationForms", "KeyedArchive",
        "ArchiveTesting", "InterfaceObjects", "TestSupport",
      ],
      swiftSettings: strict),
    // The documentation's examples, compiled and run; the check that every code block of the catalogs and the
    // README is one of them; the built site in a browser (Specs/Documentation.md).
    .testTarget(
      name: "DocumentationTests",
      dependencies: [
        "ArchiveCoding", "PropertyList", "KeyedArchive", "Typedstream", "NibLoading", "InterfaceObjects", "XIB",
        "CompiledNib", "ArchiveTesting", "ArchiveComparison", "InterfaceComparison", "KeyedCommands", "keyed",
        "TestSupport",
      ],
      // One by one, so that `Bundle.module` finds them by name at its top level, as the articles load them.
      resources: [
        .copy("Resources/Card.xib"), .copy("Resources/ReferencedCard.xib"), .copy("Resources/ActionCard.xib"),
        .copy("Resources/EncapsulatedCard.xib"), .copy("Resources/DecoupledCard.xib"),
        .copy("Resources/NameBadge.xib"), .copy("Resources/NameBadgeHost.xib"), .copy("Resources/BookCell.xib"),
        .copy("Resources/Reading.storyboard"), .copy("Resources/DetailViewController.xib"),
      ],
      swiftSettings: strict),
    .testTarget(
      name: "KeyedCommandsTests",
      dependencies: [
        "KeyedCommands", "ArchiveTesting", "ArchiveComparison", "InterfaceComparison", "FoundationForms", "TestSupport",
      ],
      exclude: ["Snapshots"],
      swiftSettings: strict),
  ],
  swiftLanguageModes: [.v6]
)
