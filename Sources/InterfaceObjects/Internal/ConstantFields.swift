import ArchiveCoding
import NibLoading

/// What one catalog class's `init(coder:)` makes of the fields that refer to no object (a view's frame, colour,
/// flags; a label's text and font): read together by one initialiser, so that a nib's later instantiations can
/// take them from the first that recorded them instead of reading and converting every field again (NIB-042).
///
/// A conforming initialiser must read nothing but such fields: it runs once per nib object, and every later
/// instantiation of the nib shares its result. Fields that refer to objects (subviews, constraints' items) are
/// read by the class's `init(coder:)` itself, on every instantiation.
///
/// A class (immutable once read), so that the nib's coder keeps the instance itself and an initialiser reads its
/// properties without copying them out of a box.
protocol ConstantFields: AnyObject {
  /// Reads the values from the coder's fields.
  init(reading coder: any DecodingCoder) throws
}

extension DecodingCoder {
  /// `Values(reading:)` of this coder; from a nib's coder, the values an earlier instantiation recorded at this
  /// point of the object's lookups when there are some (NIB-042).
  @inline(__always)
  func constants<Values: ConstantFields>(_ type: Values.Type) throws -> Values {
    if let values = replayedNibMemo(Values.self) { return values }
    guard let nib = nibCoder else { return try Values(reading: self) }
    let start = nib.memoStart
    let values = try Values(reading: self)
    if let start { nib.recordMemo(values, start: start) }
    return values
  }
}
