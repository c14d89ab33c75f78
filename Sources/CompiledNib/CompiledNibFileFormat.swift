/// The kind of a compiled-nib file, told from its first bytes (rule NIBA-030).
public enum CompiledNibFileFormat: Hashable, Sendable, CustomStringConvertible {
  /// Starts with `NIBArchive`: read it with ``NIBArchiveDocument``.
  case nibArchive
  /// Starts with `bplist00`: a binary property list, for nibs a keyed archive.
  case binaryPropertyList
  /// Starts with `<?xml` (after an optional UTF-8 byte-order mark): XIB, designable.nib or an XML property list.
  case xml
  /// Anything else.
  case unknown

  /// Tells the format from the first bytes of a file.
  /// - Parameter bytes: the file's bytes, or at least its first 10.
  public init(sniffing bytes: some Collection<UInt8>) {
    func starts(with prefix: [UInt8], dropping count: Int = 0) -> Bool {
      bytes.dropFirst(count).starts(with: prefix)
    }
    if starts(with: NIBArchiveWireNames.magic) {
      self = .nibArchive
    } else if starts(with: NIBArchiveWireNames.binaryPropertyListMagic) {
      self = .binaryPropertyList
    } else if starts(with: NIBArchiveWireNames.xmlDeclarationStart)
      || (starts(with: [0xEF, 0xBB, 0xBF]) && starts(with: NIBArchiveWireNames.xmlDeclarationStart, dropping: 3))
    {
      self = .xml
    } else {
      self = .unknown
    }
  }

  /// A readable name: `NIBArchive`, `binary property list`, `XML`, `unknown format`.
  public var description: String {
    switch self {
    case .nibArchive: "NIBArchive"
    case .binaryPropertyList: "binary property list (keyed-archive nib)"
    case .xml: "XML"
    case .unknown: "unknown format"
    }
  }
}
