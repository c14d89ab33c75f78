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

extension LayoutConstraint {
  /// This constraint with its XIB id, found among the instance's objects.
  fileprivate func identifierOrNil(in objects: [String: AnyObject]) -> (String, LayoutConstraint)? {
    objects.first { $0.value === self }.map { ($0.key, self) }
  }
}
