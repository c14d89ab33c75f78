import Foundation
import FoundationForms
import PropertyList

extension PropertyListValue {
  /// Reports the value as the canonical view writes a property list value (CLI-010): UIDs as `{"$uid": N}`, a
  /// set's members sorted by their text, a dictionary whose keys are all strings as an object with sorted keys,
  /// another as `{"$dictionary": [[key, value], …]}` sorted by the key's text.
  package func visit(with visitor: inout some CanonicalVisitor) {
    switch self {
    case .null: visitor.visitNull()
    case .bool(let value): visitor.visitBool(value)
    case .integer(let value): visitor.visitNumber(.integer(value))
    case .unsignedInteger(let value): visitor.visitNumber(.unsignedInteger(value))
    case .real(let value): visitor.visitNumber(.real(value))
    case .float(let value): visitor.visitNumber(.real(Double(value)))
    case .date(let value): visitor.visitDate(.real(value.timeIntervalSinceReferenceDate))
    case .data(let value): visitor.visitData(value)
    case .string(let value): visitor.visitString(value)
    case .uid(let value): visitor.visitUID(value)
    case .array(let elements):
      visitor.beginArray(.asWalked)
      for element in elements { element.visit(with: &visitor) }
      visitor.endArray()
    case .set(let members):
      visitor.beginObject()
      visitor.visitKey(CanonicalMember.set)
      visitor.beginArray(.byText)
      for member in members { member.visit(with: &visitor) }
      visitor.endArray()
      visitor.endObject()
    case .dictionary(let dictionary):
      if dictionary.hasOnlyStringKeys {
        visitor.beginObject()
        let entries = dictionary.entries.map { (key: $0.key.stringValue ?? "", value: $0.value) }
        for entry in entries.sorted(by: { CanonicalText.precedes($0.key, $1.key) }) {
          visitor.visitKey(entry.key)
          entry.value.visit(with: &visitor)
        }
        visitor.endObject()
      } else {
        visitor.beginObject()
        visitor.visitKey(CanonicalMember.dictionary)
        visitor.beginArray(.byKeyText)
        for entry in dictionary.entries {
          visitor.beginArray(.asWalked)
          entry.key.visit(with: &visitor)
          entry.value.visit(with: &visitor)
          visitor.endArray()
        }
        visitor.endArray()
        visitor.endObject()
      }
    }
  }

  /// The value's canonical text, on one line.
  package var canonicalText: String {
    var writer = CanonicalJSONWriter()
    visit(with: &writer)
    return writer.text
  }
}

extension CanonicalJSON {
  /// The canonical JSON nodes of a property-list value.
  package static func node(_ value: PropertyListValue) -> Node {
    var builder = NodeBuilder()
    value.visit(with: &builder)
    return builder.root
  }
}
