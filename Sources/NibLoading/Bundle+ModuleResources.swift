import Foundation

extension Bundle {
  /// The SwiftPM resource bundle of the module that defines `type`: what that module's `Bundle.module` is, found from
  /// outside the module (NIB-332). SwiftPM names it `<package>_<target>` (`.resources` on Linux, `.bundle` on Apple
  /// platforms) and puts it beside the executable, in the main bundle's resources, or beside the bundle of the binary
  /// holding the module; each of those places is looked in. `Bundle(for:)` gives the binary's bundle instead, which on
  /// Linux is the main bundle and holds no package's resources.
  /// - Parameter type: a class of the module.
  /// - Returns: the bundle, or `nil` when the module has no resources (or is not found where SwiftPM puts them).
  public static func moduleResources(for type: AnyClass) -> Bundle? {
    // `Module.Class`, `Module.Outer.Inner`: the module comes first.
    guard let module = String(reflecting: type).split(separator: ".").first.map(String.init), !module.isEmpty else {
      return nil
    }
    let binary = Bundle(for: type)
    var places: [URL] = [Bundle.main.bundleURL, binary.bundleURL, binary.bundleURL.deletingLastPathComponent()]
    if let resources = Bundle.main.resourceURL { places.append(resources) }
    if let resources = binary.resourceURL { places.append(resources) }
    var seen: Set<String> = []
    for place in places where seen.insert(place.standardizedFileURL.path).inserted {
      guard let names = try? FileManager.default.contentsOfDirectory(atPath: place.path) else { continue }
      for name in names.sorted() where isResourceBundle(name, of: module) {
        if let bundle = Bundle(url: place.appendingPathComponent(name, isDirectory: true)) { return bundle }
      }
    }
    return nil
  }

  /// Whether a file name is SwiftPM's resource bundle of a module: `<package>_<target>.resources` or `.bundle`,
  /// where the target's name spells the module's once every character that cannot be in an identifier is `_`.
  private static func isResourceBundle(_ name: String, of module: String) -> Bool {
    let stem: Substring
    if name.hasSuffix(".resources") {
      stem = name.dropLast(".resources".count)
    } else if name.hasSuffix(".bundle") {
      stem = name.dropLast(".bundle".count)
    } else {
      return false
    }
    let spelled = String(stem.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
    return spelled.hasSuffix("_" + module)
  }
}

extension NibBundle {
  /// Where the nibs of the module that defines `type` are: its SwiftPM resource bundle
  /// (`Bundle.moduleResources(for:)`) when it has one, else the bundle of its binary, as
  /// `Bundle(for:)` gives it (NIB-332).
  /// - Parameters:
  ///   - type: a class of the module (a view or controller class, whose nib is named after it).
  ///   - idiom: the device idiom for `~iphone` / `~ipad` variants.
  public init(for type: AnyClass, idiom: Idiom = .phone) {
    self.init(bundle: Bundle.moduleResources(for: type) ?? Bundle(for: type), idiom: idiom)
  }
}
