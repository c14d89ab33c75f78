import ArchiveCoding
import Foundation
import InterfaceObjects
import NibLoading
import Testing

@Suite("The nib pipeline", .serialized)
struct NibPipelineTests {
  @Test("NIB-001: every decode precedes the first outlet, every outlet the first action, every action the first awake")
  func pipelineOrder() throws {
    var events: [NibEvent] = []
    let owner = TestOwner()
    _ = try Nib(data: pipelineXIB, registry: testRegistry).instantiate(
      owner: owner, options: NibOptions(trace: { events.append($0) }))
    func phase(_ event: NibEvent) -> Int {
      switch event {
      case .decode: 0
      case .attribute, .outlet, .collection: 1
      case .action: 2
      case .segue: 3
      case .awake, .lifecycle: 4
      }
    }
    let phases = events.map(phase)
    #expect(phases == phases.sorted())
    #expect(events.filter { if case .decode = $0 { true } else { false } }.count == 4)
    #expect(events.filter { if case .outlet = $0 { true } else { false } }.count == 3)
    #expect(events.filter { if case .collection = $0 { true } else { false } }.count == 2)
    #expect(events.filter { if case .action = $0 { true } else { false } }.count == 2)
  }

  @Test("NIB-004: awakeFromNib reaches every created object once, after its outlets, and no placeholder")
  func awake() throws {
    let owner = TestOwner()
    let instance = try Nib(data: pipelineXIB, registry: testRegistry).instantiateGraph(owner: owner)
    #expect(owner.awakeFromNibCount == 0)
    let header = try #require(owner.header as? TrackedView)
    #expect(header.awakeFromNibCount == 1)
    #expect(header.partnerWasConnectedAtAwake == true)
    #expect(instance.statistics.awakened == 4)
    for object in instance.objectsByID.values {
      #expect((object as? Responder)?.awakeFromNibCount == 1)
    }
  }

  @Test("NIB-002: an observer registered before loading sees each outlet's will-change and did-change")
  func outletObservation() throws {
    let owner = TestOwner()
    var changes: [(String, KeyValueChange.Kind, Bool, Bool)] = []
    let tokens = ["header", "title", "buttons"].map { key in
      owner.observe(key) { change in
        changes.append((change.key, change.kind, change.oldValue != nil, change.newValue != nil))
      }
    }
    _ = try Nib(data: pipelineXIB, registry: testRegistry).instantiate(owner: owner)
    #expect(changes.map(\.0) == ["header", "header", "title", "title", "buttons", "buttons", "buttons", "buttons"])
    #expect(
      changes.map(\.1) == [
        .willChange, .didChange, .willChange, .didChange, .willChange, .didChange, .willChange, .didChange,
      ])
    #expect(changes[0].2 == false && changes[0].3 == true, "old value nil, new value the view")
    #expect(owner.buttons.count == 2, "outlet collection in document order")
    #expect(owner.buttons.first?.title(for: .normal) == "One")
    withExtendedLifetime(tokens) {}
  }

  @Test("NIB-002: an outlet collection past NibOptions.maxOutletCollectionCount fails with limitExceeded naming it")
  func outletCollectionLimit() throws {
    let members = (0..<5).map { #"<outletCollection property="items" destination="v\#($0)" id="c\#($0)"/>"# }
    let data = xib(
      #"<placeholder placeholderIdentifier="IBFilesOwner" id="-1"><connections>"# + members.joined()
        + "</connections></placeholder>" + (0..<5).map { #"<view id="v\#($0)"/>"# }.joined())
    let nib = Nib(data: data, name: "Many.xib", registry: testRegistry)
    // Within the limit: every member, in document order.
    let owner = GenericNibObject(className: "Owner")
    _ = try nib.instantiate(owner: owner)
    #expect((owner.values["items"] as? [Any])?.count == 5)
    // Past it: the fourth member is refused.
    var options = NibOptions()
    options.maxOutletCollectionCount = 3
    do {
      _ = try nib.instantiate(owner: GenericNibObject(className: "Owner"), options: options)
      Issue.record("a collection of 5 members loaded with a limit of 3")
    } catch let error as ArchiveError {
      #expect(error.code == .limitExceeded)
      #expect(error.message.contains("outlet collection \"items\""), "\(error)")
      #expect(error.message.contains("more than 3 members"), "\(error)")
    }
  }

  @Test("NIB-015: actions go to their target, or up the responder chain for First Responder")
  func actions() throws {
    let owner = TestOwner()
    _ = try Nib(data: pipelineXIB, registry: testRegistry).instantiate(owner: owner)
    owner.buttons[0].sendActions(for: .touchUpInside)
    #expect(owner.log == ["tapped"])
    // The second button's target is First Responder: the action climbs button → header → … and nobody handles it
    // until the chain reaches a responder that has it; make the owner the header's controller to complete the chain.
    let controller = ViewController()
    controller.view = try #require(owner.header)
    owner.buttons[1].sendActions(for: .touchUpInside)
    #expect(owner.log == ["tapped"], "no responder in the chain has tapped:, so nothing happens")
    #expect(owner.buttons[1].targetActions.first?.usesResponderChain == true)
  }

  @Test("NIB-063: runtime attributes are applied by key path before awakeFromNib")
  func runtimeAttributes() throws {
    let owner = TestOwner()
    _ = try Nib(data: pipelineXIB, registry: testRegistry).instantiate(owner: owner)
    #expect(owner.header?.layer.cornerRadius == 12)
  }

  @Test("NIB-011: a nil owner makes File's Owner connections an error, or skips them by option")
  func nilOwner() throws {
    let nib = Nib(data: pipelineXIB, registry: testRegistry)
    do {
      _ = try nib.instantiate(owner: nil)
      Issue.record("expected an error")
    } catch let error as ArchiveError {
      #expect(error.code == .connectionFailed)
      #expect(error.message.contains("no owner was passed"))
      #expect(error.location.line != nil)
    }
    let instance = try nib.instantiateGraph(owner: nil, options: NibOptions(missingOwnerPolicy: .skipConnections))
    #expect(instance.statistics.outlets == 1, "only the view's own outlet")
    #expect(instance.topLevelObjects.count == 1)
  }

  @Test("NIB-013: an outlet to an undefined key is an error naming the class, the key and the object")
  func undefinedKey() throws {
    let data = xib(
      """
      <placeholder placeholderIdentifier="IBFilesOwner" id="-1" customClass="TestOwner">
          <connections><outlet property="missingOutlet" destination="v1" id="o1"/></connections>
      </placeholder>
      <view id="v1"><rect key="frame" x="0" y="0" width="10" height="10"/></view>
      """)
    do {
      _ = try Nib(data: data, name: "Broken.xib", registry: testRegistry).instantiate(owner: TestOwner())
      Issue.record("expected an error")
    } catch let error as ArchiveError {
      #expect(error.code == .connectionFailed)
      #expect(error.message.contains("TestOwner is not key-value coding compliant for the key \"missingOutlet\""))
      #expect(error.description.hasPrefix("Broken.xib:5:18: error: outlet \"missingOutlet\" of File's Owner"))
    }
  }

  @Test("NIB-014: an action the target does not have is an error at connect time")
  func missingAction() throws {
    let data = xib(
      """
      <placeholder placeholderIdentifier="IBFilesOwner" id="-1" customClass="TestOwner"/>
      <button id="b1">
          <connections><action selector="nope:" destination="-1" eventType="touchUpInside" id="a1"/></connections>
      </button>
      """)
    #expect(throws: ArchiveError.self) { try Nib(data: data, registry: testRegistry).instantiate(owner: TestOwner()) }
  }

  @Test("NIB-014: each action's own target is asked whether it has the action, when targets alternate")
  func actionTargetsAlternate() throws {
    let data = xib(
      """
      <placeholder placeholderIdentifier="IBFilesOwner" id="-1" customClass="TestOwner"/>
      <placeholder placeholderIdentifier="Other" id="ext"/>
      <button id="b1">
          <connections><action selector="tapped:" destination="-1" eventType="touchUpInside" id="a1"/></connections>
      </button>
      <button id="b2">
          <connections><action selector="tapped:" destination="ext" eventType="touchUpInside" id="a2"/></connections>
      </button>
      <button id="b3">
          <connections><action selector="tapped:" destination="-1" eventType="touchUpInside" id="a3"/></connections>
      </button>
      """)
    let nib = Nib(data: data, registry: testRegistry)
    // A target that is no responder, after one that has the action.
    final class Plain {}
    let error = try #require(throws: ArchiveError.self) {
      try nib.instantiate(owner: TestOwner(), options: NibOptions(externalObjects: ["Other": Plain()]))
    }
    #expect(error.message.contains("action \"tapped:\": the target Plain has no such action"), "\(error)")
    // A responder of another class without the action, between two owner actions, and the owner again with an
    // action it does not have: each is asked itself, and for the action at hand.
    let responder = try #require(throws: ArchiveError.self) {
      try nib.instantiate(owner: TestOwner(), options: NibOptions(externalObjects: ["Other": Responder()]))
    }
    #expect(responder.message.contains("the target Responder has no such action"), "\(responder)")
    let otherAction = xib(
      """
      <placeholder placeholderIdentifier="IBFilesOwner" id="-1" customClass="TestOwner"/>
      <button id="b1">
          <connections><action selector="tapped:" destination="-1" eventType="touchUpInside" id="a1"/></connections>
      </button>
      <button id="b2">
          <connections><action selector="nope:" destination="-1" eventType="touchUpInside" id="a2"/></connections>
      </button>
      """)
    let missing = try #require(throws: ArchiveError.self) {
      try Nib(data: otherAction, registry: testRegistry).instantiate(owner: TestOwner())
    }
    #expect(missing.message.contains("action \"nope:\""), "\(missing)")
    // Two responders that have it, in turn: each button's action reaches its own.
    let owner = TestOwner()
    let other = TestOwner()
    let objects = try nib.instantiate(owner: owner, options: NibOptions(externalObjects: ["Other": other]))
    let buttons = objects.compactMap { $0 as? Button }
    try #require(buttons.count == 3)
    buttons[1].sendActions(for: .touchUpInside)
    #expect(other.log == ["tapped"] && owner.log.isEmpty)
    buttons[0].sendActions(for: .touchUpInside)
    buttons[2].sendActions(for: .touchUpInside)
    #expect(owner.log == ["tapped", "tapped"] && other.log == ["tapped"])
  }

  @Test("NIB-012: external objects come from the options by identifier; a missing one is an error")
  func externalObjects() throws {
    let data = xib(
      """
      <placeholder placeholderIdentifier="IBFilesOwner" id="-1"/>
      <placeholder placeholderIdentifier="Settings" id="ext"/>
      <view id="v1" customClass="TrackedView">
          <connections><outlet property="partner" destination="ext" id="o1"/></connections>
      </view>
      """)
    let nib = Nib(data: data, registry: testRegistry)
    #expect(throws: ArchiveError.self) { try nib.instantiate(owner: nil) }
    let label = Label(frame: .zero)
    let objects = try nib.instantiate(owner: nil, options: NibOptions(externalObjects: ["Settings": label]))
    #expect((objects.first as? TrackedView)?.partner === label)
    #expect(label.awakeFromNibCount == 0, "external objects are placeholders: not awakened")
  }

  @Test("NIB-020: an unknown custom class falls back to its element's class with a warning and keeps its outlets")
  func unknownClass() throws {
    let data = xib(
      """
      <placeholder placeholderIdentifier="IBFilesOwner" id="-1"/>
      <label text="x" id="l1" customClass="NowhereLabel" customModule="Gone">
          <connections><outlet property="gadget" destination="l2" id="o1"/></connections>
      </label>
      <label text="y" id="l2"/>
      """)
    var warnings: [String] = []
    let objects = try Nib(data: data, registry: testRegistry).instantiate(
      owner: nil, options: NibOptions(warning: { warnings.append($0) }))
    let label = try #require(objects.first as? Label)
    #expect(label.unknownClassName == "Gone.NowhereLabel")
    #expect(label.unknownClassValues["gadget"] as AnyObject? === objects.last)
    #expect(warnings.contains { $0.contains("unknown class Gone.NowhereLabel") && $0.contains("using UILabel") })
  }

  @Test("NIB-050: one Nib instantiated 10,000 times gives 10,000 independent graphs, and they are released")
  func manyInstantiations() throws {
    let nib = Nib(data: pipelineXIB, registry: testRegistry)
    let before = LifetimeTracker.shared.count
    var headers: Set<ObjectIdentifier> = []
    do {
      var kept: [View] = []
      for _ in 0..<10_000 {
        let owner = TestOwner()
        _ = try nib.instantiate(owner: owner)
        let header = try #require(owner.header)
        headers.insert(ObjectIdentifier(header))
        kept.append(header)
      }
      #expect(headers.count == 10_000)
      #expect(LifetimeTracker.shared.count - before == 10_000)
    }
    #expect(LifetimeTracker.shared.count == before, "every instantiated graph was released")
  }

  @Test("NIB-050: concurrent instantiation from several tasks is safe")
  func concurrent() async throws {
    let nib = Nib(data: pipelineXIB, registry: testRegistry)
    let counts = try await withThrowingTaskGroup(of: Int.self) { group in
      for _ in 0..<8 {
        group.addTask {
          var made = 0
          for _ in 0..<200 {
            let owner = TestOwner()
            _ = try nib.instantiate(owner: owner)
            if owner.header != nil { made += 1 }
          }
          return made
        }
      }
      return try await group.reduce(0, +)
    }
    #expect(counts == 1600)
  }

  @Test("NIB-050: a purged Nib drops its parsed table and reloads it from its file on next use")
  func purge() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("purge-\(UUID().uuidString).xib")
    try pipelineXIB.write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    let nib = Nib(contentsOf: url, registry: testRegistry)
    #expect(!nib.isLoaded)
    _ = try nib.instantiate(owner: TestOwner())
    #expect(nib.isLoaded)
    nib.purge()
    #expect(!nib.isLoaded)
    _ = try nib.instantiate(owner: TestOwner())
    #expect(nib.isLoaded)
    weak var weakNib: Nib?
    do {
      let temporary = Nib(contentsOf: url, registry: testRegistry)
      _ = try temporary.instantiate(owner: TestOwner())
      weakNib = temporary
    }
    #expect(weakNib == nil, "a Nib holds no reference cycle")
  }

  @Test("NIB-051: bundle lookup prefers the idiom variant and the localisation, and reads the file every call")
  func bundleLookup() throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("bundle-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
      at: root.appendingPathComponent("fr.lproj"), withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: root) }
    let plain = xib(#"<label text="plain" id="l1"/>"#)
    let pad = xib(#"<label text="pad" id="l1"/>"#)
    let french = xib(#"<label text="français" id="l1"/>"#)
    try plain.write(to: root.appendingPathComponent("Card.xib"))
    try pad.write(to: root.appendingPathComponent("Card~ipad.xib"))
    try french.write(to: root.appendingPathComponent("fr.lproj/Card.xib"))
    func text(_ bundle: NibBundle) throws -> String? {
      (try bundle.loadNibNamed("Card", owner: nil, registry: testRegistry).first as? Label)?.text
    }
    #expect(try text(NibBundle(resourceURL: root, preferredLocalizations: ["en"])) == "plain")
    #expect(try text(NibBundle(resourceURL: root, preferredLocalizations: ["en"], idiom: .pad)) == "pad")
    #expect(try text(NibBundle(resourceURL: root, preferredLocalizations: ["fr"])) == "français")
    try xib(#"<label text="edited" id="l1"/>"#).write(to: root.appendingPathComponent("Card.xib"))
    #expect(try text(NibBundle(resourceURL: root, preferredLocalizations: ["en"])) == "edited")
    #expect(throws: ArchiveError.self) { try NibBundle(resourceURL: root).url(forNibNamed: "Missing") }
  }

  @Test("NIB-040: a XIB constraint's items are the document's objects its firstItem and secondItem ids name")
  func constraintItems() throws {
    let data = xib(
      #"""
      <view id="root">
          <subviews>
              <label text="Name" id="lb0"/>
              <view id="v1"/>
          </subviews>
          <constraints>
              <constraint firstItem="lb0" firstAttribute="leading" secondItem="v1" secondAttribute="trailing" constant="8" id="c1"/>
          </constraints>
      </view>
      """#)
    let instance = try Nib(data: data, registry: testRegistry).instantiateGraph(owner: nil)
    let objects = instance.objectsByID
    let constraint = try #require(objects["c1"] as? LayoutConstraint)
    let label = try #require(objects["lb0"] as? Label)
    let view = try #require(objects["v1"] as? View)
    #expect(constraint.firstItem === label)
    #expect(constraint.secondItem === view)
    #expect(constraint.firstAttribute == "leading")
    #expect(constraint.constant == 8)
    #expect(constraint.multiplier == 1)
  }
}
