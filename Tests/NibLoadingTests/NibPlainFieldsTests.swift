import ArchiveCoding
import Foundation
import InterfaceObjects
import NibLoading
import Synchronization
import Testing

/// What a ``FieldsProbe`` makes of its plain fields.
private final class ProbeFields: PlainFields {
  /// How many times an initialiser of this class ran.
  static let runs = Mutex(0)
  /// Whether the initialiser also reads the `child` field (an object reference).
  static let readsChild = Mutex(false)
  let tag: Int
  let hidden: Bool
  init(coder: any DecodingCoder) throws {
    Self.runs.withLock { $0 += 1 }
    tag = try coder.decodeInt(forKey: "tag")
    hidden = try coder.decodeBool(forKey: "hidden")
    if Self.readsChild.withLock({ $0 }) { _ = try coder.decodeObject(forKey: "child") }
  }
}

/// A second class of fields, read by the same object's initialiser.
private final class MoreFields: PlainFields {
  let alpha: Double
  init(coder: any DecodingCoder) throws { alpha = try coder.decodeDouble(forKey: "alpha") }
}

/// An object that reads its fields through two ``PlainFields`` classes, as a catalog class and its superclass do.
private final class FieldsProbe: Coding {
  let fields: ProbeFields
  let more: MoreFields
  init(coder: any DecodingCoder) throws {
    fields = try coder.decodePlainFields(ProbeFields.self)
    more = try coder.decodePlainFields(MoreFields.self)
  }
  func encode(with coder: any EncodingCoder) {}
}

/// An object that keeps the coder its initialiser was given.
private final class CoderKeeper: Coding {
  let coder: any DecodingCoder
  init(coder: any DecodingCoder) throws { self.coder = coder }
  func encode(with coder: any EncodingCoder) {}
}

/// A label of a user's module, written as the catalog's `Label` is (NIB-302): only public coder calls, its plain
/// fields read through `decodePlainFields(_:)`.
final class UserBadge: View {
  var text: String?
  var count: Int

  private final class Fields: PlainFields {
    let text: String?
    let count: Int
    init(coder: any DecodingCoder) throws {
      text = try coder.decodeString(forKey: "text")
      count = try coder.decodeInt(forKey: "count")
    }
  }

  required init(coder: any DecodingCoder) throws {
    let fields = try coder.decodePlainFields(Fields.self)
    text = fields.text
    count = fields.count
    try super.init(coder: coder)
  }
}

/// NIB-300 to NIB-302: what a nib's coder does to make decoding fast, behind the public coder calls.
@Suite("Nib plain fields", .serialized)
struct NibPlainFieldsTests {
  private func probeNib() -> Nib {
    let registry = ClassRegistry()
    registry.register(FieldsProbe.self, as: "FieldsProbe")
    registry.register(CoderKeeper.self, as: "CoderKeeper")
    return Nib(
      data: xib(
        #"""
        <view id="p" customClass="FieldsProbe" alpha="0.5" tag="3" hidden="YES">
          <view key="child" id="c" customClass="CoderKeeper" tag="7"/>
        </view>
        <view id="q" customClass="FieldsProbe" alpha="0.25" tag="4" hidden="NO"/>
        """#),
      registry: registry)
  }

  private func probes(_ nib: Nib) throws -> (probes: [FieldsProbe], taken: Int) {
    let instance = try nib.instantiateGraph(owner: nil, options: NibOptions())
    return (instance.topLevelObjects.compactMap { $0 as? FieldsProbe }, instance.plainFieldsTaken)
  }

  @Test("NIB-300, COD-230: the second instantiation keeps each object's plain fields, the later ones take them")
  func keptFromTheSecond() throws {
    ProbeFields.readsChild.withLock { $0 = false }
    ProbeFields.runs.withLock { $0 = 0 }
    let nib = probeNib()
    let runs = try (0..<4).map { _ in try probes(nib) }
    // Two objects: the first and second instantiations run the initialiser for each, the later ones for none.
    #expect(ProbeFields.runs.withLock { $0 } == 4)
    #expect(runs.map(\.taken) == [0, 0, 4, 4], "two classes of fields for each of two objects")
    for run in runs {
      #expect(run.probes.map(\.fields.tag) == [3, 4])
      #expect(run.probes.map(\.fields.hidden) == [true, false])
      #expect(run.probes.map(\.more.alpha) == [0.5, 0.25])
    }
    // The later instantiations share the kept results, each object its own; the objects themselves are fresh.
    #expect(runs[2].probes[0].fields === runs[1].probes[0].fields)
    #expect(runs[3].probes[1].more === runs[1].probes[1].more)
    #expect(runs[2].probes[0].fields !== runs[2].probes[1].fields)
    #expect(runs[2].probes[0] !== runs[3].probes[0])
  }

  @Test("NIB-300: an initialiser that read a field referring to an object keeps nothing, and runs every time")
  func objectFieldKeepsNothing() throws {
    ProbeFields.readsChild.withLock { $0 = true }
    defer { ProbeFields.readsChild.withLock { $0 = false } }
    ProbeFields.runs.withLock { $0 = 0 }
    let nib = probeNib()
    let runs = try (0..<3).map { _ in try probes(nib) }
    // The first object reads its child on every instantiation; the second has no child, so its fields are kept.
    #expect(ProbeFields.runs.withLock { $0 } == 5)
    // The other class of fields, which reads no object, is kept for both.
    #expect(runs.map(\.taken) == [0, 0, 3])
    #expect(runs[2].probes.map(\.fields.tag) == [3, 4])
  }

  @Test("NIB-300: concurrent instantiations of one nib all get each object's own values")
  func concurrent() async throws {
    ProbeFields.readsChild.withLock { $0 = false }
    let nib = probeNib()
    try await withThrowingTaskGroup(of: [Int].self) { group in
      for _ in 0..<16 {
        group.addTask { try self.probes(nib).probes.map(\.fields.tag) }
      }
      for try await tags in group { #expect(tags == [3, 4]) }
    }
  }

  @Test("NIB-301, COD-022, COD-238: a nib's collections come out of the array calls as the defaults give them")
  func arraysAsTheDefault() throws {
    let registry = catalogRegistry(with: [ArrayProbe.self])
    let nib = Nib(
      data: xib(
        #"""
        <view id="a" customClass="ArrayProbe">
          <subviews>
            <label text="one" id="l1"/>
            <view id="v1"/>
            <button id="b1"/>
          </subviews>
          <constraints>
            <constraint firstAttribute="width" constant="10" id="k1"/>
          </constraints>
        </view>
        """#),
      registry: registry)
    for _ in 0..<3 {
      let probe = try #require(try nib.instantiate(owner: nil).first as? ArrayProbe)
      #expect(probe.fast.map { ObjectIdentifier($0) } == probe.slow.map { ObjectIdentifier($0) })
      #expect(probe.fast.count == 3)
      #expect(probe.subviews.count == 3)
      #expect(probe.references.map { ObjectIdentifier($0) } == probe.slow.map { ObjectIdentifier($0) })
      #expect(probe.defaultReferences.map { ObjectIdentifier($0) } == probe.slow.map { ObjectIdentifier($0) })
      #expect(probe.fastError == probe.slowError)
      #expect(probe.fastError?.contains("expected Label, found View") == true, "\(probe.fastError ?? "no error")")
    }
  }

  @Test("NIB-301, COD-231: decodeDeferredObject hands the link phase the object a reference or an id names")
  func deferredObjects() throws {
    let registry = catalogRegistry(with: [ReferenceProbe.self])
    let nib = Nib(
      data: xib(
        #"""
        <view id="r" customClass="ReferenceProbe" byName="t1">
          <view key="byReference" id="t2"/>
        </view>
        <view id="t1"/>
        """#),
      registry: registry)
    let instance = try nib.instantiateGraph(owner: nil, options: NibOptions())
    let probe = try #require(instance.topLevelObjects.first as? ReferenceProbe)
    let objects = instance.objectsByID
    #expect(probe.byName === objects["t1"])
    #expect(probe.byReference === objects["t2"])
    // Text that names no object is no reference: the link fails, naming the key.
    let dangling = Nib(
      data: xib(#"<view id="r" customClass="ReferenceProbe" byName="nowhere"/>"#), registry: registry)
    #expect {
      try dangling.instantiate(owner: nil)
    } throws: { error in
      let error = error as? ArchiveError
      return error?.code == .typeMismatch && error?.message.contains("expected an object, found String") == true
        && error?.location.keyPath == "byName"
    }
  }

  @Test("NIB-302: a user's class written with the public coder calls takes the catalog's path: its fields are kept")
  func userClassesAsFastAsTheCatalog() throws {
    let registry = catalogRegistry(with: [UserBadge.self])
    let count = 20
    let badges = Nib(
      data: xib(
        (0..<count).map { #"<view id="u\#($0)" customClass="UserBadge" text="b\#($0)" count="\#($0)"/>"# }
          .joined(separator: "\n")),
      registry: registry)
    let labels = Nib(
      data: xib((0..<count).map { #"<label id="l\#($0)" text="b\#($0)"/>"# }.joined(separator: "\n")),
      registry: registry)
    var taken: [(badges: Int, labels: Int)] = []
    for _ in 0..<3 {
      let badgeRun = try badges.instantiateGraph(owner: nil, options: NibOptions())
      let labelRun = try labels.instantiateGraph(owner: nil, options: NibOptions())
      taken.append((badgeRun.plainFieldsTaken, labelRun.plainFieldsTaken))
      let decoded = badgeRun.topLevelObjects.compactMap { $0 as? UserBadge }
      #expect(decoded.map(\.text) == (0..<count).map { "b\($0)" })
      #expect(decoded.map(\.count) == Array(0..<count))
    }
    // Each badge and each label keeps two results (its own class's fields and the view's), taken from the third
    // instantiation on: the user's class goes through the same kept-results path as the catalog's.
    #expect(taken.map(\.badges) == [0, 0, 2 * count])
    #expect(taken.map(\.labels) == [0, 0, 2 * count])
  }

  @Test("NIB-043: a coder an object keeps is not handed to the next object, and still describes its own")
  func keptCoderStaysItsObjects() throws {
    let registry = ClassRegistry()
    registry.register(CoderKeeper.self, as: "CoderKeeper")
    let nib = Nib(
      data: xib(
        #"""
        <view id="a" customClass="CoderKeeper" tag="1"/>
        <view id="b" customClass="CoderKeeper" tag="2"/>
        <view id="c" customClass="CoderKeeper" tag="3"/>
        """#),
      registry: registry)
    for _ in 0..<3 {
      let keepers = try nib.instantiate(owner: nil).compactMap { $0 as? CoderKeeper }
      #expect(keepers.count == 3)
      #expect(try keepers.map { try $0.coder.decodeInt(forKey: "tag") } == [1, 2, 3])
      #expect(Set(keepers.map { ObjectIdentifier($0.coder as AnyObject) }).count == 3)
    }
  }
}

/// Reads its subviews through a nib's `decodeArrayOfObjects` and through the default implementation.
final class ArrayProbe: View {
  var fast: [View] = []
  var slow: [View] = []
  var references: [AnyObject] = []
  var defaultReferences: [AnyObject] = []
  var fastError: String?
  var slowError: String?
  required init(coder: any DecodingCoder) throws {
    try super.init(coder: coder)
    fast = try coder.decodeArrayOfObjects(ofClass: View.self, forKey: "subviews") ?? []
    slow = try coder.defaultDecodeArrayOfObjects(ofClass: View.self, forKey: "subviews") ?? []
    references = try coder.decodeObjectReferences(forKey: "subviews") ?? []
    defaultReferences = try coder.defaultDecodeObjectReferences(forKey: "subviews") ?? []
    do {
      _ = try coder.decodeArrayOfObjects(ofClass: Label.self, forKey: "subviews")
    } catch let error as ArchiveError {
      fastError = error.message
    }
    do {
      _ = try coder.defaultDecodeArrayOfObjects(ofClass: Label.self, forKey: "subviews")
    } catch let error as ArchiveError {
      slowError = error.message
    }
  }
}

/// Asks for two references through `decodeDeferredObject`.
final class ReferenceProbe: View {
  weak var byName: AnyObject?
  weak var byReference: AnyObject?
  required init(coder: any DecodingCoder) throws {
    try super.init(coder: coder)
    try coder.decodeDeferredObject(forKey: "byName", allowedClasses: nil) { owner, object in
      (owner as? ReferenceProbe)?.byName = object
    }
    try coder.decodeDeferredObject(forKey: "byReference", allowedClasses: nil) { owner, object in
      (owner as? ReferenceProbe)?.byReference = object
    }
  }
}
