import ArchiveCoding
import Foundation

/// A nib archived inside another nib, as Apple's tools write `UINib` and `NSNib` objects: the prototype cells of a
/// compiled storyboard's table view (`UITableViewCellPrototypeNibs`) and the cell views of an AppKit table view
/// (`NSTableViewArchivedReusableViewsKey`). Decoding keeps the bytes; the ``nib`` parses them on its first
/// instantiation (NIB-106).
public final class ArchivedNib: Coding, NibAwaking {
  /// The nib of the archived bytes, in the registry of the coder that decoded it.
  public let nib: Nib
  /// The archived bytes (a `NIBArchive` or a keyed-archive nib).
  public let data: Data

  /// The largest nib data read from an archive: 64 MiB.
  public static let maximumDataLength = 64 << 20

  /// Archives the bytes of a nib.
  /// - Parameters:
  ///   - data: a nib's bytes (`NIBArchive`, keyed archive or XIB).
  ///   - registry: where the nib's classes are looked up.
  public init(data: Data, registry: ClassRegistry = .shared) {
    self.data = data
    nib = Nib(data: data, name: "archived nib", registry: registry)
  }

  /// Reads UIKit's `archiveData` or AppKit's `NSNibFileData`.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` (`.valueNotFound`) when neither key holds bytes, (`.limitExceeded`) when
  ///   they are larger than ``maximumDataLength``.
  public required init(coder: any DecodingCoder) throws {
    guard let bytes = try coder.decodeData(forKey: "archiveData") ?? coder.decodeData(forKey: "NSNibFileData") else {
      throw ArchiveError(
        .valueNotFound, "expected the nib's bytes in \"archiveData\" or \"NSNibFileData\", found neither")
    }
    guard bytes.count <= Self.maximumDataLength else {
      throw ArchiveError(
        .limitExceeded, "archived nib of \(bytes.count) bytes exceeds the limit of \(Self.maximumDataLength)")
    }
    data = bytes
    nib = Nib(data: bytes, name: "archived nib", registry: coder.registry)
  }

  /// Writes the bytes under UIKit's key, `archiveData`.
  public func encode(with coder: any EncodingCoder) { coder.encode(data, forKey: "archiveData") }

  /// Nothing to do: sent, as to every object a nib decodes, after the nib's connections are made.
  public func awakeFromNib() {}

  /// UIKit's class name.
  public static var archivedClassName: String { "UINib" }
}
