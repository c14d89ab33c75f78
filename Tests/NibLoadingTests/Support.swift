import ArchiveCoding
import Foundation
import InterfaceObjects
import NibLoading
import XIB

/// Wraps objects of an iOS XIB body in a document.
func xib(_ body: String) -> Data {
  Data(
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0" targetRuntime="iOS.CocoaTouch">
        <objects>
    \(body)
        </objects>
    </document>
    """.utf8)
}

/// Counts live instances of tracked classes, to prove graphs are released.
final class LifetimeTracker: @unchecked Sendable {
  static let shared = LifetimeTracker()
  private let lock = NSLock()
  private var live = 0
  var count: Int { lock.withLock { live } }
  func increment() { lock.withLock { live += 1 } }
  func decrement() { lock.withLock { live -= 1 } }
}

/// A File's Owner with outlets and actions, recording what happens to it.
final class TestOwner: Responder {
  var header: View?
  var title: Label?
  var buttons: [Button] = []
  var log: [String] = []
  override init() { super.init() }
  required init(coder: any DecodingCoder) throws { try super.init(coder: coder) }
  func tapped(_ sender: Any?) { log.append("tapped") }
  override class var keyValueAccessors: [String: KeyValueAccessor] {
    super.keyValueAccessors.merging(
      [
        "header": .property(\TestOwner.header), "title": .property(\TestOwner.title),
        "buttons": .property(\TestOwner.buttons),
      ],
      uniquingKeysWith: { $1 })
  }
  override class var actionHandlers: [String: ActionHandler] {
    super.actionHandlers.merging(["tapped:": action(TestOwner.tapped)], uniquingKeysWith: { $1 })
  }
}

/// A view that checks, in awakeFromNib, that its outlets are already connected, and is counted while alive.
final class TrackedView: View {
  var partner: Label?
  var partnerWasConnectedAtAwake: Bool?
  required init(coder: any DecodingCoder) throws {
    try super.init(coder: coder)
    LifetimeTracker.shared.increment()
  }
  override init(frame: Rect) {
    super.init(frame: frame)
    LifetimeTracker.shared.increment()
  }
  deinit { LifetimeTracker.shared.decrement() }
  override func awakeFromNib() {
    super.awakeFromNib()
    partnerWasConnectedAtAwake = partner != nil
  }
  override class var keyValueAccessors: [String: KeyValueAccessor] {
    super.keyValueAccessors.merging(["partner": .property(\TrackedView.partner)], uniquingKeysWith: { $1 })
  }
}

let testRegistry: ClassRegistry = {
  let registry = ClassRegistry()
  InterfaceCatalog.register(in: registry)
  registry.register(TestOwner.self, as: "TestOwner")
  registry.register(TrackedView.self, as: "TrackedView")
  return registry
}()

/// A document with outlets on the owner and between objects, an outlet collection, actions and a runtime attribute.
let pipelineXIB = xib(
  """
  <placeholder placeholderIdentifier="IBFilesOwner" id="-1" customClass="TestOwner">
      <connections>
          <outlet property="header" destination="hdr" id="o1"/>
          <outlet property="title" destination="ttl" id="o2"/>
          <outletCollection property="buttons" destination="b1" id="c1"/>
          <outletCollection property="buttons" destination="b2" id="c2"/>
      </connections>
  </placeholder>
  <placeholder placeholderIdentifier="IBFirstResponder" id="-2" customClass="UIResponder"/>
  <view contentMode="scaleToFill" id="hdr" customClass="TrackedView">
      <rect key="frame" x="0" y="0" width="320" height="100"/>
      <subviews>
          <label text="Hello" id="ttl">
              <rect key="frame" x="10" y="10" width="300" height="20"/>
          </label>
          <button id="b1">
              <rect key="frame" x="10" y="40" width="100" height="30"/>
              <state key="normal" title="One"/>
              <connections>
                  <action selector="tapped:" destination="-1" eventType="touchUpInside" id="a1"/>
              </connections>
          </button>
          <button id="b2">
              <rect key="frame" x="120" y="40" width="100" height="30"/>
              <connections>
                  <action selector="tapped:" destination="-2" eventType="touchUpInside" id="a2"/>
              </connections>
          </button>
      </subviews>
      <userDefinedRuntimeAttributes>
          <userDefinedRuntimeAttribute type="number" keyPath="layer.cornerRadius">
              <real key="value" value="12"/>
          </userDefinedRuntimeAttribute>
      </userDefinedRuntimeAttributes>
      <connections>
          <outlet property="partner" destination="ttl" id="o3"/>
      </connections>
  </view>
  """)

/// A storyboard document compiled as `keyed compile` compiles it: one nib per scene, named by the scene's identifier,
/// with the destinations of its segues named, and an Info.plist naming the entry point. The caller removes the
/// folder.
/// - Returns: the `.storyboardc` folder.
func compileStoryboard(_ text: String, entryPoint: String, name: String) throws -> URL {
  let document = try XIBDocument(parsing: Array(text.utf8), fileName: "\(name).storyboard")
  let table = document.objectTable()
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString).storyboardc")
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  var names: [String: String] = [:]
  let scenes = try Storyboard.scenes(of: document, table: table)
  let named = Storyboard.namingSegueDestinations(in: table, scenes: scenes)
  for (identifier, _, indexes) in scenes {
    try NibCompiler.compile(named.restricted(to: indexes)).write(to: folder.appendingPathComponent("\(identifier).nib"))
    names[identifier] = identifier
  }
  let info: [String: Any] = [
    "UIViewControllerIdentifiersToNibNames": names, "UIStoryboardDesignatedEntryPointIdentifier": entryPoint,
  ]
  try PropertyListSerialization.data(fromPropertyList: info, format: .binary, options: 0).write(
    to: folder.appendingPathComponent("Info.plist"))
  return folder
}

/// A registry with the interface catalog and the test classes given, each under its Swift name.
func catalogRegistry(with classes: [any Coding.Type]) -> ClassRegistry {
  let registry = ClassRegistry()
  InterfaceCatalog.register(in: registry)
  for type in classes { registry.register(type, as: "\(type)") }
  return registry
}

/// Opens a storyboard document written to a temporary file (removed once it is open).
func openStoryboard(_ text: String, registry: ClassRegistry) throws -> Storyboard {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString).storyboard")
  try Data(text.utf8).write(to: url)
  defer { try? FileManager.default.removeItem(at: url) }
  return try Storyboard(contentsOf: url, registry: registry)
}
