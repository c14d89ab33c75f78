import Foundation

extension FoundationValue {
  /// Reports the value's canonical form (cli.md's table) to `visitor`, through the visitor's core: a time zone as
  /// `{"$timeZone": name}`, an `NSValue`'s rectangle as `{"$class": "NSValue", "rect": [x, y, w, h]}`, ….
  package func visit(with visitor: inout some CanonicalVisitor) {
    switch self {
    case .uuid(let uuid): Self.tagged(CanonicalMember.uuid, &visitor) { $0.visitString(CanonicalText.uuidText(uuid)) }
    case .url(let text): Self.tagged(CanonicalMember.url, &visitor) { $0.visitString(text) }
    case .null:
      visitor.beginObject()
      visitor.visitKey(CanonicalMember.className)
      visitor.visitString(FoundationClass.null)
      visitor.endObject()
    case .value(let geometry):
      visitor.beginObject()
      visitor.visitKey(CanonicalMember.className)
      visitor.visitString(FoundationClass.value)
      switch geometry {
      case .point(let numbers): Self.reals("point", numbers, &visitor)
      case .size(let numbers): Self.reals("size", numbers, &visitor)
      case .rect(let numbers): Self.reals("rect", numbers, &visitor)
      case .range(let location, let length):
        visitor.visitKey("range")
        visitor.beginArray(.asWalked)
        visitor.visitNumber(location)
        visitor.visitNumber(length)
        visitor.endArray()
      }
      visitor.endObject()
    case .timeZone(let name): Self.tagged(CanonicalMember.timeZone, &visitor) { $0.visitString(name) }
    case .locale(let identifier): Self.tagged(CanonicalMember.locale, &visitor) { $0.visitString(identifier) }
    case .calendar(let identifier): Self.tagged(CanonicalMember.calendar, &visitor) { $0.visitString(identifier) }
    case .indexSet(let ranges):
      Self.tagged(CanonicalMember.indexSet, &visitor) { visitor in
        visitor.beginArray(.asWalked)
        for range in ranges.sorted(by: { $0.location < $1.location }) {
          visitor.beginArray(.asWalked)
          visitor.visitNumber(.unsignedInteger(range.location))
          visitor.visitNumber(.unsignedInteger(range.length))
          visitor.endArray()
        }
        visitor.endArray()
      }
    case .indexPath(let indexes):
      Self.tagged(CanonicalMember.indexPath, &visitor) { visitor in
        visitor.beginArray(.asWalked)
        for index in indexes { visitor.visitNumber(.unsignedInteger(index)) }
        visitor.endArray()
      }
    case .dateComponents(let components):
      var members: [(String, Member)] = components.fields.map { ($0.name, .integer($0.value)) }
      if components.isLeapMonth { members.append(("isLeapMonth", .bool(true))) }
      if let calendar = components.calendar { members.append(("calendar", .value(calendar))) }
      if let timeZone = components.timeZone { members.append(("timeZone", .value(timeZone))) }
      Self.tagged(CanonicalMember.dateComponents, &visitor) { Self.sortedObject(members, &$0) }
    case .personName(let name):
      var members: [(String, Member)] = name.parts.map { ($0.name, .string($0.text)) }
      if let phonetic = name.phonetic { members.append(("phoneticRepresentation", .value(phonetic))) }
      Self.tagged(CanonicalMember.personName, &visitor) { Self.sortedObject(members, &$0) }
    case .measurement(let value, let unit, let unitClass):
      Self.tagged(CanonicalMember.measurement, &visitor) { visitor in
        Self.sortedObject(
          [("value", .real(value)), ("unit", .string(unit)), ("unitClass", .string(unitClass))], &visitor)
      }
    case .characterSet(let set):
      var members: [(String, Member)] = []
      switch set.content {
      case .string(let text): members.append(("string", .string(text)))
      case .builtin(let number): members.append(("builtin", .integer(number)))
      case .bitmap(let bytes): members.append(("bitmap", .data(bytes)))
      }
      if set.inverted { members.append(("inverted", .bool(true))) }
      Self.tagged(CanonicalMember.characterSet, &visitor) { Self.sortedObject(members, &$0) }
    }
  }

  /// A member of a form's object.
  private enum Member {
    case integer(Int64)
    case real(Double)
    case bool(Bool)
    case string(String)
    case data(Data)
    case value(FoundationValue)
  }

  /// `{tag: body}`.
  private static func tagged<Visitor: CanonicalVisitor>(
    _ tag: String, _ visitor: inout Visitor, _ body: (inout Visitor) -> Void
  ) {
    visitor.beginObject()
    visitor.visitKey(tag)
    body(&visitor)
    visitor.endObject()
  }

  /// `name: [reals]`.
  private static func reals(_ name: String, _ numbers: [Double], _ visitor: inout some CanonicalVisitor) {
    visitor.visitKey(name)
    visitor.beginArray(.asWalked)
    for number in numbers { visitor.visitNumber(.real(number)) }
    visitor.endArray()
  }

  /// An object of `members` in the canonical order of their names.
  private static func sortedObject(_ members: [(String, Member)], _ visitor: inout some CanonicalVisitor) {
    visitor.beginObject()
    for (name, member) in members.sorted(by: { CanonicalText.precedes($0.0, $1.0) }) {
      visitor.visitKey(name)
      switch member {
      case .integer(let value): visitor.visitNumber(.integer(value))
      case .real(let value): visitor.visitNumber(.real(value))
      case .bool(let value): visitor.visitBool(value)
      case .string(let text): visitor.visitString(text)
      case .data(let bytes): visitor.visitData(bytes)
      case .value(let value): visitor.visitFoundationValue(value)
      }
    }
    visitor.endObject()
  }
}
