import ArchiveCoding
import Foundation
import Testing

/// A class a test registers only after asking for its name.
private final class LateRegistered: Coding {
  init() {}
  required init(coder: any DecodingCoder) throws {}
  func encode(with coder: any EncodingCoder) {}
}

/// A superclass known to a private registry only through the shared registry's name for it.
private class SharedNamedBase: Coding {
  init() {}
  required init(coder: any DecodingCoder) throws {}
  func encode(with coder: any EncodingCoder) {}
}

private final class PrivateSubclass: SharedNamedBase {}

/// What a registry remembers of its answers (a class name's resolution, the names a type allows) must go stale with
/// every registration that could change them.
@Suite("Class registry memos")
struct ClassRegistryMemoTests {
  @Test("COD-023: a name asked for before its class is registered resolves to the class after the registration")
  func registrationAfterAMiss() {
    let registry = ClassRegistry()
    let name = "LateRegistered"
    #expect(registry.resolution(forClassName: name).type == nil)
    #expect(registry.resolution(forClassName: name).chain == [name, "NSObject"])
    registry.register(LateRegistered.self, as: name)
    let resolution = registry.resolution(forClassName: name)
    #expect(resolution.type.map(ObjectIdentifier.init) == ObjectIdentifier(LateRegistered.self))
    #expect(resolution.chain == [name, "NSObject"])
    registry.registerSuperclass("NSView", of: "Unregistered")
    #expect(registry.resolution(forClassName: "Unregistered").chain == ["Unregistered", "NSView", "NSObject"])
  }

  @Test(
    "COD-023: a private registry's chains and allowed names follow the shared registry's names for the classes it uses"
  )
  func sharedRenameReachesPrivateRegistries() {
    let registry = ClassRegistry()
    registry.register(PrivateSubclass.self, as: "PrivateSubclass")
    let before = ClassRegistry.shared.className(for: SharedNamedBase.self)
    #expect(registry.resolution(forClassName: "PrivateSubclass").chain == ["PrivateSubclass", before, "NSObject"])
    #expect(registry.allowedClassNames(for: [SharedNamedBase.self]) == [before])
    // A name of this test's own: the shared registry is process-wide.
    let renamed = "SharedNamedBase-\(UUID().uuidString)"
    ClassRegistry.shared.register(SharedNamedBase.self, as: renamed)
    #expect(registry.resolution(forClassName: "PrivateSubclass").chain == ["PrivateSubclass", renamed, "NSObject"])
    #expect(registry.allowedClassNames(for: [SharedNamedBase.self]) == [renamed])
  }
}
