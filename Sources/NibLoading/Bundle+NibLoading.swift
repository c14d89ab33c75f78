import ArchiveCoding
import Foundation

extension NibBundle {
  /// A nib bundle over a Foundation bundle's resources (`Bundle.main`, or a package's `Bundle.module`), trying the
  /// bundle's preferred localisations first (NIB-097).
  /// - Parameters:
  ///   - bundle: the bundle; `nil` is the main bundle, as in UIKit.
  ///   - subdirectory: a folder of the resources to look in (a SwiftPM `.copy` resource keeps its folder).
  ///   - idiom: the device idiom for `~iphone` / `~ipad` variants.
  public init(bundle: Bundle?, subdirectory: String? = nil, idiom: Idiom = .phone) {
    let bundle = bundle ?? .main
    var url = bundle.resourceURL ?? bundle.bundleURL
    if let subdirectory { url.appendPathComponent(subdirectory, isDirectory: true) }
    let localizations = bundle.preferredLocalizations.filter { $0 != "Base" }
    self.init(resourceURL: url, preferredLocalizations: localizations.isEmpty ? ["en"] : localizations, idiom: idiom)
  }
}

extension Bundle {
  /// Loads a nib by name from this bundle's resources, as UIKit's `loadNibNamed(_:owner:options:)` does, reading
  /// the file on every call (a ``Nib`` keeps what it parsed), and returns its top-level objects (NIB-097).
  /// - Parameters:
  ///   - name: the nib's name, without extension.
  ///   - owner: File's Owner.
  ///   - options: external objects, warnings, trace.
  ///   - registry: where classes are looked up.
  /// - Returns: the top-level objects, placeholders excluded, in document order.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` when no nib has the name or the nib does not load.
  public func loadNibNamed(
    _ name: String, owner: AnyObject?, options: NibOptions = NibOptions(), registry: ClassRegistry = .shared
  ) throws -> [AnyObject] {
    try NibBundle(bundle: self).loadNibNamed(name, owner: owner, options: options, registry: registry)
  }
}

extension Nib {
  /// Finds a nib by name in a Foundation bundle, as `UINib(nibName:bundle:)` does (NIB-097).
  /// - Parameters:
  ///   - nibName: the nib's name, without extension.
  ///   - bundle: the bundle; `nil` is the main bundle.
  ///   - registry: where classes are looked up.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` (`fileIO`) when no nib has the name.
  public convenience init(nibName: String, bundle: Bundle?, registry: ClassRegistry = .shared) throws {
    try self.init(named: nibName, in: NibBundle(bundle: bundle), registry: registry)
  }
}

extension Storyboard {
  /// Opens a storyboard by name in a Foundation bundle, as `UIStoryboard(name:bundle:)` does: the compiled
  /// `.storyboardc` folder, else the `.storyboard` document (NIB-097).
  /// - Parameters:
  ///   - name: the storyboard's name, without extension.
  ///   - bundle: the bundle; `nil` is the main bundle.
  ///   - registry: where classes are looked up.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` when no storyboard has the name or it cannot be read.
  public convenience init(name: String, bundle: Bundle?, registry: ClassRegistry = .shared) throws {
    try self.init(contentsOf: try NibBundle(bundle: bundle).url(forStoryboardNamed: name), registry: registry)
  }
}
