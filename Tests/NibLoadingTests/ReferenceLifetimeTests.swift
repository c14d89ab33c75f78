import ArchiveCoding
import Foundation
import InterfaceObjects
import NibLoading
import TestSupport
import Testing

/// NIB-044: superviews and constraints' items are never read after their object is gone, whatever outlives what.
/// The references are `unowned` or `weak`, never unsafe, so a broken rule would trap here rather than read freed
/// memory.
@Suite("Reference lifetimes")
struct ReferenceLifetimeTests {
  /// A view outside the root, then a root installing constraints on itself, its subviews and a view outside it, and
  /// a nested view installing its own.
  private static let document = xib(
    #"""
    <view id="other"/>
    <view id="root">
        <constraints>
            <constraint firstItem="lb" firstAttribute="leading" secondItem="root" secondAttribute="leading" id="toRoot"/>
            <constraint firstItem="bt" firstAttribute="leading" secondItem="lb" secondAttribute="trailing" id="between"/>
            <constraint firstItem="root" firstAttribute="width" secondItem="root" secondAttribute="height" id="self"/>
            <constraint firstItem="lb" firstAttribute="width" secondItem="other" secondAttribute="width" id="outside"/>
        </constraints>
        <subviews>
            <view id="box">
                <constraints>
                    <constraint firstItem="bt" firstAttribute="top" secondItem="box" secondAttribute="top" id="inBox"/>
                </constraints>
                <subviews>
                    <button id="bt"/>
                    <imageView id="im"/>
                    <label text="Name" id="lb"/>
                </subviews>
            </view>
        </subviews>
    </view>
    """#)

  @Test("NIB-044: a view outlives its superview and grandparent, then joins another hierarchy")
  func viewOutlivesItsAncestors() {
    let leaf = View(frame: .zero)
    weak var goneMiddle: View?
    do {
      let top = View(frame: .zero)
      let middle = View(frame: .zero)
      top.addSubview(middle)
      middle.addSubview(leaf)
      goneMiddle = middle
      #expect(leaf.isDescendant(of: top))
    }
    #expect(goneMiddle == nil)
    #expect(leaf.superview == nil)
    // Leaving a superview that is gone does nothing; joining another one works as for a new view.
    leaf.removeFromSuperview()
    let other = View(frame: .zero)
    other.addSubview(leaf)
    #expect(leaf.superview === other && other.subviews.count == 1)
    #expect(leaf.isDescendant(of: other) && !other.isDescendant(of: leaf))
  }

  @Test("NIB-044: a superview that goes while its subviews live leaves each of them without a superview")
  func superviewGoesWithManySubviews() {
    var children: [View] = []
    do {
      let parent = View(frame: .zero)
      for _ in 0..<8 {
        let child = View(frame: .zero)
        parent.addSubview(child)
        children.append(child)
      }
      #expect(children.allSatisfy { $0.superview === parent })
    }
    #expect(children.allSatisfy { $0.superview == nil })
  }

  @Test("NIB-044: a constraint whose items are its installer keeps them while the installer lives and reads nil after")
  func installerAsBothItems() throws {
    weak var goneRoot: View?
    let constraint: LayoutConstraint
    do {
      let objects = try Nib(data: Self.document, registry: testRegistry).instantiateGraph(owner: nil).objectsByID
      let root = try #require(objects["root"] as? View)
      constraint = try #require(objects["self"] as? LayoutConstraint)
      #expect(root.constraints.contains { $0 === constraint })
      #expect(constraint.firstItem === root && constraint.secondItem === root)
      // Replacing the list keeps the items while the root lives, now as weak references.
      root.constraints = []
      #expect(constraint.firstItem === root && constraint.secondItem === root)
      goneRoot = root
    }
    #expect(goneRoot == nil)
    #expect(constraint.firstItem == nil && constraint.secondItem == nil)
  }

  @Test("NIB-044: a constraint installed on a nested view keeps its items until that view leaves and goes")
  func nestedInstallerLeaves() throws {
    let objects = try Nib(data: Self.document, registry: testRegistry).instantiateGraph(owner: nil).objectsByID
    let inBox = try #require(objects["inBox"] as? LayoutConstraint)
    weak var goneBox: View?
    weak var goneButton: View?
    do {
      let box = try #require(objects["box"] as? View)
      #expect(box.constraints.first === inBox)
      goneButton = objects["bt"] as? View
      #expect(inBox.firstItem === goneButton && inBox.secondItem === box)
      box.removeFromSuperview()
      goneBox = box
    }
    var rest = objects
    for id in ["box", "bt", "im", "lb"] { rest.removeValue(forKey: id) }
    _ = consume objects
    #expect(goneBox == nil && goneButton == nil)
    #expect(inBox.firstItem == nil && inBox.secondItem == nil)
    #expect((rest["root"] as? View)?.subviews.isEmpty == true)
  }

  @Test(
    "NIB-044: the objects of a graph released one by one in any order read only live objects or nil",
    arguments: 0..<24)
  func releasedInAnyOrder(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    let objects = try Nib(data: Self.document, registry: testRegistry).instantiateGraph(owner: nil).objectsByID
    // Every view and constraint of the graph, held strongly here only; the graph holds the rest.
    var held: [AnyObject] = Array(objects.values)
    for case let view as View in objects.values { held += view.constraints as [AnyObject] }
    var watched: [Weak] = held.map(Weak.init)
    _ = consume objects
    while !held.isEmpty {
      held.remove(at: random.below(held.count))
      // Reading a reference to a gone object would trap; what is read must still be alive.
      for object in held {
        if let view = object as? View {
          if let superview = view.superview { #expect(superview.subviews.contains { $0 === view }) }
          _ = view.subviews.count
        }
        if let constraint = object as? LayoutConstraint {
          _ = (constraint.firstItem, constraint.secondItem)
        }
      }
    }
    watched.removeAll { $0.object == nil }
    #expect(watched.isEmpty, "seed \(seed): \(watched.count) objects outlived every holder")
  }

  private struct Weak {
    weak var object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
  }
}
