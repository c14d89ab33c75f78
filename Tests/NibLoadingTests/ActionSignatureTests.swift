import ArchiveCoding
import Foundation
import InterfaceObjects
import NibLoading
import Testing

/// A File's Owner whose actions take every signature UIKit and AppKit accept.
final class SignatureOwner: Responder {
  var log: [String] = []
  override init() { super.init() }
  required init(coder: any DecodingCoder) throws { try super.init(coder: coder) }
  func plain() { log.append("plain") }
  func anySender(_ sender: Any) { log.append("any \(type(of: sender))") }
  func optionalSender(_ sender: Any?) { log.append("optional \(sender.map { "\(type(of: $0))" } ?? "nil")") }
  func typed(_ sender: Button) { log.append("typed \(sender.title(for: .normal) ?? "")") }
  func typedOptional(_ sender: Switch?) { log.append("switch \(sender?.isOn == true)") }
  func pressed(_ sender: Any, forEvent event: ActionEvent) { log.append("pressed \(event.controlEvents.rawValue)") }
  func dragged(_ sender: Button?, event: ActionEvent?) { log.append("dragged \(event?.controlEvents.rawValue ?? 0)") }
  override class var actions: [Action] {
    [
      Action("plain", plain), Action("anySender:", anySender), Action("optionalSender:", optionalSender),
      Action("typed:", typed), Action("typedOptional:", typedOptional), Action("pressed:forEvent:", pressed),
      Action("dragged:event:", dragged),
    ]
  }
}

/// A class whose declarations' selectors do not match their methods.
final class MisdeclaredOwner: Responder {
  var log: [String] = []
  override init() { super.init() }
  required init(coder: any DecodingCoder) throws { try super.init(coder: coder) }
  func close() { log.append("close") }
  func save(_ sender: Any?) { log.append("save") }
  override class var actions: [Action] { [Action("close:", close), Action("save", save)] }
}

private let signatureRegistry = catalogRegistry(with: [SignatureOwner.self, MisdeclaredOwner.self])

/// NIB-340 to NIB-342: actions with every signature, a sender of another class, a selector that does not match.
@Suite("Action signatures")
struct ActionSignatureTests {
  private func nib(_ body: String) -> Nib {
    Nib(
      data: xib(
        #"<placeholder placeholderIdentifier="IBFilesOwner" id="-1"/>"# + "\n" + body),
      registry: signatureRegistry)
  }

  private func button(_ id: String, _ title: String, _ selector: String, event: String = "touchUpInside") -> String {
    #"""
    <button id="\#(id)"><state key="normal" title="\#(title)"/>
      <connections><action selector="\#(selector)" destination="-1" eventType="\#(event)" id="a\#(id)"/></connections>
    </button>
    """#
  }

  @Test("NIB-340: none, a sender of any type or class, a sender and an event: each runs with what it takes")
  func everySignature() throws {
    let owner = SignatureOwner()
    let objects = try nib(
      [
        button("b1", "one", "plain"), button("b2", "two", "anySender:"), button("b3", "three", "optionalSender:"),
        button("b4", "four", "typed:"), button("b5", "five", "pressed:forEvent:"),
        button("b6", "six", "dragged:event:", event: "touchDown"),
        #"""
        <switch id="s1" on="YES">
          <connections><action selector="typedOptional:" destination="-1" eventType="valueChanged" id="as1"/></connections>
        </switch>
        """#,
      ].joined(separator: "\n")
    ).instantiate(owner: owner)
    for case let button as Button in objects { button.sendActions(for: .touchUpInside) }
    for case let button as Button in objects { button.sendActions(for: .touchDown) }
    for case let toggle as Switch in objects { toggle.sendActions(for: .valueChanged) }
    #expect(
      owner.log == [
        "plain", "any Button", "optional Button", "typed four", "pressed 64", "dragged 1", "switch true",
      ])
  }

  @Test("NIB-341: a sender of another class than the method takes is a load error with the file, line and column")
  func senderOfAnotherClass() throws {
    let document = nib(
      #"""
      <switch id="s1">
        <connections><action selector="typed:" destination="-1" eventType="valueChanged" id="as1"/></connections>
      </switch>
      """#)
    #expect {
      try document.instantiate(owner: SignatureOwner())
    } throws: { error in
      guard let error = error as? ArchiveError else { return false }
      return error.code == .connectionFailed && error.location.line != nil && error.location.column != nil
        && error.message.contains("takes a sender of type Button, but Switch sends it")
    }
    // The same method sent in code by another class does not run, as an unwind action sent a non-segue does not.
    let owner = SignatureOwner()
    #expect(owner.perform(action: "typed:", sender: Switch(frame: .zero)))
    #expect(owner.log.isEmpty)
  }

  @Test("NIB-342: a selector whose colons do not match the method is refused where a nib connects it, never a trap")
  func mismatchedSelector() throws {
    let owner = MisdeclaredOwner()
    // Neither runs when sent in code: the declarations are mistakes.
    #expect(!owner.perform(action: "close:", sender: nil))
    #expect(!owner.perform(action: "save", sender: nil))
    #expect(owner.log.isEmpty)
    for selector in ["close:", "close", "save:", "save"] {
      #expect {
        try nib(button("b1", "x", selector)).instantiate(owner: MisdeclaredOwner())
      } throws: { error in
        guard let error = error as? ArchiveError else { return false }
        return error.code == .connectionFailed && error.location.line != nil
          && error.message.contains("MisdeclaredOwner: the action")
          && (error.message.contains("takes no argument: write it without a colon")
            || error.message.contains("takes the sender: write it as \"name:\""))
      }
    }
  }
}

/// A responder that hides its properties from reflection, outlets included.
final class MirrorHidingCard: Responder, CustomReflectable {
  @Outlet var title: Label?
  override init() { super.init() }
  required init(coder: any DecodingCoder) throws { try super.init(coder: coder) }
  var customMirror: Mirror { Mirror(self, children: []) }
}

/// NIB-343: mistakes in user code that stopped the process before.
@Suite("Former traps in the interface classes")
struct InterfaceTrapTests {
  @Test("NIB-343: an @Outlet of a class that hides its properties from reflection works, and is no trap by key")
  func outletBehindCustomMirror() throws {
    let card = MirrorHidingCard()
    let label = Label(frame: .zero)
    card.title = label
    #expect(card.title === label)
    var seen = 0
    let token = try card.observe(\.title) { _ in seen += 1 }
    card.title = nil
    token.invalidate()
    #expect(seen == 1)
    // By key, the outlet cannot be found without reflection: an error, not a trap.
    #expect(throws: ArchiveError.self) { try card.setValue(label, forKey: "title") }
  }

  @Test("NIB-343, COD-237: a missing outlet's error says to declare it with @Outlet")
  func missingOutletHint() {
    #expect {
      try Responder().setValue(Label(frame: .zero), forKey: "titleLabel")
    } throws: { error in
      let message = (error as? ArchiveError)?.message ?? ""
      return message.contains("not key-value coding compliant for the key \"titleLabel\"")
        && message.contains("@Outlet var titleLabel")
    }
  }
}

@Suite("Former traps in object tables")
struct ObjectTableTrapTests {
  @Test("NIB-343: restricting a table to indexes that are not its objects leaves them out, never a trap")
  func restrictedToUnknownIndexes() {
    let table = ObjectTable(
      objects: [ObjectRecord(id: "a", className: "UIView"), ObjectRecord(id: "b", className: "UIView")],
      topLevel: [0, 1])
    let parts = table.restricted(toEach: [[1, 7, -2], [0]])
    #expect(parts.map { $0.objects.map(\.id) } == [["b"], ["a"]])
    #expect(table.restricted(to: [99]).objects.isEmpty)
  }
}
