/// What a class's ``Coding/init(coder:)`` makes of its object's plain fields (the fields that refer to no other
/// object: numbers, strings, geometry, records, which keys are present), read together by one initialiser, so that a
/// coder that decodes the same object many times may keep the result and hand it to the later decodings
/// (``DecodingCoder/decodePlainFields(_:)``, COD-230). A nib's coder does: from a cached `Nib`'s second
/// instantiation on, each object's plain fields are read and converted once, whatever class reads them, the
/// interface catalog's or yours.
///
///     final class Badge: View {
///       var count: Int
///       private final class Fields: PlainFields {
///         let count: Int
///         let caption: String?
///         init(coder: any DecodingCoder) throws {
///           count = try coder.decodeInt(forKey: "count")
///           caption = try coder.decodeString(forKey: "caption")
///         }
///       }
///       required init(coder: any DecodingCoder) throws {
///         let fields = try coder.decodePlainFields(Fields.self)
///         count = fields.count
///         try super.init(coder: coder)
///       }
///     }
///
/// The initialiser must read nothing but the object's fields, so that its result depends on them alone: a coder may
/// hand one result to every later decoding of the same object. One that reads a field referring to another object
/// (which every decoding must instantiate afresh) is run again on every decoding. A class, immutable once made, so
/// that the result is shared rather than copied.
public protocol PlainFields: AnyObject {
  /// Reads the values from the current object's fields.
  /// - Throws: what the coder's calls throw.
  init(coder: any DecodingCoder) throws
}
