import ArchiveCoding
import Foundation

/// A compiled storyboard (`.storyboardc` directory): one nib per scene plus an `Info.plist` mapping view-controller
/// identifiers to nib names (rule NIBA-029).
public struct CompiledStoryboard: Hashable, Sendable {
  /// Which framework's Info.plist keys the storyboard uses: UIKit's (`UIViewControllerIdentifiersToNibNames`,
  /// `UIStoryboardDesignatedEntryPointIdentifier`, `UIStoryboardVersion`) or AppKit's
  /// (`NSViewControllerIdentifiersToNibNames`, `NSViewControllerIdentifiersToUUIDs`,
  /// `NSStoryboardDesignatedEntryPointIdentifier`, `NSStoryboardMainMenu`, `NSStoryboardVersion`).
  public typealias Platform = ObjectTable.Platform

  /// The `.storyboardc` directory.
  public let url: URL
  /// The Info.plist key family.
  public let platform: Platform
  /// View-controller identifier → nib name (without `.nib`); every name is a single path component.
  public let nibNamesByIdentifier: [String: String]
  /// The identifier of the initial view controller, when the storyboard has one.
  public let entryPointIdentifier: String?
  /// The storyboard format version, when present.
  public let version: Int?
  /// macOS: the nib name of the main menu, when present.
  public let mainMenuNibName: String?
  /// macOS: view-controller identifier → UUID string.
  public let uuidsByIdentifier: [String: String]

  /// The largest Info.plist read by ``init(contentsOf:)``: 4 MiB.
  public static let maxInfoPlistBytes = 4 << 20

  /// `true` when `url` is a directory holding an `Info.plist`.
  /// - Parameter url: a file URL.
  public static func isStoryboard(at url: URL) -> Bool {
    CompiledNibFileReading.isDirectory(url)
      && FileManager.default.fileExists(
        atPath: url.appendingPathComponent(NIBArchiveWireNames.storyboardInfoPlist, isDirectory: false).path)
  }

  /// Reads a `.storyboardc` directory's Info.plist.
  /// - Parameter url: the `.storyboardc` directory.
  /// - Throws: `ArchiveError` `.fileIO` when Info.plist cannot be read, `.limitExceeded` when it is larger than
  ///   ``maxInfoPlistBytes``, and the errors of ``init(infoPlist:url:)``.
  public init(contentsOf url: URL) throws(ArchiveError) {
    let plistURL = url.appendingPathComponent(NIBArchiveWireNames.storyboardInfoPlist, isDirectory: false)
    let data = try CompiledNibFileReading.read(plistURL, maxBytes: Self.maxInfoPlistBytes)
    do throws(ArchiveError) {
      try self.init(infoPlist: data, url: url)
    } catch {
      throw error.located(in: .init(file: plistURL.path))
    }
  }

  /// Interprets the bytes of a storyboard's Info.plist (binary or XML property list).
  /// - Parameters:
  ///   - infoPlist: the bytes of Info.plist.
  ///   - url: the `.storyboardc` directory the nib URLs are relative to.
  /// - Throws: `ArchiveError` `.corruptData` when the bytes are not a property list dictionary, when a map has a
  ///   non-string entry or when a nib name is not a single path component; `.unsupportedFormat` when neither the iOS
  ///   nor the macOS identifier map is present.
  public init(infoPlist: Data, url: URL) throws(ArchiveError) {
    let plist: Any
    do {
      plist = try PropertyListSerialization.propertyList(from: infoPlist, options: [], format: nil)
    } catch {
      throw ArchiveError(
        .corruptData, "expected a property list, found unreadable bytes (\(error.localizedDescription))")
    }
    guard let dictionary = plist as? [String: Any] else {
      throw ArchiveError(.corruptData, "expected a dictionary at the top of Info.plist, found \(type(of: plist))")
    }
    let names = NIBArchiveWireNames.self
    let platform: Platform
    let mapKey: String
    if dictionary[names.uiIdentifiersToNibNamesKey] != nil {
      (platform, mapKey) = (.uiKit, names.uiIdentifiersToNibNamesKey)
    } else if dictionary[names.nsIdentifiersToNibNamesKey] != nil {
      (platform, mapKey) = (.appKit, names.nsIdentifiersToNibNamesKey)
    } else {
      throw ArchiveError(
        .unsupportedFormat,
        "expected \"\(names.uiIdentifiersToNibNamesKey)\" or \"\(names.nsIdentifiersToNibNamesKey)\" in Info.plist,"
          + " found keys \(dictionary.keys.sorted())")
    }
    let nibNames = try Self.stringMap(dictionary[mapKey], key: mapKey)
    for (identifier, nibName) in nibNames where !Self.isSafeComponent(nibName) {
      throw ArchiveError(
        .corruptData,
        "expected the nib name of \"\(identifier)\" to be a single path component, found \"\(nibName)\"",
        at: .init(keyPath: mapKey))
    }
    let entryKey = platform == .uiKit ? names.uiEntryPointKey : names.nsEntryPointKey
    let versionKey = platform == .uiKit ? names.uiStoryboardVersionKey : names.nsStoryboardVersionKey
    let mainMenu =
      platform == .appKit ? try Self.optionalString(dictionary[names.nsMainMenuKey], key: names.nsMainMenuKey) : nil
    if let mainMenu, !Self.isSafeComponent(mainMenu) {
      throw ArchiveError(
        .corruptData, "expected the main menu nib name to be a single path component, found \"\(mainMenu)\"",
        at: .init(keyPath: names.nsMainMenuKey))
    }
    self.url = url
    self.platform = platform
    self.nibNamesByIdentifier = nibNames
    self.entryPointIdentifier = try Self.optionalString(dictionary[entryKey], key: entryKey)
    self.version = (dictionary[versionKey] as? NSNumber)?.intValue ?? (dictionary[versionKey] as? Int)
    self.mainMenuNibName = mainMenu
    self.uuidsByIdentifier =
      platform == .appKit
      ? try Self.stringMap(dictionary[names.nsIdentifiersToUUIDsKey], key: names.nsIdentifiersToUUIDsKey) : [:]
  }

  /// The location of the nib of a view controller: `<storyboardc>/<nib name>.nib`, a file or a `.nib` directory.
  /// - Parameter identifier: a view-controller identifier (or storyboard ID).
  /// - Returns: the nib's URL, or `nil` when the identifier is not in the map.
  public func nibURL(forIdentifier identifier: String) -> URL? {
    nibNamesByIdentifier[identifier].map { nibURL(named: $0) }
  }

  /// The location of a scene nib by name: `<storyboardc>/<name>.nib`.
  /// - Parameter name: a nib name without extension, such as `UIViewController-BYZ-38-t0r`.
  /// - Returns: the URL (whether or not the file exists).
  public func nibURL(named name: String) -> URL {
    url.appendingPathComponent(name + "." + NIBArchiveWireNames.nibExtension)
  }

  // MARK: Internal

  /// A nib name must stay inside the storyboard directory.
  static func isSafeComponent(_ name: String) -> Bool {
    !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.contains("\0")
  }

  static func stringMap(_ value: Any?, key: String) throws(ArchiveError) -> [String: String] {
    guard let value else { return [:] }
    guard let map = value as? [String: Any] else {
      throw ArchiveError(.corruptData, "expected a dictionary, found \(type(of: value))", at: .init(keyPath: key))
    }
    var result: [String: String] = [:]
    for (entryKey, entryValue) in map {
      guard let text = entryValue as? String else {
        throw ArchiveError(
          .corruptData, "expected a string for \"\(entryKey)\", found \(type(of: entryValue))", at: .init(keyPath: key))
      }
      result[entryKey] = text
    }
    return result
  }

  static func optionalString(_ value: Any?, key: String) throws(ArchiveError) -> String? {
    guard let value else { return nil }
    guard let text = value as? String else {
      throw ArchiveError(.corruptData, "expected a string, found \(type(of: value))", at: .init(keyPath: key))
    }
    return text
  }
}
