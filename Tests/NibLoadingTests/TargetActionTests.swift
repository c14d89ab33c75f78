import ArchiveCoding
import Foundation
import InterfaceObjects
import KeyedArchive
import NibLoading
import Testing

/// A File's Owner declaring its outlets and actions one line each.
class ConnectOwner: Responder {
  @Outlet var picture: ImageView?
  @Outlet var table: TableView?
  var log: [String] = []
  override init() { super.init() }
  required init(coder: any DecodingCoder) throws { try super.init(coder: coder) }
  func first(_ sender: Any?) { log.append("first from \(sender.map { "\(type(of: $0))" } ?? "nil")") }
  func second(_ sender: Any?) { log.append("second") }
  func close() { log.append("close") }
  func drag(_ sender: Any?, _ event: ActionEvent?) { log.append("drag \(event?.controlEvents.rawValue ?? 0)") }
  override class var actions: [Action] {
    [Action("first:", first), Action("second:", second), Action("close", close), Action("drag:forEvent:", drag)]
  }
}

/// A subclass that adds an outlet and an action and repeats none of its superclass's.
final class DetailOwner: ConnectOwner {
  @Outlet var caption: Label?
  func share(_ sender: Any?) { log.append("share") }
  override class var actions: [Action] { [Action("share:", share)] }
}

private let actionRegistry: ClassRegistry = {
  let registry = ClassRegistry()
  InterfaceCatalog.register(in: registry)
  registry.register(ConnectOwner.self, as: "ConnectOwner")
  registry.register(DetailOwner.self, as: "DetailOwner")
  return registry
}()

/// An AppKit XIB in the shape of viraptor-ibtool's `test5_connect`: image views that send actions to File's
/// Owner, beside a table view, a menu item and a button that do too.
private let connectXIB = Data(
  """
  <?xml version="1.0" encoding="UTF-8"?>
  <document type="com.apple.InterfaceBuilder3.Cocoa.XIB" version="3.0" toolsVersion="21507" targetRuntime="MacOSX.Cocoa">
      <objects>
          <customObject id="-2" userLabel="File's Owner" customClass="ConnectOwner">
              <connections>
                  <outlet property="picture" destination="12" id="30"/>
                  <outlet property="table" destination="14" id="31"/>
              </connections>
          </customObject>
          <customObject id="-1" userLabel="First Responder" customClass="FirstResponder"/>
          <customObject id="-3" userLabel="Application" customClass="NSObject"/>
          <customView id="1">
              <rect key="frame" x="0.0" y="0.0" width="200" height="200"/>
              <subviews>
                  <imageView id="12">
                      <rect key="frame" x="10" y="10" width="50" height="50"/>
                      <imageCell key="cell" id="13"/>
                      <connections><action selector="first:" target="-2" id="20"/></connections>
                  </imageView>
                  <imageView id="15">
                      <rect key="frame" x="70" y="10" width="50" height="50"/>
                      <imageCell key="cell" id="16"/>
                      <connections><action selector="second:" target="-2" id="21"/></connections>
                  </imageView>
                  <tableView id="14">
                      <rect key="frame" x="10" y="70" width="100" height="100"/>
                      <connections><action selector="first:" target="-2" id="22"/></connections>
                  </tableView>
                  <button id="17">
                      <rect key="frame" x="130" y="10" width="50" height="20"/>
                      <connections><action selector="close" target="-2" id="23"/></connections>
                  </button>
              </subviews>
          </customView>
          <menuItem title="Close" id="18">
              <connections><action selector="close" target="-2" id="24"/></connections>
          </menuItem>
      </objects>
  </document>
  """.utf8)

@Suite("Target and action")
struct TargetActionTests {
  @Test("NIB-090: image views, table views, buttons and menu items of an AppKit XIB send actions to their targets")
  func appKitSenders() throws {
    let owner = ConnectOwner()
    let instance = try Nib(data: connectXIB, name: "test5_connect.xib", registry: actionRegistry).instantiateGraph(
      owner: owner)
    #expect(instance.statistics.actions == 5)
    let picture = try #require(owner.picture)
    #expect(picture.targetActions.map(\.action) == ["first:"])
    #expect(picture.targetActions.first?.target === owner)
    picture.sendActions(for: .touchUpInside)
    #expect(owner.log == ["first from ImageView"])
    #expect(owner.table?.target === owner)
    #expect(owner.table?.action == "first:")
    let item = try #require(instance.topLevelObjects.compactMap { $0 as? MenuItem }.first)
    #expect(item.target === owner && item.action == "close")
    let button = try #require(instance.objectsByID["17"] as? Button)
    button.sendActions(for: .touchUpInside)
    #expect(owner.log == ["first from ImageView", "close"])
  }

  @Test("NIB-090, NIB-070: the XIB compiled to a nib connects the same actions")
  func appKitSendersCompiled() throws {
    let table = try Nib(data: connectXIB, name: "test5_connect.xib", registry: actionRegistry).objectTable()
    let compiled = try NibCompiler.compile(table)
    let owner = ConnectOwner()
    let instance = try Nib(data: compiled, name: "test5_connect.nib", registry: actionRegistry).instantiateGraph(
      owner: owner)
    #expect(instance.statistics.actions == 5)
    owner.picture?.sendActions(for: .touchUpInside)
    #expect(owner.log == ["first from ImageView"])
  }

  @Test("NIB-090: bar button items, gesture recognizers and controls of an iOS XIB take their actions")
  func iOSSenders() throws {
    let data = xib(
      """
      <placeholder placeholderIdentifier="IBFilesOwner" id="-1" customClass="ConnectOwner"/>
      <placeholder placeholderIdentifier="IBFirstResponder" id="-2"/>
      <view id="v1">
          <rect key="frame" x="0" y="0" width="100" height="100"/>
          <subviews>
              <button id="b1">
                  <connections>
                      <action selector="drag:forEvent:" destination="-1" eventType="touchDown" id="a1"/>
                  </connections>
              </button>
          </subviews>
          <gestureRecognizers><outletCollection property="gestureRecognizers" destination="g1" id="c1"/></gestureRecognizers>
      </view>
      <tapGestureRecognizer id="g1">
          <connections><action selector="second:" destination="-1" id="a2"/></connections>
      </tapGestureRecognizer>
      <barButtonItem title="Done" id="i1">
          <connections><action selector="close" destination="-1" id="a3"/></connections>
      </barButtonItem>
      """)
    let owner = ConnectOwner()
    let instance = try Nib(data: data, registry: actionRegistry).instantiateGraph(owner: owner)
    #expect(instance.statistics.actions == 3)
    let button = try #require(instance.objectsByID["b1"] as? Button)
    button.sendActions(for: .touchDown)
    #expect(owner.log == ["drag 1"], "name:forEvent: gets the sender and the event")
    let recognizer = try #require(instance.objectsByID["g1"] as? GestureRecognizer)
    #expect(recognizer.targets.map(\.action) == ["second:"])
    let item = try #require(instance.objectsByID["i1"] as? StandInObject)
    #expect(item.actions.map(\.action) == ["close"])
  }

  @Test("NIB-091: an object of an unknown class keeps its actions, whatever it falls back to")
  func unknownClassKeepsActions() throws {
    let data = xib(
      """
      <placeholder placeholderIdentifier="IBFilesOwner" id="-1" customClass="ConnectOwner"/>
      <view id="v1" customClass="SparkleView" customModule="Gone">
          <connections><action selector="first:" destination="-1" id="a1"/></connections>
      </view>
      <customObject id="o1" customClass="NowhereObject">
          <connections><action selector="second:" destination="-1" id="a2"/></connections>
      </customObject>
      """)
    let owner = ConnectOwner()
    var warnings: [String] = []
    let instance = try Nib(data: data, registry: actionRegistry).instantiateGraph(
      owner: owner, options: NibOptions(warning: { warnings.append($0) }))
    #expect(instance.statistics.actions == 2)
    let view = try #require(instance.objectsByID["v1"] as? View)
    #expect(view.unknownClassName == "Gone.SparkleView")
    #expect(view.unknownClassActions.map(\.action) == ["first:"])
    #expect(view.unknownClassActions.first?.target === owner)
    #expect(!warnings.contains { $0.contains("action") }, "the actions are kept, not dropped with a warning")
  }

  @Test("NIB-090: a known class that takes no target and action is an error naming the object and File's Owner")
  func nonSenderIsAnError() throws {
    let data = xib(
      """
      <placeholder placeholderIdentifier="IBFilesOwner" id="-1" customClass="ConnectOwner"/>
      <label text="x" id="l1">
          <connections><action selector="first:" destination="-1" id="a1"/></connections>
      </label>
      <label text="y" id="l2">
          <connections><action selector="missing:" destination="-1" id="a2"/></connections>
      </label>
      """)
    do {
      _ = try Nib(data: data, name: "Labels.xib", registry: actionRegistry).instantiate(owner: ConnectOwner())
      Issue.record("expected an error")
    } catch let error as ArchiveError {
      #expect(error.message.contains("UILabel (l1) takes no target and action"), "\(error)")
    }
    let wrongTarget = xib(
      """
      <placeholder placeholderIdentifier="IBFilesOwner" id="-1" customClass="ConnectOwner"/>
      <button id="b1">
          <connections><action selector="missing:" destination="-1" id="a2"/></connections>
      </button>
      """)
    do {
      _ = try Nib(data: wrongTarget, registry: actionRegistry).instantiate(owner: ConnectOwner())
      Issue.record("expected an error")
    } catch let error as ArchiveError {
      #expect(error.message.contains("the target File's Owner (ConnectOwner) has no such action"), "\(error)")
    }
  }

  @Test("NIB-092: the three action forms, and a subclass's actions with its superclass's")
  func actionForms() {
    let owner = DetailOwner()
    #expect(owner.responds(toAction: "close"))
    #expect(owner.responds(toAction: "first:"))
    #expect(owner.responds(toAction: "drag:forEvent:"))
    #expect(owner.responds(toAction: "share:"))
    #expect(!owner.responds(toAction: "close:"), "a selector names one form")
    let button = Button(frame: .zero)
    owner.perform(action: "close", sender: button)
    owner.perform(action: "first:", sender: button)
    owner.perform(action: "drag:forEvent:", sender: button, event: ActionEvent(controlEvents: .touchUpInside))
    owner.perform(action: "share:", sender: nil)
    #expect(owner.log == ["close", "first from Button", "drag 64", "share"])
    #expect(!ConnectOwner().responds(toAction: "share:"), "a superclass does not get its subclass's actions")
  }
}
