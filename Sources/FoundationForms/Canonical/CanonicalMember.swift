/// The member names the canonical view (`keyed dump --json`, cli.md) gives its own forms: every one is spelled
/// here, for the writers and the readers of the view.
package enum CanonicalMember {
  /// A class object's class name.
  package static let className = "$class"
  /// The identity of a class object reached more than once, at its first appearance.
  package static let id = "$id"
  /// A later appearance of such an object.
  package static let reference = "$ref"
  /// Where a cycle made only of Foundation collections closes.
  package static let cycle = "$cycle"
  /// A typedstream object's fields.
  package static let fields = "$fields"
  /// Bytes, in base64.
  package static let data = "$data"
  /// A date, seconds since 2001-01-01T00:00:00Z.
  package static let date = "$date"
  /// A real that JSON has no number for (`nan`, `+inf`, `-inf`).
  package static let real = "$real"
  /// A property list UID (raw views).
  package static let uid = "$uid"
  /// The members of a set.
  package static let set = "$set"
  /// The members of an ordered set.
  package static let orderedSet = "$orderedSet"
  /// The entries of a dictionary whose keys are not all strings.
  package static let dictionary = "$dictionary"
  /// A nib placeholder's role.
  package static let placeholder = "$placeholder"
  /// A structured value of a nib (`{"$record": name, …}`).
  package static let record = "$record"
  // Foundation value forms.
  package static let uuid = "$uuid"
  package static let url = "$url"
  package static let timeZone = "$timeZone"
  package static let locale = "$locale"
  package static let calendar = "$calendar"
  package static let indexSet = "$indexSet"
  package static let indexPath = "$indexPath"
  package static let dateComponents = "$dateComponents"
  package static let personName = "$personName"
  package static let measurement = "$measurement"
  package static let characterSet = "$characterSet"
}
