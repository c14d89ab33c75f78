import ArchiveCoding
import ArchiveTesting
import Foundation
import PropertyList
import Testing

@testable import KeyedArchive

/// Records the allowed classes its `init(coder:)` sees and passes them on to its child, as a container class does.
final class AllowedClassesProbe: SecureCoding {
  var seen: Set<String>?
  var child: Any?
  init(child: Any?) { self.child = child }
  required init(coder: any DecodingCoder) throws {
    seen = coder.allowedClasses
    child = try coder.decodeObject(forKey: "child", allowedClasses: coder.allowedClasses)
  }
  func encode(with coder: any EncodingCoder) { coder.encodeObject(child, forKey: "child") }
}

/// A class with a declared version, reporting what its `init(coder:)` reads through `version(forClassName:)`.
final class VersionedNote: SecureCoding {
  static var classVersion: Int { 3 }
  var seenVersion = -1
  var seenUnknown = -1
  init() {}
  required init(coder: any DecodingCoder) throws {
    seenVersion = coder.version(forClassName: "VersionedNote")
    seenUnknown = coder.version(forClassName: "NoSuchClassAnywhere")
  }
  func encode(with coder: any EncodingCoder) {}
}

/// The public face of a small class cluster: every member archives under this class.
final class PublicShape: Coding {
  var sides: Int
  init(sides: Int) { self.sides = sides }
  required init(coder: any DecodingCoder) throws { sides = try coder.decodeInteger(forKey: "sides") }
  func encode(with coder: any EncodingCoder) { coder.encode(sides, forKey: "sides") }
}

/// A second public class, chosen by instances whose shape is round.
final class PublicCircle: Coding {
  var radius: Double
  required init(coder: any DecodingCoder) throws { radius = try coder.decodeDouble(forKey: "radius") }
  func encode(with coder: any EncodingCoder) { coder.encode(radius, forKey: "radius") }
}

/// A private member of the cluster: the class it is written as depends on the instance.
final class PrivateShape: Coding {
  var sides: Int
  var radius: Double
  init(sides: Int, radius: Double = 0) {
    self.sides = sides
    self.radius = radius
  }
  required init(coder: any DecodingCoder) throws {
    sides = try coder.decodeInteger(forKey: "sides")
    radius = try coder.decodeDouble(forKey: "radius")
  }
  var classForKeyedArchiver: any Coding.Type { sides == 0 ? PublicCircle.self : PublicShape.self }
  func encode(with coder: any EncodingCoder) {
    if sides == 0 { coder.encode(radius, forKey: "radius") } else { coder.encode(sides, forKey: "sides") }
  }
}

/// Interns itself on decoding: `awakeAfter(using:)` hands out the one shared instance for its name.
final class InternedToken: Coding, Hashable {
  /// The shared instance of each name; tests run in parallel, so it is behind a lock.
  final class Table: @unchecked Sendable {
    private let lock = NSLock()
    private var tokens: [String: InternedToken] = [:]
    /// The token registered under `token`'s name, registering `token` when there is none.
    func intern(_ token: InternedToken) -> InternedToken {
      lock.withLock {
        if let shared = tokens[token.name] { return shared }
        tokens[token.name] = token
        return token
      }
    }
  }
  static let canonical = Table()
  let name: String
  init(name: String) { self.name = name }
  required init(coder: any DecodingCoder) throws { name = try coder.decodeString(forKey: "name") ?? "" }
  func encode(with coder: any EncodingCoder) { coder.encode(name, forKey: "name") }
  func awakeAfter(using decoder: any DecodingCoder) throws -> AnyObject {
    Self.canonical.intern(self)
  }
  static func == (a: InternedToken, b: InternedToken) -> Bool { a.name == b.name }
  func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

/// Holds one token every way an object can be held: a field, an array, a dictionary and a set.
final class TokenHolder: Coding {
  var direct: InternedToken?
  var list: [InternedToken] = []
  var map: [String: InternedToken] = [:]
  var set: Set<InternedToken> = []
  init(token: InternedToken) {
    direct = token
    list = [token, token]
    map = ["a": token]
    set = [token]
  }
  required init(coder: any DecodingCoder) throws {
    direct = try coder.decodeObject(of: InternedToken.self, forKey: "direct")
    list = try coder.decodeArrayOfObjects(ofClass: InternedToken.self, forKey: "list") ?? []
    map = try coder.decodeObject(of: [String: InternedToken].self, forKey: "map") ?? [:]
    set = try coder.decodeObject(of: Set<InternedToken>.self, forKey: "set") ?? []
  }
  func encode(with coder: any EncodingCoder) {
    coder.encode(direct, forKey: "direct")
    coder.encode(list, forKey: "list")
    coder.encode(map, forKey: "map")
    coder.encode(set, forKey: "set")
  }
}

/// A private stand-in that archives as ``OurTwin`` (so as `FoundationTwin` for the toolchain), with the fields the
/// twins read.
final class TwinStandIn: Coding {
  let label: String
  init(label: String) { self.label = label }
  required init(coder: any DecodingCoder) throws { label = try coder.decodeString(forKey: "label") ?? "" }
  var classForKeyedArchiver: any Coding.Type { OurTwin.self }
  func encode(with coder: any EncodingCoder) {
    coder.encode(label, forKey: "label")
    coder.encode(Int64(7), forKey: "count")
  }
}

/// Refuses to wake: its `awakeAfter(using:)` throws an error without a location.
final class SleepyToken: Coding {
  init() {}
  required init(coder: any DecodingCoder) throws {}
  func encode(with coder: any EncodingCoder) {}
  func awakeAfter(using decoder: any DecodingCoder) throws -> AnyObject {
    throw ArchiveError(.invalidValue, "cannot wake")
  }
}

/// Asks for a back reference (so it is awoken after the link phase) and replaces itself with a fresh instance.
final class LinkedReplacing: Coding {
  weak var owner: TokenBox?
  var isReplacement = false
  init() {}
  required init(coder: any DecodingCoder) throws {
    try coder.decodeReference(forKey: "owner", into: \LinkedReplacing.owner)
  }
  func encode(with coder: any EncodingCoder) { coder.encodeConditionalObject(owner, forKey: "owner") }
  func awakeAfter(using decoder: any DecodingCoder) throws -> AnyObject {
    let replacement = LinkedReplacing()
    replacement.isReplacement = true
    replacement.owner = owner
    return replacement
  }
}

/// Holds one object under `item`.
final class TokenBox: Coding {
  var item: AnyObject?
  init(item: AnyObject?) { self.item = item }
  required init(coder: any DecodingCoder) throws { item = try coder.decodeObject(forKey: "item") as AnyObject? }
  func encode(with coder: any EncodingCoder) { coder.encodeObject(item, forKey: "item") }
}

/// The class description (`$classname` and `$classes`) of `$objects[uid]`.
private func classDescription(_ objects: [PropertyListValue], uid: UInt64) throws -> PropertyListDictionary {
  let fields = try #require(objects[Int(uid)].dictionaryValue)
  let classUID = try #require(fields["$class"]?.uidValue)
  return try #require(objects[Int(classUID)].dictionaryValue)
}

@Suite("Coder class identity: allowed classes, versions, class for coder, awake replacements")
struct CoderClassIdentityTests {
  init() {
    let registry = ClassRegistry.shared
    registry.register(AllowedClassesProbe.self, as: "AllowedClassesProbe")
    registry.register(VersionedNote.self, as: "VersionedNote")
    registry.register(PublicShape.self, as: "PublicShape")
    registry.register(PublicCircle.self, as: "PublicCircle")
    registry.register(PrivateShape.self, as: "PrivateShape")
    registry.register(InternedToken.self, as: "InternedToken")
    registry.register(TokenHolder.self, as: "TokenHolder")
    registry.register(SleepyToken.self, as: "SleepyToken")
    registry.register(LinkedReplacing.self, as: "LinkedReplacing")
    registry.register(TokenBox.self, as: "TokenBox")
  }

  @Test("COD-014: an error thrown by awakeAfter(using:) names the object that was being awoken and its key")
  func awakeErrorIsLocated() throws {
    let archive = try KeyedArchiver.archivedData(withRootObject: TokenBox(item: SleepyToken()))
    #expect {
      _ = try KeyedUnarchiver.unarchivedRootObject(from: archive)
    } throws: { error in
      let error = error as? ArchiveError
      return error?.location.className == "SleepyToken" && error?.location.objectIndex != nil
        && error?.location.keyPath?.hasSuffix("item") == true
    }
  }

  @Test("COD-014: an object with deferred references is awoken after the link phase; its owner keeps the original")
  func deferredAwakeKeepsOwnersReference() throws {
    let box = TokenBox(item: nil)
    let item = LinkedReplacing()
    item.owner = box
    box.item = item
    let archive = try KeyedArchiver.archivedData(withRootObject: box)
    let unarchiver = try KeyedUnarchiver(forReadingFrom: archive, requiringSecureCoding: false)
    let decoded = try #require(try unarchiver.decodeObject(forKey: "root") as? TokenBox)
    let original = try #require(decoded.item as? LinkedReplacing)
    #expect(!original.isReplacement)
    #expect(original.owner === decoded)
  }

  @Test("COD-110: allowedClasses inside init(coder:) is the allowed set of the call that reached the object")
  func allowedClassesFollowTheCall() throws {
    let archive = try KeyedArchiver.archivedData(withRootObject: AllowedClassesProbe(child: "text"))
    let probe = try #require(
      try KeyedUnarchiver.unarchivedObject(ofClasses: [AllowedClassesProbe.self, String.self], from: archive)
        as? AllowedClassesProbe)
    let seen = try #require(probe.seen)
    #expect(seen.isSuperset(of: ["AllowedClassesProbe", "NSString"]))
    #expect(probe.child as? String == "text")
    // Outside any object, and without secure coding, any class is allowed.
    let unarchiver = try KeyedUnarchiver(forReadingFrom: archive, requiringSecureCoding: false)
    #expect(unarchiver.allowedClasses == nil)
    let open = try #require(try unarchiver.decodeObject(forKey: "root") as? AllowedClassesProbe)
    #expect(open.seen == nil)
  }

  @Test("COD-110: a container that passes allowedClasses on refuses a child outside the set")
  func allowedClassesRefuseOthers() throws {
    let archive = try KeyedArchiver.archivedData(withRootObject: AllowedClassesProbe(child: UUID()))
    #expect {
      _ = try KeyedUnarchiver.unarchivedObject(ofClasses: [AllowedClassesProbe.self, String.self], from: archive)
    } throws: { error in
      let error = error as? ArchiveError
      return error?.code == .classNotAllowed && error?.location.keyPath?.hasSuffix("child") == true
    }
  }

  @Test("COD-111: version(forClassName:) gives the declared classVersion, NSNotFound for an unknown class")
  func versionForClassName() throws {
    let archive = try KeyedArchiver.archivedData(withRootObject: VersionedNote())
    let note = try #require(try KeyedUnarchiver.unarchivedObject(ofClass: VersionedNote.self, from: archive))
    #expect(note.seenVersion == 3)
    #expect(note.seenUnknown == NSNotFound)
  }

  @Test("COD-111: a name mapped with setClass(_:forClassName:) reports the version of the class it decodes as")
  func versionFollowsSetClass() throws {
    final class RenamedNote: Coding {
      static var classVersion: Int { 5 }
      var seen = -1
      init() {}
      required init(coder: any DecodingCoder) throws { seen = coder.version(forClassName: "OldNote") }
      func encode(with coder: any EncodingCoder) {}
    }
    let archiver = KeyedArchiver()
    archiver.setClassName("OldNote", for: RenamedNote.self)
    archiver.encodeObject(RenamedNote(), forKey: "root")
    let unarchiver = try KeyedUnarchiver(forReadingFrom: try archiver.finishEncoding(), requiringSecureCoding: false)
    unarchiver.setClass(RenamedNote.self, forClassName: "OldNote")
    let note = try #require(try unarchiver.decodeObject(forKey: "root") as? RenamedNote)
    #expect(note.seen == 5)
    #expect(unarchiver.version(forClassName: "NoSuchClassAnywhere") == NSNotFound)
  }

  @Test("COD-111: a keyed archive records no class version, as Apple's keyed archiver writes none")
  func keyedArchiveHasNoVersion() throws {
    let archive = try KeyedArchiver.archivedData(withRootObject: VersionedNote())
    let (_, className, objects) = try rootObject(archive)
    #expect(className == "VersionedNote")
    let plist = try PropertyListReader.read(archive)
    let rootUID = try #require(plist.dictionaryValue?["$top"]?.dictionaryValue?["root"]?.uidValue)
    #expect(Set(try classDescription(objects, uid: rootUID).map(\.key.stringValue)) == ["$classname", "$classes"])
  }

  @Test("COD-111: a coder with a ClassVersionSource reports the versions it recorded before the class's own")
  func versionSourceComesFirst() throws {
    final class Recorded: ClassVersionSource {
      func recordedVersion(forClassName className: String) -> Int? { className == "VersionedNote" ? 7 : nil }
    }
    final class RecordingUnarchiverCoder: DecodingCoder {
      let source = Recorded()
      var classVersionSource: (any ClassVersionSource)? { source }
      func containsValue(forKey key: String) -> Bool { false }
      func decodeValue(forKey key: String) throws -> CodedValue? { nil }
      func decodeObject(forKey key: String, allowedClasses: Set<String>?) throws -> Any? { nil }
      func decodeDeferred(
        forKey key: String, allowedClasses: Set<String>?, assign: @escaping (AnyObject, Any?) throws -> Void
      ) throws {}
      var requiresSecureCoding: Bool { false }
      var decodingFailurePolicy: DecodingFailurePolicy { .throwError }
      var error: (any Error)? { nil }
      func failWithError(_ error: any Error) {}
    }
    let note = try VersionedNote(coder: RecordingUnarchiverCoder())
    #expect(note.seenVersion == 7)
    #expect(note.seenUnknown == NSNotFound)
  }

  @Test("COD-112: the class written depends on the instance (classForKeyedArchiver), with its own chain")
  func classForKeyedArchiverPerInstance() throws {
    let shapes: [Any] = [PrivateShape(sides: 4), PrivateShape(sides: 0, radius: 2.5), PrivateShape(sides: 3)]
    let archive = try KeyedArchiver.archivedData(withRootObject: shapes)
    let plist = try PropertyListReader.read(archive)
    let objects = try #require(plist.dictionaryValue?["$objects"]?.arrayValue)
    let (fields, _, _) = try rootObject(archive)
    let uids = try #require(fields["NS.objects"]?.arrayValue).compactMap(\.uidValue)
    let names = try uids.map { try classDescription(objects, uid: $0)["$classname"]?.stringValue }
    #expect(names == ["PublicShape", "PublicCircle", "PublicShape"])
    #expect(
      try classDescription(objects, uid: uids[1])["$classes"] == .array([.string("PublicCircle"), .string("NSObject")]))
    let decoded = try #require(try KeyedUnarchiver.unarchivedRootObject(from: archive) as? [Any])
    #expect((decoded[0] as? PublicShape)?.sides == 4)
    #expect((decoded[1] as? PublicCircle)?.radius == 2.5)
    #expect((decoded[2] as? PublicShape)?.sides == 3)
  }

  @Test("COD-112: the toolchain's unarchiver decodes an instance as the class its classForKeyedArchiver gives")
  func classForKeyedArchiverReadByTheToolchain() throws {
    registerTestClasses
    let archive = try KeyedArchiver.archivedData(withRootObject: TwinStandIn(label: "stand-in"))
    let twin = try #require(try FoundationOracle.unarchive(archive) as? FoundationTwin)
    #expect(twin.label == "stand-in")
    #expect(twin.count == 7)
    let ours = try #require(try KeyedUnarchiver.unarchivedRootObject(from: archive) as? OurTwin)
    #expect(ours.label == "stand-in")
  }

  @Test("COD-112: setClassName(_:for:) renames the class an instance chose")
  func classNameOverrideAppliesToChosenClass() throws {
    let archiver = KeyedArchiver()
    archiver.setClassName("LegacyShape", for: PublicShape.self)
    archiver.encodeObject(PrivateShape(sides: 5), forKey: "root")
    let (_, className, _) = try rootObject(try archiver.finishEncoding())
    #expect(className == "LegacyShape")
  }

  @Test("COD-014: an awakeAfter(using:) replacement reaches the owner's field, arrays, dictionaries and sets")
  func awakeReplacementReachesEveryReference() throws {
    let shared = InternedToken(name: "awake-\(UUID().uuidString)")
    _ = InternedToken.canonical.intern(shared)
    let archive = try KeyedArchiver.archivedData(withRootObject: TokenHolder(token: InternedToken(name: shared.name)))
    let holder = try #require(try KeyedUnarchiver.unarchivedRootObject(from: archive) as? TokenHolder)
    #expect(holder.direct === shared)
    #expect(holder.list.count == 2 && holder.list.allSatisfy { $0 === shared })
    #expect(holder.map["a"] === shared)
    #expect(holder.set.first === shared)
  }

  @Test("COD-014: an untyped array and dictionary at the root hold the replacement")
  func awakeReplacementInRootCollections() throws {
    let shared = InternedToken(name: "root-\(UUID().uuidString)")
    _ = InternedToken.canonical.intern(shared)
    let token = InternedToken(name: shared.name)
    let archive = try KeyedArchiver.archivedData(withRootObject: ["list": [token], "one": token] as [String: Any])
    let root = try #require(try KeyedUnarchiver.unarchivedRootObject(from: archive) as? [String: Any])
    #expect(root["one"] as AnyObject === shared)
    #expect((root["list"] as? [Any])?.first as AnyObject === shared)
  }

  @Test("COD-104: with a delegate, the delegate's replacement also reaches objects decoded after it")
  func delegateReplacementReachesOwner() throws {
    final class Substitute: KeyedUnarchiverDelegate {
      let replacement = InternedToken(name: "from-delegate")
      var events: [String] = []
      func unarchiver(_ unarchiver: KeyedUnarchiver, didDecode object: AnyObject) -> AnyObject? {
        events.append("didDecode \(type(of: object))")
        return object is InternedToken ? replacement : object
      }
      func unarchiver(_ unarchiver: KeyedUnarchiver, willReplace object: AnyObject, with newObject: AnyObject?) {
        events.append("willReplace \(type(of: object))")
      }
    }
    let archive = try KeyedArchiver.archivedData(
      withRootObject: TokenHolder(token: InternedToken(name: "delegate-\(UUID().uuidString)")))
    let unarchiver = try KeyedUnarchiver(forReadingFrom: archive, requiringSecureCoding: false)
    let delegate = Substitute()
    unarchiver.delegate = delegate
    let holder = try #require(try unarchiver.decodeObject(forKey: "root") as? TokenHolder)
    #expect(holder.direct === delegate.replacement)
    #expect(holder.map["a"] === delegate.replacement)
    #expect(holder.list.allSatisfy { $0 === delegate.replacement })
    #expect(delegate.events == ["didDecode InternedToken", "willReplace InternedToken", "didDecode TokenHolder"])
  }
}
