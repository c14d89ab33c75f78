import ArchiveCoding
import Foundation
import InterfaceObjects
import NibLoading
import Testing

private let outletRegistry: ClassRegistry = {
  let registry = ClassRegistry()
  InterfaceCatalog.register(in: registry)
  registry.register(ConnectOwner.self, as: "ConnectOwner")
  registry.register(DetailOwner.self, as: "DetailOwner")
  registry.register(TestOwner.self, as: "TestOwner")
  return registry
}()

/// A view with a plain property whose changes it announces itself.
private final class Gauge: View {
  var level = 0
  func raise() {
    willChangeValue(forKey: "level")
    level += 1
    didChangeValue(forKey: "level")
  }
  override class var keyValueAccessors: [String: KeyValueAccessor] {
    super.keyValueAccessors.merging(["level": .property(\Gauge.level)], uniquingKeysWith: { $1 })
  }
}

@Suite("Outlet declarations")
struct OutletDeclarationTests {
  @Test("NIB-093: a subclass's nib connects its own @Outlet and its superclass's, through key-value coding")
  func inheritedOutlets() throws {
    let data = xib(
      """
      <placeholder placeholderIdentifier="IBFilesOwner" id="-1" customClass="DetailOwner">
          <connections>
              <outlet property="caption" destination="l1" id="o1"/>
              <outlet property="picture" destination="i1" id="o2"/>
          </connections>
      </placeholder>
      <view id="v1">
          <subviews>
              <label text="Hello" id="l1"/>
              <imageView image="cover" id="i1"/>
          </subviews>
      </view>
      """)
    let owner = DetailOwner()
    let objects = try Nib(data: data, registry: outletRegistry).instantiate(owner: owner)
    let root = try #require(objects.first as? View)
    #expect(owner.caption === root.subviews.first)
    #expect(owner.caption?.text == "Hello")
    #expect(owner.picture === root.subviews.last)
    #expect(try owner.value(forKey: "caption") as AnyObject? === owner.caption)
    try owner.setValue(nil, forKey: "picture")
    #expect(owner.picture == nil)
    #expect(throws: ArchiveError.self) { try owner.setValue(nil, forKey: "subtitle") }
  }

  @Test("NIB-093: assigning an @Outlet property and setting its key both notify the key's observers, once each")
  func outletObservation() throws {
    let owner = DetailOwner()
    var changes: [(KeyValueChange.Kind, AnyObject?, AnyObject?)] = []
    let token = owner.observe("caption") {
      changes.append(($0.kind, $0.oldValue as AnyObject?, $0.newValue as AnyObject?))
    }
    let first = Label(frame: .zero)
    let second = Label(frame: .zero)
    owner.caption = first
    try owner.setValue(second, forKey: "caption")
    token.cancel()
    owner.caption = nil
    #expect(changes.count == 4)
    #expect(changes.map(\.0) == [.willChange, .didChange, .willChange, .didChange])
    #expect(changes[1].1 == nil && changes[1].2 === first)
    #expect(changes[3].1 === first && changes[3].2 === second)
  }

  @Test("NIB-094: an outlet connected to an object of another class is an error naming both classes")
  func wrongClassOutlet() throws {
    let data = xib(
      """
      <placeholder placeholderIdentifier="IBFilesOwner" id="-1" customClass="ConnectOwner">
          <connections><outlet property="picture" destination="l1" id="o1"/></connections>
      </placeholder>
      <label text="x" id="l1"/>
      """)
    do {
      _ = try Nib(data: data, name: "Wrong.xib", registry: outletRegistry).instantiate(owner: ConnectOwner())
      Issue.record("expected an error")
    } catch let error as ArchiveError {
      #expect(error.message.contains("\"picture\" of ConnectOwner holds ImageView"), "\(error)")
      #expect(error.message.contains("is a Label"), "\(error)")
      #expect(error.description.hasPrefix("Wrong.xib:"), "\(error)")
    }
  }

  @Test("NIB-094: a key declared with a key path refuses an object of another class instead of storing nil")
  func wrongClassKeyPathOutlet() throws {
    let owner = TestOwner()
    do {
      try owner.setValue(Button(frame: .zero), forKey: "title")
      Issue.record("expected an error")
    } catch let error as ArchiveError {
      #expect(error.code == .typeMismatch)
      #expect(error.message.contains("Label") && error.message.contains("Button"), "\(error)")
    }
    #expect(owner.title == nil)
    try owner.setValue(Label(frame: .zero), forKey: "title")
    #expect(owner.title != nil)
  }

  @Test("NIB-096: a change announced with willChangeValue and didChangeValue reaches observers with old and new")
  func manualChangeNotifications() throws {
    let gauge = Gauge(frame: .zero)
    var seen: [(KeyValueChange.Kind, Int?, Int?)] = []
    let token = gauge.observe("level") { seen.append(($0.kind, $0.oldValue as? Int, $0.newValue as? Int)) }
    gauge.raise()
    gauge.didChangeValue(forKey: "level")
    withExtendedLifetime(token) {}
    #expect(seen.count == 2, "a didChangeValue without willChangeValue posts nothing")
    #expect(seen.first?.0 == .willChange && seen.first?.1 == 0)
    #expect(seen.last?.0 == .didChange && seen.last?.1 == 0 && seen.last?.2 == 1)
  }
}

/// A responder with a key computed from two others.
private final class Person: Responder {
  var first = ""
  var last = ""
  var fullName: String { "\(first) \(last)" }
  override class var keyValueAccessors: [String: KeyValueAccessor] {
    super.keyValueAccessors.merging(
      [
        "first": .property(\Person.first), "last": .property(\Person.last), "fullName": .readOnly(\Person.fullName),
      ], uniquingKeysWith: { $1 })
  }
  override class var dependentKeys: [String: Set<String>] { ["fullName": ["first", "last"]] }
}

@Suite("Observation options")
struct ObservationOptionTests {
  @Test("NIB-104: initial, prior, old and new, by key and by key path")
  func options() throws {
    let person = Person()
    person.first = "Ada"
    var seen: [String] = []
    func describe(_ change: KeyValueChange) -> String {
      "\(change.kind == .willChange ? "will" : "did") \(change.oldValue.map { "\($0)" } ?? "-")→\(change.newValue.map { "\($0)" } ?? "-")"
    }
    let all = person.observe("first", options: [.initial, .prior, .old, .new]) { seen.append(describe($0)) }
    try person.setValue("Grace", forKey: "first")
    #expect(seen == ["did -→Ada", "will Ada→Grace", "did Ada→Grace"])
    all.cancel()
    seen = []
    let plain = try person.observe(\.first, options: [.new]) { seen.append(describe($0)) }
    try person.setValue("Alan", forKey: "first")
    #expect(seen == ["did -→Alan"], "no will-change without .prior, no old value without .old")
    withExtendedLifetime(plain) {}
  }

  @Test("NIB-104: setting a key notifies the observers of the keys that depend on it")
  func dependentKeys() throws {
    let person = Person()
    person.first = "Ada"
    person.last = "Byron"
    var seen: [(KeyValueChange.Kind, String?, String?)] = []
    let token = person.observe("fullName", options: [.old, .new, .prior]) {
      seen.append(($0.kind, $0.oldValue as? String, $0.newValue as? String))
    }
    try person.setValue("Lovelace", forKey: "last")
    withExtendedLifetime(token) {}
    #expect(seen.count == 2)
    #expect(seen.first?.0 == .willChange && seen.first?.1 == "Ada Byron")
    #expect(seen.last?.0 == .didChange && seen.last?.1 == "Ada Byron" && seen.last?.2 == "Ada Lovelace")
  }
}

@Suite("Observing catalog properties")
struct CatalogObservationTests {
  @Test("NIB-105: assigning label.text notifies its observers as setValue does, once per change")
  func directAssignment() throws {
    let label = Label(frame: .zero)
    label.text = "a"
    var seen: [String] = []
    let token = try label.observe(\.text, options: [.old, .new]) {
      seen.append("\($0.oldValue as? String ?? "-")→\($0.newValue as? String ?? "-")")
    }
    label.text = "b"
    try label.setValue("c", forKey: "text")
    let button = Button(frame: .zero)
    var enabled: [Bool?] = []
    let enabledToken = button.observe("enabled", options: [.new]) { enabled.append($0.newValue as? Bool) }
    button.isEnabled = false
    withExtendedLifetime((token, enabledToken)) {}
    #expect(seen == ["a→b", "b→c"])
    #expect(enabled == [false])
  }

  @Test("NIB-105: every key the catalog declares as an observed property notifies once when set, however it is set")
  func everyObservedKey() throws {
    let samples = CatalogSamples()
    var checked = 0
    for object in samples.objects {
      let accessors = type(of: object).keyValueAccessors.filter { $0.value.postsOwnChanges }.sorted { $0.key < $1.key }
      for (key, accessor) in accessors {
        let current = try object.value(forKey: key)
        guard let value = samples.value(of: accessor.valueType, differingFrom: current) else {
          Issue.record("no sample value of \(accessor.valueType) for \(type(of: object)).\(key)")
          continue
        }
        var seen: [KeyValueChange.Kind] = []
        let token = object.observe(key, options: [.prior]) { seen.append($0.kind) }
        // The key's setter is the property's: setValue leaves the notifications to its willSet and didSet.
        try object.setValue(value, forKey: key)
        withExtendedLifetime(token) {}
        #expect(seen == [.willChange, .didChange], "\(type(of: object)).\(key)")
        checked += 1
      }
    }
    #expect(checked >= 40, "the catalog's read-write keys are observed properties")
  }

  @Test("NIB-105: direct assignments of stored, computed and weak properties reach observers by key and key path")
  func directAssignments() throws {
    let view = View(frame: .zero)
    var seen: [String] = []
    let tokens = [
      try view.observe(\.isHidden, options: [.new]) { seen.append("hidden \($0.newValue ?? "-")") },
      view.observe("frame", options: [.new]) { seen.append("frame \(($0.newValue as? Rect)?.width ?? -1)") },
      try view.observe(\.menu, options: [.new]) { seen.append("menu \(($0.newValue as? Menu)?.title ?? "nil")") },
    ]
    view.isHidden = true
    view.frame.size.width = 12
    view.menu = Menu(title: "Edit")
    let window = Window(frame: .zero)
    let controller = ViewController()
    let windowToken = try window.observe(\.rootViewController, options: [.old, .new]) {
      seen.append("root \($0.oldValue == nil) \(($0.newValue as AnyObject?) === controller)")
    }
    window.rootViewController = controller
    withExtendedLifetime((tokens, windowToken)) {}
    #expect(seen == ["hidden true", "frame 12.0", "menu Edit", "root true true"])
  }
}

/// A controller with an outlet declared in one line.
private final class ObservedOwner: Responder {
  @Outlet var title: Label?
  @Outlet(.weak) var partner: Responder?
}

@Suite("Observing outlets by key path")
struct OutletKeyPathObservationTests {
  @Test("NIB-104: an @Outlet property is observed by its key path, for assignments and nib connections alike")
  func outletKeyPath() throws {
    let owner = ObservedOwner()
    var seen: [String] = []
    let token = try owner.observe(\.title, options: [.old, .new]) {
      seen.append("\($0.key) \(($0.oldValue as? Label)?.text ?? "nil")→\(($0.newValue as? Label)?.text ?? "nil")")
    }
    let first = Label(frame: .zero)
    first.text = "first"
    owner.title = first
    let second = Label(frame: .zero)
    second.text = "second"
    try owner.setValue(second, forKey: "title")
    let partner = Responder()
    var partners = 0
    let partnerToken = try owner.observe(\.partner) { _ in partners += 1 }
    owner.partner = partner
    withExtendedLifetime((token, partnerToken, partner)) {}
    #expect(seen == ["title nil→first", "title first→second"])
    #expect(partners == 1)
  }
}

/// Objects of each catalog class, and a value of each type their keys take, to set every observed key.
private struct CatalogSamples {
  let keep: [AnyObject] = [
    Responder(), View(frame: .zero), Menu(title: "m"), ViewController(), TextField(frame: .zero),
  ]
  let objects: [Responder] = [
    View(frame: .zero), Label(frame: .zero), Button(frame: .zero), ImageView(frame: .zero), TextField(frame: .zero),
    Switch(frame: .zero), Slider(frame: .zero), ScrollView(frame: .zero), StackView(frame: .zero),
    TableView(frame: .zero), TableViewCell(reuseIdentifier: "r"), Window(frame: .zero), ViewController(),
    Menu(title: "m"), MenuItem(title: "i"), GestureRecognizer(),
  ]

  /// A value of `type` that differs from `current`, or `nil` when the test has none for the type.
  func value(of type: Any.Type, differingFrom current: Any?) -> Any? {
    switch type {
    case is Double.Type: (current as? Double ?? 0) + 0.25
    case is Int.Type: (current as? Int ?? 0) + 1
    case is Bool.Type: !(current as? Bool ?? false)
    case is String.Type, is String?.Type: "changed"
    case is Color?.Type: Color(red: 0.1, green: 0.2, blue: 0.3)
    case is Image?.Type: Image(named: "changed")
    case is Rect.Type: Rect(x: 1, y: 2, width: 30, height: 40)
    case is Size.Type: Size(width: 5, height: 6)
    case is Point.Type: Point(x: 7, y: 8)
    case is [GestureRecognizer].Type: [GestureRecognizer()]
    case is AnyObject?.Type: keep[0]
    case is View?.Type: keep[1]
    case is Menu?.Type: keep[2]
    case is ViewController?.Type: keep[3]
    case is TextField?.Type: keep[4]
    case is ImageView?.Type: ImageView(frame: .zero)
    default: nil
    }
  }
}

/// A view with a weak outlet, as `@IBOutlet weak var`.
private final class DelegatingView: View {
  @Outlet(.weak) var delegate: Responder?
  @Outlet var strongPartner: Responder?
}

@Suite("Weak outlets")
struct WeakOutletTests {
  @Test("NIB-093: @Outlet(.weak) reads nil once its object is gone; a plain @Outlet keeps its object")
  func weakOutlet() throws {
    let view = DelegatingView(frame: .zero)
    var delegate: Responder? = Responder()
    weak var partner: Responder?
    do {
      let strong = Responder()
      partner = strong
      view.strongPartner = strong
    }
    try view.setValue(delegate, forKey: "delegate")
    #expect(view.delegate === delegate)
    delegate = nil
    #expect(view.delegate == nil)
    #expect(partner != nil && view.strongPartner === partner)
  }
}
