import ArchiveCoding
import Foundation
import InterfaceObjects
import NibLoading
import Testing

/// Behaviour the faster instantiation paths must keep: views made on demand, subviews adopted in order, per-state
/// button titles, constraint defaults, record lookups.
@Suite("Nib instantiation details")
struct NibInstantiationDetailTests {
  @Test("NIB-040: a view's layer and an object's observers are made once and are the same object on every read")
  func lazyParts() throws {
    let view = View(frame: .zero)
    #expect(view.layer === view.layer)
    view.layer.cornerRadius = 4
    #expect(view.layer.cornerRadius == 4)
    #expect(view.keyValueObservers === view.keyValueObservers)
    let data = xib(#"<view id="root" userLabel="Root"/>"#)
    let decoded = try #require(try Nib(data: data, registry: testRegistry).instantiate(owner: nil).first as? View)
    #expect(decoded.layer === decoded.layer)
    #expect(decoded.layer.cornerRadius == 0)
    // Both are freed with their object (the set-once reference that holds them releases them when it goes).
    weak var layer: Layer?
    weak var observers: KeyValueObservers?
    do {
      let view = View(frame: .zero)
      layer = view.layer
      observers = view.keyValueObservers
      #expect(layer != nil && observers != nil)
    }
    #expect(layer == nil && observers == nil)
  }

  @Test("NIB-002: setting a key of an object nobody observes makes no observer set; once observed, changes post")
  func observersOnDemand() throws {
    let owner = TestOwner()
    let header = View(frame: .zero)
    try owner.setValue(header, forKey: "header")
    #expect(owner.header === header)
    #expect(owner.existingKeyValueObservers == nil)
    var kinds: [KeyValueChange.Kind] = []
    let token = owner.observe("header") { kinds.append($0.kind) }
    #expect(owner.existingKeyValueObservers === owner.keyValueObservers)
    try owner.setValue(nil, forKey: "header")
    #expect(kinds == [.willChange, .didChange])
    #expect(owner.header == nil)
    _ = token
  }

  @Test("NIB-016: a control keeps its target-action pairs in order, sends each for its events, and removes by target")
  func targetActionsInOrder() throws {
    let first = TestOwner()
    let second = TestOwner()
    let button = Button(frame: .zero)
    #expect(button.targetActions.isEmpty)
    button.addTarget(first, action: "tapped:", for: .touchUpInside)
    button.addTarget(second, action: "tapped:", for: .touchUpInside)
    button.addTarget(first, action: "tapped:", for: .valueChanged)
    #expect(button.targetActions.map { $0.target === first } == [true, false, true])
    #expect(button.targetActions.map(\.events) == [.touchUpInside, .touchUpInside, .valueChanged])
    button.sendActions(for: .touchUpInside)
    #expect(first.log == ["tapped"] && second.log == ["tapped"])
    button.removeTarget(first, action: nil)
    #expect(button.targetActions.count == 1 && button.targetActions.first?.target === second)
    button.sendActions(for: [.touchUpInside, .valueChanged])
    #expect(first.log == ["tapped"] && second.log == ["tapped", "tapped"])
    button.removeTarget(second)
    #expect(button.targetActions.isEmpty)
    button.addTarget(nil, action: "tapped:", for: .touchUpInside)
    #expect(button.targetActions.first?.usesResponderChain == true)
    do {
      let passing = TestOwner()
      button.addTarget(passing, action: "tapped:", for: .touchUpInside)
      #expect(button.targetActions.last?.target === passing)
    }
    #expect(button.targetActions.count == 2 && button.targetActions.last?.target == nil)
  }

  @Test("NIB-040: decoded subviews keep document order, take the view as superview, and the defaults hold")
  func subviewsAndDefaults() throws {
    let data = xib(
      #"""
      <view id="root">
          <rect key="frame" x="1" y="2" width="300" height="200"/>
          <subviews>
              <label text="A" id="a"/>
              <imageView image="icon" id="b"/>
              <button id="c">
                  <state key="normal" title="Go"/>
                  <state key="highlighted" title="Going"/>
              </button>
          </subviews>
      </view>
      """#)
    let instance = try Nib(data: data, registry: testRegistry).instantiateGraph(owner: nil)
    let objects = instance.objectsByID
    let root = try #require(objects["root"] as? View)
    #expect(root.frame == Rect(x: 1, y: 2, width: 300, height: 200))
    #expect(
      root.subviews.map { ObjectIdentifier($0) }
        == ["a", "b", "c"].compactMap { id in
          (objects[id] as? View).map { ObjectIdentifier($0) }
        })
    #expect(root.subviews.allSatisfy { $0.superview === root })
    #expect(root.backgroundColor == nil)
    #expect(root.alpha == 1 && root.isHidden == false && root.tag == 0)
    #expect(root.contentMode == .scaleToFill && root.isUserInteractionEnabled)
    #expect(root.translatesAutoresizingMaskIntoConstraints && root.autoresizingMask == [])
    let label = try #require(objects["a"] as? Label)
    #expect(label.text == "A" && label.numberOfLines == 1 && label.textAlignment == "natural")
    #expect(label.font == .system && label.textColor == nil)
    let image = try #require(objects["b"] as? ImageView)
    #expect(image.image == Image(named: "icon"))
    let button = try #require(objects["c"] as? Button)
    #expect(button.title(for: .normal) == "Go")
    #expect(button.title(for: .highlighted) == "Going")
    #expect(button.title(for: .disabled) == "Go")
    #expect(button.isEnabled && !button.isSelected)
    button.setTitle("Off", for: .disabled)
    #expect(button.title(for: .disabled) == "Off")
  }

  @Test("NIB-040: a constraint without multiplier, constant or priority gets 1, 0 and 1000, and no second item")
  func constraintDefaults() throws {
    let data = xib(
      #"""
      <view id="root">
          <subviews>
              <view id="v1"/>
          </subviews>
          <constraints>
              <constraint firstItem="v1" firstAttribute="width" id="c1"/>
              <constraint firstItem="v1" firstAttribute="height" secondItem="root" secondAttribute="height" multiplier="1:2" priority="750" identifier="half" id="c2"/>
          </constraints>
      </view>
      """#)
    let instance = try Nib(data: data, registry: testRegistry).instantiateGraph(owner: nil)
    let objects = instance.objectsByID
    let first = try #require(objects["c1"] as? LayoutConstraint)
    #expect(first.firstItem === objects["v1"])
    #expect(first.secondItem == nil && first.secondAttribute == nil && first.identifier == nil)
    #expect(first.multiplier == 1 && first.constant == 0 && first.priority == 1000 && first.relation == "equal")
    let second = try #require(objects["c2"] as? LayoutConstraint)
    #expect(second.secondItem === objects["root"])
    #expect(second.multiplier == 0.5 && second.priority == 750 && second.identifier == "half")
  }

  @Test("NIB-040: a record answers its keys, absent ones with nil, whatever their length")
  func recordLookup() {
    let record = NibRecord(
      name: "color",
      fields: [
        ObjectField(key: "red", value: .string("0.5")), ObjectField(key: "alpha", value: .real(1)),
        ObjectField(key: "colorSpace", value: .string("custom")),
      ])
    #expect(record.number("red") == 0.5)
    #expect(record.number("alpha") == 1)
    #expect(record.string("colorSpace") == "custom")
    #expect(record.number("green") == nil)
    #expect(record["white"] == nil)
    #expect(record["blue"] == nil)
  }
}

/// NIB-300 on the catalog: the values later instantiations take from the kept results are the ones the first
/// instantiation read, for every catalog class that keeps them.
@Suite("Nib constant-field memos in the catalog")
struct CatalogConstantMemoTests {
  static let document = xib(
    #"""
    <view id="root" alpha="0.25" hidden="YES" tag="9" contentMode="center" userInteractionEnabled="NO"
          translatesAutoresizingMaskIntoConstraints="NO">
        <rect key="frame" x="1" y="2" width="300" height="200"/>
        <autoresizingMask key="autoresizingMask" flexibleMaxX="YES" heightSizable="YES"/>
        <color key="backgroundColor" white="0.5" alpha="0.75" colorSpace="custom" customColorSpace="genericGamma22GrayColorSpace"/>
        <subviews>
            <label text="Hello" numberOfLines="3" textAlignment="center" id="lb">
                <rect key="frame" x="4" y="5" width="60" height="20"/>
                <fontDescription key="fontDescription" name="Menlo-Bold" family="Menlo" pointSize="13"/>
                <color key="textColor" red="0.1" green="0.2" blue="0.3" alpha="1" colorSpace="custom" customColorSpace="sRGB"/>
            </label>
            <button enabled="NO" selected="YES" id="bt">
                <rect key="frame" x="70" y="5" width="60" height="20"/>
                <state key="normal" title="Go"/>
                <state key="highlighted" title="Going"/>
            </button>
            <imageView image="star" id="iv">
                <rect key="frame" x="140" y="5" width="20" height="20"/>
            </imageView>
        </subviews>
        <constraints>
            <constraint firstItem="lb" firstAttribute="width" secondItem="bt" secondAttribute="width" multiplier="3:4" relation="greaterThanOrEqual" constant="-2.5" priority="750" identifier="ratio" id="c1"/>
            <constraint firstItem="iv" firstAttribute="height" constant="20" id="c2"/>
        </constraints>
    </view>
    """#)

  /// Every value the catalog's initialisers read, object by object.
  private func snapshot(_ root: View) -> [String] {
    func describe(_ values: [Any?]) -> String {
      values.map { $0.map { "\($0)" } ?? "nil" }.joined(separator: " ")
    }
    func view(_ v: View) -> String {
      let geometry: [Any?] = [type(of: v), v.frame, v.backgroundColor, v.alpha, v.isHidden, v.tag]
      let layout: [Any?] = [
        v.contentMode, v.autoresizingMask.rawValue, v.isUserInteractionEnabled,
        v.translatesAutoresizingMaskIntoConstraints, v.subviews.count, v.constraints.count,
      ]
      return describe(geometry + layout)
    }
    var lines = [view(root)]
    for subview in root.subviews {
      lines.append(view(subview))
      if let label = subview as? Label {
        let values: [Any?] = [label.text, label.textColor, label.font, label.numberOfLines, label.textAlignment]
        lines.append("label " + describe(values))
      }
      if let button = subview as? Button {
        let values: [Any?] = [
          button.title(for: .normal), button.title(for: .highlighted), button.isEnabled, button.isSelected,
        ]
        lines.append("button " + describe(values))
      }
      if let image = subview as? ImageView { lines.append("image " + describe([image.image])) }
    }
    for constraint in root.constraints {
      let first = constraint.firstItem.flatMap { item in root.subviews.firstIndex { $0 === item } }
      let second = constraint.secondItem.flatMap { item in root.subviews.firstIndex { $0 === item } }
      let values: [Any?] = [
        constraint.firstAttribute, constraint.secondAttribute, constraint.relation, constraint.multiplier,
        constraint.constant, constraint.priority, constraint.identifier, first, second,
      ]
      lines.append("constraint " + describe(values))
    }
    return lines
  }

  @Test(
    "NIB-300, NIB-302: every later instantiation of a catalog nib reads the values the first read, into fresh objects")
  func laterInstantiationsReadTheSameValues() throws {
    let nib = Nib(data: Self.document, registry: testRegistry)
    let roots = try (0..<4).map { _ in try #require(try nib.instantiate(owner: nil).first as? View) }
    let first = snapshot(roots[0])
    #expect(first.count == 9)
    for root in roots.dropFirst() {
      #expect(snapshot(root) == first)
    }
    #expect(roots[0].alpha == 0.25 && roots[0].tag == 9 && !roots[0].isUserInteractionEnabled)
    let label = try #require(roots[3].subviews.first as? Label)
    #expect(label.text == "Hello" && label.numberOfLines == 3 && label.font.pointSize == 13)
    let button = try #require(roots[3].subviews[1] as? Button)
    #expect(button.title(for: .highlighted) == "Going" && !button.isEnabled && button.isSelected)
    let ratio = try #require(roots[3].constraints.first)
    #expect(ratio.multiplier == 0.75 && ratio.priority == 750 && ratio.relation == "greaterThanOrEqual")
    #expect(ratio.firstItem === label && ratio.secondItem === button)
    // Fresh objects every time.
    #expect(Set(roots.map(ObjectIdentifier.init)).count == 4)
    #expect(roots[2].subviews[0] !== roots[3].subviews[0])
  }
}
