/// The two serialised forms of a property list.
public enum PropertyListFormat: String, Sendable, Hashable, CaseIterable {
  /// Apple's binary form, `bplist00`.
  case binary
  /// Apple's XML form, `<plist version="1.0">`.
  case xml
}
