/// What a reader of Foundation's sequential forms (`NSArchiver`'s typedstreams, TS-070) reads one object's fields
/// through: the fields in stream order, each as the forms need it. The typedstream module gives the forms its
/// values this way, so that each class's layout is read in one place (FORM-060).
package protocol SequentialFormSource {
  /// The number of fields.
  var fieldCount: Int { get }
  /// Field `index`.
  func field(_ index: Int) -> SequentialFormField
  /// The text of object `ordinal` when it is an `NSString` or `NSMutableString`, else `nil`.
  /// - Throws: the object's own form's error.
  func text(ofObject ordinal: Int) throws -> String?
}

/// One field of a typedstream object, as the sequential forms read it.
package enum SequentialFormField {
  /// An integer of any width (`c s i l q C S I L Q`) that fits in `Int`.
  case integer(Int)
  /// `+`: bytes, `nil` for NIL.
  case bytes([UInt8]?)
  /// `*`: a C string, `nil` for NIL.
  case cString([UInt8]?)
  /// `[N c]`, `[N C]`: raw bytes.
  case byteArray([UInt8])
  /// `d`.
  case double(Double)
  /// `@`: an object's ordinal, `nil` for NIL.
  case object(Int?)
  /// Anything else (a real of another width, an integer past `Int`, a structure, …).
  case other
}
