import ArchiveCoding
import Foundation

/// A bundle-like resource directory in which nibs are found by name, like `Bundle.loadNibNamed(_:owner:options:)`.
///
/// For a name, it looks for `Name~iphone` / `Name~ipad` variants (per ``idiom``) and then `Name`, each as
/// `.nib` (a file, or a directory holding `runtime.nib` / `objects-*.nib` / `keyedobjects*.nib`), then `.xib`,
/// first in the preferred localisations' `.lproj` folders, then in `Base.lproj`, then at the top level.
/// ``loadNibNamed(_:owner:options:registry:)`` reads the file on every call (no cache: use ``Nib`` for that).
public struct NibBundle: Sendable {
  /// The device idiom used for `~iphone` / `~ipad` variants.
  public enum Idiom: String, Sendable {
    /// Phone.
    case phone = "iphone"
    /// Tablet.
    case pad = "ipad"
  }

  /// The resource directory.
  public let resourceURL: URL
  /// Localisations to try first, in order (`["fr", "en"]`).
  public var preferredLocalizations: [String]
  /// The idiom for `~iphone` / `~ipad` variants.
  public var idiom: Idiom

  /// Creates a bundle over a resource directory.
  public init(resourceURL: URL, preferredLocalizations: [String] = ["en"], idiom: Idiom = .phone) {
    self.resourceURL = resourceURL
    self.preferredLocalizations = preferredLocalizations
    self.idiom = idiom
  }

  /// The file or directory a nib name resolves to.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` (`fileIO`) listing the places tried.
  public func url(forNibNamed name: String) throws -> URL {
    try url(named: name, extensions: ["nib", "xib", "storyboard"], kind: "nib")
  }

  /// The compiled `.storyboardc` folder or `.storyboard` document a storyboard name resolves to, looked up as nibs
  /// are (NIB-097).
  /// - Throws: ``/ArchiveCoding/ArchiveError`` (`fileIO`) listing the places tried.
  public func url(forStoryboardNamed name: String) throws -> URL {
    try url(named: name, extensions: ["storyboardc", "storyboard"], kind: "storyboard")
  }

  private func url(named name: String, extensions: [String], kind: String) throws -> URL {
    let folders = preferredLocalizations.map { "\($0).lproj" } + ["Base.lproj", ""]
    let names = ["\(name)~\(idiom.rawValue)", name]
    var tried: [String] = []
    for folder in folders {
      for base in names {
        for ext in extensions {
          let url = (folder.isEmpty ? resourceURL : resourceURL.appendingPathComponent(folder))
            .appendingPathComponent("\(base).\(ext)")
          tried.append(folder.isEmpty ? "\(base).\(ext)" : "\(folder)/\(base).\(ext)")
          if FileManager.default.fileExists(atPath: url.path) { return url }
        }
      }
    }
    throw ArchiveError(
      .fileIO,
      "no \(kind) named \"\(name)\" in \(resourceURL.path) (tried \(tried.prefix(6).joined(separator: ", ")), …)")
  }

  /// Loads a nib by name, reading the file on every call, and returns its top-level objects.
  public func loadNibNamed(
    _ name: String, owner: AnyObject?, options: NibOptions = NibOptions(), registry: ClassRegistry = .shared
  ) throws -> [AnyObject] {
    try Nib(contentsOf: try url(forNibNamed: name), registry: registry).instantiate(owner: owner, options: options)
  }
}
