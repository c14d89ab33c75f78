import ArchiveCoding
import Foundation
import KeyedArchive
import Synchronization
import Testing

/// What a `Node` makes of its plain fields.
private final class NodeFields: PlainFields {
  static let runs = Mutex(0)
  let name: String
  init(coder: any DecodingCoder) throws {
    Self.runs.withLock { $0 += 1 }
    name = try coder.decodeString(forKey: "name") ?? ""
  }
}

/// A node written with the requirements a nib's coder makes fast, decoded here by the keyed unarchiver, whose
/// defaults answer them.
final class RequirementNode: Coding {
  var name: String
  var children: [AnyObject] = []
  weak var parent: RequirementNode?
  init(name: String) { self.name = name }
  required init(coder: any DecodingCoder) throws {
    name = try coder.decodePlainFields(NodeFields.self).name
    children = try coder.decodeObjectReferences(forKey: "children") ?? []
    try coder.decodeDeferredObject(forKey: "parent", allowedClasses: nil) { owner, object in
      (owner as? RequirementNode)?.parent = object as? RequirementNode
    }
  }
  func encode(with coder: any EncodingCoder) {
    coder.encode(name, forKey: "name")
    coder.encodeObject(children, forKey: "children")
    coder.encodeConditionalObject(parent, forKey: "parent")
  }
}

@Suite("Coder requirements and their defaults", .serialized)
struct CoderRequirementDefaultsTests {
  init() { ClassRegistry.shared.register(RequirementNode.self, as: "RequirementNode") }

  @Test("COD-230, COD-231, COD-238: the defaults run the plain-fields initialiser, link objects, keep references")
  func defaultsThroughTheKeyedUnarchiver() throws {
    let root = RequirementNode(name: "root")
    let child = RequirementNode(name: "child")
    child.parent = root
    root.children = [child]
    let data = try KeyedArchiver.archivedData(withRootObject: root)
    NodeFields.runs.withLock { $0 = 0 }
    for _ in 0..<2 {
      let back = try #require(try KeyedUnarchiver.unarchivedRootObject(from: data) as? RequirementNode)
      let decodedChild = try #require(back.children.first as? RequirementNode)
      #expect(back.name == "root" && decodedChild.name == "child")
      #expect(decodedChild.parent === back, "the deferred object is linked once both exist")
    }
    #expect(NodeFields.runs.withLock { $0 } == 4, "a coder that decodes each object once keeps nothing")
  }

  @Test("COD-231, COD-238: a value that is not an object is a typeMismatch naming the key")
  func nonObjectsAreErrors() throws {
    let node = RequirementNode(name: "n")
    node.children = ["text" as NSString]
    let strings = try KeyedArchiver.archivedData(withRootObject: node)
    #expect {
      try KeyedUnarchiver.unarchivedRootObject(from: strings)
    } throws: { error in
      let error = error as? ArchiveError
      return error?.code == .typeMismatch && error?.message.contains("expected an object, found String") == true
    }
  }
}
