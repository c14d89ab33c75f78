import ArchiveCoding
import Foundation
import InterfaceObjects
import NibLoading
import Testing

/// NIB-044: a view's superview and the items of the constraints a view installs are held without weak references
/// while the view holding them keeps them alive, and read `nil` once their object is gone, whatever the order in
/// which the graph is taken apart.
@Suite("Back references without side tables")
struct BackReferenceTests {
  /// A root view with a container holding a label and a button, and constraints installed on the root: one between
  /// the label and the root, one between the button and the label, one whose second item (`other`) is a top-level
  /// view outside the root's subtree.
  private static let document = xib(
    #"""
    <view id="root">
        <rect key="frame" x="0" y="0" width="320" height="100"/>
        <subviews>
            <view id="box">
                <rect key="frame" x="0" y="0" width="320" height="50"/>
                <subviews>
                    <label text="Title" id="lb"/>
                    <button id="bt"/>
                </subviews>
            </view>
        </subviews>
        <constraints>
            <constraint firstItem="lb" firstAttribute="leading" secondItem="root" secondAttribute="leading" constant="8" id="toRoot"/>
            <constraint firstItem="bt" firstAttribute="leading" secondItem="lb" secondAttribute="trailing" id="between"/>
            <constraint firstItem="lb" firstAttribute="width" secondItem="other" secondAttribute="width" id="outside"/>
        </constraints>
    </view>
    <view id="other"/>
    """#)

  /// The objects of one instantiation by id (the instance itself, which holds them all, is not kept).
  private func objects() throws -> [String: AnyObject] {
    try Nib(data: Self.document, registry: testRegistry).instantiateGraph(owner: nil).objectsByID
  }

  @Test("NIB-044: decoded constraints name the objects their XIB ids name, inside and outside the installing view")
  func itemsAsDecoded() throws {
    let objects = try objects()
    let root = try #require(objects["root"] as? View)
    let byID = Dictionary(uniqueKeysWithValues: root.constraints.compactMap { c in c.identifierOrNil(in: objects) })
    #expect(byID["toRoot"]?.firstItem === objects["lb"] && byID["toRoot"]?.secondItem === root)
    #expect(byID["between"]?.firstItem === objects["bt"] && byID["between"]?.secondItem === objects["lb"])
    #expect(byID["outside"]?.secondItem === objects["other"])
    #expect((objects["lb"] as? View)?.superview === objects["box"])
  }

  @Test("NIB-044: a view held alone after its superview goes has no superview")
  func superviewGoes() throws {
    weak var goneBox: View?
    let label: View
    do {
      let objects = try objects()
      label = try #require(objects["lb"] as? View)
      goneBox = objects["box"] as? View
      #expect(label.superview === goneBox)
    }
    #expect(goneBox == nil)
    #expect(label.superview == nil)
    // The same in code.
    let child = View(frame: .zero)
    do {
      let parent = View(frame: .zero)
      parent.addSubview(child)
      #expect(child.superview === parent)
    }
    #expect(child.superview == nil)
  }

  @Test("NIB-044: a constraint kept after its view and items go reads nil items")
  func constraintOutlivesEverything() throws {
    weak var goneRoot: View?
    weak var goneLabel: View?
    let kept: [LayoutConstraint]
    do {
      let objects = try objects()
      let root = try #require(objects["root"] as? View)
      kept = root.constraints
      goneRoot = root
      goneLabel = objects["lb"] as? View
    }
    #expect(goneRoot == nil && goneLabel == nil)
    #expect(kept.count == 3)
    for constraint in kept {
      #expect(constraint.firstItem == nil && constraint.secondItem == nil)
    }
  }

  @Test("NIB-044: a constraint kept with one of its items after the view goes keeps that item and loses the other")
  func constraintKeptWithOneItem() throws {
    weak var goneRoot: View?
    let label: View
    let constraint: LayoutConstraint
    do {
      let objects = try objects()
      let root = try #require(objects["root"] as? View)
      label = try #require(objects["lb"] as? View)
      constraint = try #require(root.constraints.first)
      goneRoot = root
    }
    #expect(goneRoot == nil)
    #expect(constraint.firstItem === label)
    #expect(constraint.secondItem == nil)
  }

  @Test("NIB-044: an item removed from the installing view's subtree, directly or with its superview, may go first")
  func itemLeavesTheSubtree() throws {
    let objects = try objects()
    let root = try #require(objects["root"] as? View)
    let toRoot = try #require(root.constraints.first)
    let between = try #require(root.constraints.dropFirst().first)
    weak var goneBox: View?
    weak var goneButton: View?
    do {
      // The button leaves on its own; the label leaves with its superview, the box.
      let button = try #require(objects["bt"] as? View)
      let box = try #require(objects["box"] as? View)
      button.removeFromSuperview()
      box.removeFromSuperview()
      goneBox = box
      goneButton = button
    }
    // `objects` still holds them: they stay the items while they live, inside the subtree or not.
    #expect(between.firstItem === goneButton && toRoot.firstItem === objects["lb"])
    var rest = objects
    rest.removeValue(forKey: "bt")
    rest.removeValue(forKey: "box")
    rest.removeValue(forKey: "lb")
    _ = consume objects
    #expect(goneBox == nil && goneButton == nil)
    #expect(toRoot.firstItem == nil && toRoot.secondItem === root)
    #expect(between.firstItem == nil && between.secondItem == nil)
    #expect(rest["root"] === root)
  }

  @Test("NIB-044: a view that replaces its constraint list stops keeping the items of the constraints it dropped")
  func constraintListReplaced() throws {
    let objects = try objects()
    let root = try #require(objects["root"] as? View)
    let box = try #require(objects["box"] as? View)
    let toRoot = try #require(root.constraints.first)
    root.constraints = []
    weak var goneLabel: View?
    do {
      let label = try #require(box.subviews.first)
      goneLabel = label
      label.removeFromSuperview()
    }
    var rest = objects
    rest.removeValue(forKey: "lb")
    _ = consume objects
    #expect(goneLabel == nil)
    #expect(toRoot.firstItem == nil && toRoot.secondItem === root)
    #expect(rest["box"] === box && box.subviews.count == 1)
  }

  @Test("NIB-044: an item outside the installing view's subtree is held weakly from the start")
  func itemOutsideTheSubtree() throws {
    weak var goneOther: View?
    let root: View
    let outside: LayoutConstraint
    do {
      let objects = try objects()
      root = try #require(objects["root"] as? View)
      outside = try #require(root.constraints.last)
      goneOther = objects["other"] as? View
      #expect(outside.secondItem === goneOther)
    }
    #expect(goneOther == nil)
    #expect(outside.secondItem == nil)
    #expect(outside.firstItem === root.subviews.first?.subviews.first)
  }

  @Test("NIB-044: an item set in code is held weakly")
  func itemSetInCode() throws {
    let objects = try objects()
    let root = try #require(objects["root"] as? View)
    let constraint = try #require(root.constraints.first)
    do {
      let stranger = View(frame: .zero)
      constraint.firstItem = stranger
      #expect(constraint.firstItem === stranger)
    }
    #expect(constraint.firstItem == nil)
    #expect(constraint.secondItem === root)
  }
}

extension BackReferenceTests {
  @Test("NIB-044: a constraint reached while its installer's subviews go (from a subview's deinit) reads no freed item")
  func constraintReachedDuringTeardown() throws {
    let registry = ClassRegistry()
    InterfaceCatalog.register(in: registry)
    registry.register(PeekingView.self, as: "PeekingView")
    let data = xib(
      #"""
      <view id="root">
          <subviews>
              <label text="A" id="a"/>
              <view id="b" customClass="PeekingView"/>
          </subviews>
          <constraints>
              <constraint firstItem="a" firstAttribute="leading" secondItem="b" secondAttribute="trailing" id="c"/>
          </constraints>
      </view>
      """#)
    let recorder = PeekingView.Recorder()
    var root: View?
    do {
      let objects = try Nib(data: data, registry: registry).instantiateGraph(owner: nil).objectsByID
      root = objects["root"] as? View
      let peeking = try #require(objects["b"] as? PeekingView)
      let constraint = try #require(root?.constraints.first)
      #expect(constraint.firstItem === objects["a"] && constraint.secondItem === peeking)
      peeking.constraint = constraint
      peeking.recorder = recorder
    }
    // Only the root holds the graph now: its subviews go first (the label, then the peeking view, whose deinit
    // reads the constraint the root still holds), then its constraints.
    root = nil
    #expect(recorder.sawConstraint)
    #expect(recorder.firstItemWasNil && recorder.secondItemWasNil)
  }

  @Test("NIB-044: a view is never inserted under itself or its own subviews, so the hierarchy stays a tree")
  func hierarchyStaysATree() throws {
    let a = View(frame: .zero)
    let b = View(frame: .zero)
    a.addSubview(b)
    b.addSubview(a)
    a.addSubview(a)
    #expect(a.superview == nil && b.superview === a && b.subviews.isEmpty && a.subviews.count == 1)
    b.removeFromSuperview()
    #expect(b.superview == nil && a.subviews.isEmpty)
    // A document can ask for it: a window whose root view controller's view holds the window, or is the window.
    let holding = xib(
      #"""
      <viewController id="vc">
          <view key="view" id="v">
              <subviews>
                  <window id="w">
                      <connections>
                          <outlet property="rootViewController" destination="vc" id="o1"/>
                      </connections>
                  </window>
              </subviews>
          </view>
      </viewController>
      """#)
    let objects = try Nib(data: holding, registry: testRegistry).instantiateGraph(owner: nil).objectsByID
    let window = try #require(objects["w"] as? Window)
    let view = try #require(objects["v"] as? View)
    #expect(window.rootViewController === objects["vc"])
    #expect(window.superview === view && view.superview == nil && window.subviews.isEmpty)
    let itself = xib(
      #"""
      <viewController id="vc">
          <window key="view" id="w">
              <connections>
                  <outlet property="rootViewController" destination="vc" id="o1"/>
              </connections>
          </window>
      </viewController>
      """#)
    let alone = try Nib(data: itself, registry: testRegistry).instantiateGraph(owner: nil).objectsByID
    let window2 = try #require(alone["w"] as? Window)
    #expect(window2.rootViewController === alone["vc"] && window2.subviews.isEmpty && window2.superview == nil)
  }
}

extension BackReferenceTests {
  @Test("NIB-044: a constraint's two items link together; a failing second item is reported under its own key")
  func itemsLinkTogether() throws {
    let data = xib(
      #"""
      <placeholder placeholderIdentifier="IBFilesOwner" id="-1"/>
      <placeholder placeholderIdentifier="Settings" id="ext"/>
      <view id="root">
          <subviews>
              <label text="A" id="a"/>
          </subviews>
          <constraints>
              <constraint firstItem="a" firstAttribute="leading" secondItem="root" secondAttribute="leading" id="c1"/>
              <constraint firstItem="a" firstAttribute="width" secondItem="ext" secondAttribute="width" id="c2"/>
          </constraints>
      </view>
      """#)
    let nib = Nib(data: data, registry: testRegistry)
    do {
      _ = try nib.instantiate(owner: nil)
      Issue.record("a missing external object must fail the instantiation")
    } catch let error as ArchiveError {
      #expect(error.location.keyPath == "secondItem")
      // Where the missing object is declared: the external object's placeholder (line 5 of the document).
      #expect(error.location.line == 5)
    }
    let external = View(frame: .zero)
    let objects = try nib.instantiateGraph(owner: nil, options: NibOptions(externalObjects: ["Settings": external]))
      .objectsByID
    let root = try #require(objects["root"] as? View)
    let label = try #require(objects["a"] as? View)
    let constraints = root.constraints
    #expect(constraints.count == 2)
    #expect(constraints[0].firstItem === label && constraints[0].secondItem === root)
    #expect(constraints[1].firstItem === label && constraints[1].secondItem === external)
  }
}

/// A view that reads a constraint from its deinitialiser and records what it saw.
final class PeekingView: View {
  /// What the deinitialiser saw.
  final class Recorder {
    var sawConstraint = false
    var firstItemWasNil = false
    var secondItemWasNil = false
  }
  weak var constraint: LayoutConstraint?
  var recorder: Recorder?
  required init(coder: any DecodingCoder) throws { try super.init(coder: coder) }
  deinit {
    guard let recorder, let constraint else { return }
    recorder.sawConstraint = true
    recorder.firstItemWasNil = constraint.firstItem == nil
    recorder.secondItemWasNil = constraint.secondItem == nil
  }
}

extension LayoutConstraint {
  /// This constraint with its XIB id, found among the instance's objects.
  fileprivate func identifierOrNil(in objects: [String: AnyObject]) -> (String, LayoutConstraint)? {
    objects.first { $0.value === self }.map { ($0.key, self) }
  }
}

extension BackReferenceTests {
  /// A chain of `depth` nested views, each constrained to the next; under the deepest, `leaves` views, each
  /// constrained to it and each the view of a view controller that a window adopts as its root, which moves the
  /// leaf out of the chain (`rootViewController`'s `didSet` adds the controller's view to the window).
  static func movingLeaves(depth: Int, leaves: Int) -> Data {
    var body = ""
    for k in 0..<depth {
      body += #"<view id="v\#(k)"><subviews>"#
    }
    for i in 0..<leaves { body += #"<view id="leaf\#(i)"/>"# }
    body += "</subviews><constraints>"
    for i in 0..<leaves {
      body +=
        #"<constraint firstItem="leaf\#(i)" firstAttribute="width" secondItem="v\#(depth - 1)" secondAttribute="width" id="c\#(i)"/>"#
    }
    body += "</constraints></view>"
    for k in (0..<(depth - 1)).reversed() {
      body +=
        #"</subviews><constraints><constraint firstItem="v\#(k + 1)" firstAttribute="width" secondItem="v\#(k)" secondAttribute="width" id="k\#(k)"/></constraints></view>"#
    }
    body += "\n"
    for i in 0..<leaves {
      body +=
        #"<viewController id="vc\#(i)"><connections><outlet property="view" destination="leaf\#(i)" id="ov\#(i)"/></connections></viewController>"#
    }
    for i in 0..<leaves {
      body +=
        #"<window id="w\#(i)"><connections><outlet property="rootViewController" destination="vc\#(i)" id="ow\#(i)"/></connections></window>"#
    }
    return xib(body)
  }

  @Test("NIB-044: views a document moves out of a deep hierarchy turn the constraints above them weak in linear time")
  func movesStayLinear() throws {
    // Releasing only the constraints that held a leaving item made each move check every constraint above it,
    // item by item up the chain: 4,000 moves of 4,000 constraints' items 120 levels deep took 12.8 s in a debug
    // build (and 40,000 would take an hour); each installer now releases its constraints once, at the first move
    // out of its subtree.
    let depth = 120
    let leaves = 4_000
    let objects = try Nib(data: Self.movingLeaves(depth: depth, leaves: leaves), registry: testRegistry)
      .instantiateGraph(owner: nil).objectsByID
    let deepest = try #require(objects["v\(depth - 1)"] as? View)
    let top = try #require(objects["v0"] as? View)
    #expect(deepest.subviews.isEmpty)
    #expect(deepest.constraints.count == leaves && top.superview == nil)
    for i in [0, leaves / 2, leaves - 1] {
      let leaf = try #require(objects["leaf\(i)"] as? View)
      let window = try #require(objects["w\(i)"] as? Window)
      #expect(leaf.superview === window)
      #expect(deepest.constraints[i].firstItem === leaf && deepest.constraints[i].secondItem === deepest)
    }
  }
}
