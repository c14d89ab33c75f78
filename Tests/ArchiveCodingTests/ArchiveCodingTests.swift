import ArchiveCoding
import Foundation
import Testing

final class Gadget: KeyValueObservable {
  let keyValueObservers = KeyValueObservers()
  var name = ""
  var size = 0.0
  var child: Gadget?
  static var keyValueAccessors: [String: KeyValueAccessor] {
    ["name": .property(\Gadget.name), "size": .property(\Gadget.size), "child": .property(\Gadget.child)]
  }
}

@Suite("ArchiveCoding")
struct ArchiveCodingTests {
  @Test("COD-050: Darwin's runtime names of Swift classes are read as Module.Class")
  func demangling() {
    #expect(ClassRegistry.demangledName("_TtC6uitest11AppDelegate") == "uitest.AppDelegate")
    #expect(ClassRegistry.demangledName("_TtC10TestModule10MyDelegate") == "TestModule.MyDelegate")
    #expect(ClassRegistry.demangledName("_TtC6uitest99AppDelegate") == nil, "a length past the end")
    #expect(ClassRegistry.demangledName("NSView") == nil)
    #expect(ClassRegistry.demangledName("_TtC") == nil)
  }

  @Test(
    "NIB-002: setValue(_:forKey:) converts numbers, walks key paths and posts will/did-change with old and new values")
  func keyValueCoding() throws {
    let gadget = Gadget()
    gadget.child = Gadget()
    var changes: [(KeyValueChange.Kind, String?, String?)] = []
    let token = gadget.observe("name") { change in
      changes.append((change.kind, change.oldValue as? String, change.newValue as? String))
    }
    try gadget.setValue("knob", forKey: "name")
    try gadget.setValue(3, forKey: "size")
    try gadget.setValue("inner", forKeyPath: "child.name")
    #expect(gadget.size == 3.0)
    #expect(gadget.child?.name == "inner")
    #expect(try gadget.value(forKeyPath: "child.name") as? String == "inner")
    #expect(changes.map(\.0) == [.willChange, .didChange])
    #expect(changes.map(\.1) == ["", ""])
    #expect(changes.map(\.2) == ["knob", "knob"])
    token.cancel()
    try gadget.setValue("after", forKey: "name")
    #expect(changes.count == 2, "a cancelled observer hears nothing")
  }

  @Test("NIB-013: an undefined key or a value of the wrong type is an error naming the class and the key")
  func undefinedKey() {
    let gadget = Gadget()
    do {
      try gadget.setValue(1, forKey: "colour")
      Issue.record("expected an error")
    } catch let error as ArchiveError {
      #expect(error.code == .connectionFailed)
      #expect(
        error.description.hasPrefix(
          "class Gadget, key \"colour\": Gadget is not key-value coding compliant for the key \"colour\""))
    } catch {
      Issue.record("unexpected \(error)")
    }
    #expect(throws: ArchiveError.self) { try gadget.setValue("big", forKey: "size") }
  }

  @Test("COD-002: errors say where, what was expected and what was found; text inputs use compiler style")
  func errorDescriptions() {
    let binary = ArchiveError(
      .typeMismatch, "expected a string, found an integer",
      at: .init(objectIndex: 12, className: "UIButton", keyPath: "UITitle"))
    #expect(binary.description == "object #12 (UIButton), key \"UITitle\": expected a string, found an integer")
    let text = ArchiveError(
      .corruptData, "unknown connection kind \"binding\"", at: .init(file: "OmniBar.xib", line: 41, column: 17),
      sourceLine: "    <binding destination=\"x\"/>")
    #expect(
      text.description
        == "OmniBar.xib:41:17: error: unknown connection kind \"binding\"\n    <binding destination=\"x\"/>\n                ^"
    )
  }
}
