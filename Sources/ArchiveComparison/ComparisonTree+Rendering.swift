import Foundation
import FoundationForms

extension ComparisonTree {
  /// The canonical JSON text of the value at `node`.
  package func text(_ node: Int32) -> String {
    var writer = CanonicalJSONWriter()
    write(node, to: &writer)
    return writer.text
  }

  /// Writes the value at `node` as the canonical walk reported it (its canonical view): a class object in full
  /// with `$class` (and `$id` when it is shared) among its fields, a reference as `{"$ref": N}`.
  package func write(_ node: Int32, to visitor: inout CanonicalJSONWriter) {
    enum Step {
      case node(Int32)
      case name(String, isField: Bool)
      case classMember(String)
      case identityMember(Int)
      case endObject
      case endClassObject
      case endArray
    }
    var steps: [Step] = [.node(node)]
    while let step = steps.popLast() {
      switch step {
      case .name(let name, let isField): isField ? visitor.visitField(name) : visitor.visitKey(name)
      case .classMember(let name): visitor.visitClassMember(name)
      case .identityMember(let id): visitor.visitIdentityMember(id)
      case .endObject: visitor.endObject()
      case .endClassObject: visitor.endClassObject()
      case .endArray: visitor.endArray()
      case .node(let index):
        let n = nodes[Int(index)]
        switch n.kind {
        case .null: visitor.visitNull()
        case .bool: visitor.visitBool(n.payload != 0)
        case .number: visitor.visitNumber(Self.number(of: n))
        case .string: visitor.visitString(text(ofLeaf: index))
        case .data: visitor.visitData(Data(bytes(index)))
        case .date: visitor.visitDate(Self.number(of: n))
        case .uid:
          if case .unsignedInteger(let value) = Self.number(of: n) { visitor.visitUID(value) }
        case .foundation: visitor.visitFoundationValue(foundationValues[Int(n.payload)])
        case .raw: visitor.visitRaw(text(ofLeaf: index))
        case .reference: visitor.visitReference(Int(n.payload))
        case .cycle: visitor.visitCycle(Int(n.payload))
        case .array:
          visitor.beginArray(n.order)
          steps.append(.endArray)
          for position in members(index).reversed() { steps.append(.node(children[position])) }
        case .object:
          visitor.beginObject()
          steps.append(.endObject)
          for position in members(index).reversed() {
            steps.append(.node(children[position]))
            steps.append(.name(name(position), isField: false))
          }
        case .classObject:
          let className = nameTable[Int(n.payload)]
          let id = identity(index)
          visitor.beginClassObject(CanonicalClassObject(className: className, id: id, isShared: n.isShared))
          var entries: [(String, Step, Int32?)] = members(index).map {
            (name($0), .name(name($0), isField: true), children[$0])
          }
          entries.append((CanonicalMember.className, .classMember(className), nil))
          if n.isShared { entries.append((CanonicalMember.id, .identityMember(id), nil)) }
          entries.sort { CanonicalText.precedes($0.0, $1.0) }
          steps.append(.endClassObject)
          for entry in entries.reversed() {
            if let child = entry.2 { steps.append(.node(child)) }
            steps.append(entry.1)
          }
        }
      }
    }
  }
}
