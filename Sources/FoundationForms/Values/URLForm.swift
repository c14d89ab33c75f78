import Foundation

/// `NSURL` (ARC-032): its relative string (`NS.relative`) and a reference to the `NSURL` it is relative to
/// (`NS.base`), if any.
package struct URLForm: Hashable, Sendable {
  package var relative: String
  /// The base URL object, when the form refers to one.
  package var base: Int?

  /// Reads the keyed form. A base that is not a reference to an object is no base.
  /// - Throws: ``FormMismatch`` without a string `NS.relative`.
  package init(keyed source: inout some KeyedFormSource) throws {
    relative = try source.requiredString(FoundationKeys.nsRelative, of: FoundationClass.url)
    base = try source.part { try $0.reference(FoundationKeys.nsBase) }.value
  }

  /// The URL `relative` names against `base`: an empty reference is its base without the fragment (RFC 3986,
  /// 5.2.2), which `URL(string:relativeTo:)` does not give; `nil` when `relative` is not a URL.
  package static func resolved(_ relative: String, against base: URL?) -> URL? {
    if relative.isEmpty, let base {
      var components = URLComponents(url: base, resolvingAgainstBaseURL: true)
      components?.fragment = nil
      return components?.url ?? base
    }
    return URL(string: relative, relativeTo: base)
  }
}

extension URLForm {
  /// Writes the keyed form of `url`: its base URL (`$null` for none), then its relative string (its absolute
  /// string when it has no base).
  package static func write(_ url: URL, to sink: inout some KeyedFormSink) {
    sink.object(url.baseURL, forKey: FoundationKeys.nsBase)
    sink.plain(.string(url.baseURL == nil ? url.absoluteString : url.relativeString), forKey: FoundationKeys.nsRelative)
  }
}
