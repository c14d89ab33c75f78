/// Answers ``DecodingCoder/version(forClassName:)`` for a coder whose format records class versions, such as a
/// typedstream, where each class description carries the version its writer's class had.
///
/// Keyed archives record none (Apple's `NSKeyedArchiver` writes no class versions), so the keyed unarchiver has no
/// source and reports the version of the class this process decodes the name as (``Coding/classVersion``).
public protocol ClassVersionSource: AnyObject {
  /// The version the archive recorded for `className`, or `nil` when it recorded none for that name.
  func recordedVersion(forClassName className: String) -> Int?
}
