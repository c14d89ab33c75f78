import ArchiveCoding
import Foundation

/// A `.nib` directory: a container whose members are variants of one nib for different OS versions (rule NIBA-028).
///
/// iOS directories hold `runtime.nib` and `objects-<version>+.nib` members (sometimes `objects.nib`); macOS
/// directories hold `keyedobjects.nib` (a keyed archive) and `keyedobjects-<NNNNNN>.nib` NIBArchives (101300 is
/// macOS 10.13, 110000 is macOS 11), plus editor files (`designable.nib`, `classes.nib`, `info.nib`) that are never
/// selected.
public struct CompiledNibDirectory: Hashable, Sendable {
  /// An operating-system version, compared component by component.
  public struct Version: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The major version.
    public var major: Int
    /// The minor version.
    public var minor: Int
    /// The patch version.
    public var patch: Int

    /// Creates a version.
    /// - Parameters:
    ///   - major: the major version.
    ///   - minor: the minor version.
    ///   - patch: the patch version.
    public init(_ major: Int, _ minor: Int = 0, _ patch: Int = 0) {
      self.major = major
      self.minor = minor
      self.patch = patch
    }

    /// Parses `14`, `14.0` or `14.0.1`; `nil` for anything else.
    /// - Parameter text: the version text.
    public init?(_ text: some StringProtocol) {
      let parts = text.split(separator: ".", omittingEmptySubsequences: false)
      guard (1...3).contains(parts.count),
        parts.allSatisfy({ !$0.isEmpty && $0.utf8.count <= 6 && $0.allSatisfy(\.isASCII) })
      else { return nil }
      var numbers: [Int] = []
      for part in parts {
        guard let number = Int(part), number >= 0 else { return nil }
        numbers.append(number)
      }
      self.init(numbers[0], numbers.count > 1 ? numbers[1] : 0, numbers.count > 2 ? numbers[2] : 0)
    }

    /// Orders versions by major, then minor, then patch.
    public static func < (lhs: Version, rhs: Version) -> Bool {
      (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
    }

    /// `major.minor` or `major.minor.patch`.
    public var description: String { patch == 0 ? "\(major).\(minor)" : "\(major).\(minor).\(patch)" }
  }

  /// The directory.
  public let url: URL
  /// The names of the directory's entries, sorted.
  public let memberNames: [String]

  /// `true` when `url` names an existing directory (a `.nib` path that is a directory is a nib directory).
  /// - Parameter url: a file URL.
  public static func isDirectory(at url: URL) -> Bool {
    CompiledNibFileReading.isDirectory(url)
  }

  /// Lists a `.nib` directory.
  /// - Parameter url: the directory.
  /// - Throws: `ArchiveError` `.fileIO` when it cannot be listed.
  public init(contentsOf url: URL) throws(ArchiveError) {
    do {
      let names = try FileManager.default.contentsOfDirectory(atPath: url.path)
      self.init(url: url, memberNames: names)
    } catch {
      throw ArchiveError(
        .fileIO, "cannot list the .nib directory: \(error.localizedDescription)", at: .init(file: url.path))
    }
  }

  /// Describes a directory from a list of member names, without touching the file system.
  /// - Parameters:
  ///   - url: the directory.
  ///   - memberNames: the names of its entries.
  public init(url: URL, memberNames: [String]) {
    self.url = url
    self.memberNames = memberNames.sorted()
  }

  /// The member a loader running on `version` should read (rule NIBA-028).
  ///
  /// iOS: the `objects-V+.nib` with the highest V not above `version`, else `runtime.nib`, else `objects.nib`;
  /// without a version, `runtime.nib`, else `objects.nib`, else the highest `objects-V+.nib`. macOS (no iOS member
  /// present): the `keyedobjects-N.nib` with the highest version not above `version`, else `keyedobjects.nib`;
  /// without a version, the highest `keyedobjects-N.nib`, else `keyedobjects.nib`.
  /// - Parameter version: the OS version the loader runs on, or `nil` for "newest".
  /// - Returns: a member name, or `nil` when no member fits.
  public func preferredMemberName(forSystemVersion version: Version? = nil) -> String? {
    let names = NIBArchiveWireNames.self
    let members = Set(memberNames)
    let iOSVersioned = memberNames.compactMap { name in
      Self.version(of: name, prefix: names.iOSVersionedMemberPrefix, suffix: names.iOSVersionedMemberSuffix).map {
        (version: $0, name: name)
      }
    }
    let fallbacks = [names.runtimeMember, names.iOSUnversionedMember].filter(members.contains)
    if !iOSVersioned.isEmpty || !fallbacks.isEmpty {
      if let version {
        let fitting = iOSVersioned.filter { $0.version <= version }.max { $0.version < $1.version }
        return fitting?.name ?? fallbacks.first
      }
      return fallbacks.first ?? iOSVersioned.max { $0.version < $1.version }?.name
    }
    let macOSVersioned = memberNames.compactMap { name in
      Self.macOSVersion(of: name).map { (version: $0, name: name) }
    }
    let keyed = members.contains(names.macOSKeyedMember) ? names.macOSKeyedMember : nil
    if let version {
      return macOSVersioned.filter { $0.version <= version }.max { $0.version < $1.version }?.name ?? keyed
    }
    return macOSVersioned.max { $0.version < $1.version }?.name ?? keyed
  }

  /// The URL of ``preferredMemberName(forSystemVersion:)``.
  /// - Parameter version: the OS version the loader runs on, or `nil` for "newest".
  /// - Returns: the member's URL, or `nil` when no member fits.
  public func preferredMemberURL(forSystemVersion version: Version? = nil) -> URL? {
    preferredMemberName(forSystemVersion: version).map { url.appendingPathComponent($0, isDirectory: false) }
  }

  /// The version in `objects-14.0+.nib`.
  static func version(of name: String, prefix: String, suffix: String) -> Version? {
    guard name.hasPrefix(prefix), name.hasSuffix(suffix), name.count > prefix.count + suffix.count else { return nil }
    return Version(name.dropFirst(prefix.count).dropLast(suffix.count))
  }

  /// The version in `keyedobjects-101300.nib`: six digits MMmmpp (10.13.0), or fewer with leading zeros dropped.
  static func macOSVersion(of name: String) -> Version? {
    let names = NIBArchiveWireNames.self
    guard name.hasPrefix(names.macOSVersionedMemberPrefix), name.hasSuffix(names.macOSVersionedMemberSuffix) else {
      return nil
    }
    let digits = name.dropFirst(names.macOSVersionedMemberPrefix.count).dropLast(
      names.macOSVersionedMemberSuffix.count)
    guard (1...8).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(digits)
    else { return nil }
    return Version(number / 10000, (number / 100) % 100, number % 100)
  }
}
