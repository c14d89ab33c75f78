import Foundation

/// The text of an `NSString` or `NSMutableString` (ARC-031): inline in `NS.string` (or in a string entry it refers
/// to), as UTF-8 in `NS.bytes`, or in another object `NS.string` refers to.
package enum TextForm: Hashable, Sendable {
  case text(String)
  /// The object holding the text.
  case contents(Int)

  /// Reads the keyed form.
  /// - Throws: ``FormMismatch`` when the object stores neither.
  package init(keyed source: inout some KeyedFormSource) throws {
    // In the order the canonical view has always taken them: inline text, then UTF-8 bytes, then a reference.
    let field = try source.field(FoundationKeys.nsString)
    if case .value(.string(let text))? = field {
      self = .text(text)
    } else if case .value(.bytes(let bytes))? = try source.field(FoundationKeys.nsBytes) {
      self = .text(String(decoding: bytes, as: UTF8.self))
    } else if let index = field?.referencedIndex {
      self = .contents(index)
    } else {
      throw FormMismatch(
        .corruptData, "\(FoundationClass.string) without \(FoundationKeys.nsString)", key: FoundationKeys.nsString)
    }
  }
}

/// The bytes of an `NSData` or `NSMutableData` (ARC-031): inline in `NS.data` (or `NS.bytes`), or in another object
/// `NS.data` refers to.
package enum BytesForm: Hashable, Sendable {
  case bytes(Data)
  /// The object holding the bytes.
  case contents(Int)

  /// Reads the keyed form.
  /// - Throws: ``FormMismatch`` when the object stores neither.
  package init(keyed source: inout some KeyedFormSource) throws {
    let field = try source.field(FoundationKeys.nsData)
    if case .value(.bytes(let bytes))? = field {
      self = .bytes(bytes)
    } else if field == nil, case .value(.bytes(let bytes))? = try source.field(FoundationKeys.nsBytes) {
      self = .bytes(bytes)
    } else if let index = field?.referencedIndex {
      self = .contents(index)
    } else {
      throw FormMismatch(
        .corruptData, "\(FoundationClass.data) without \(FoundationKeys.nsData)", key: FoundationKeys.nsData)
    }
  }
}
