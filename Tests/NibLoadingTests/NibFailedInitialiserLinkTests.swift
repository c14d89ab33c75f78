import ArchiveCoding
import Foundation
import NibLoading
import Synchronization
import Testing

/// An object that asks for a deferred reference to `peer`, then throws on its first decoding.
private final class FlakyLinker: Coding {
  static let attempts = Mutex(0)
  static let assignments = Mutex(0)
  var peer: AnyObject?

  init(coder: any DecodingCoder) throws {
    try coder.decodeDeferred(forKey: "peer", allowedClasses: nil) { object, value in
      FlakyLinker.assignments.withLock { $0 += 1 }
      (object as? FlakyLinker)?.peer = value as AnyObject?
    }
    let attempt = Self.attempts.withLock { count in
      count += 1
      return count
    }
    if attempt == 1 { throw ArchiveError(.typeMismatch, "the first decoding fails") }
  }

  func encode(with coder: any EncodingCoder) {}
}

/// An object that decodes its `child` twice, ignoring the first failure.
private final class RetryingParent: Coding {
  let child: FlakyLinker?

  init(coder: any DecodingCoder) throws {
    _ = try? coder.decodeObject(forKey: "child")
    child = try coder.decodeObject(forKey: "child") as? FlakyLinker
  }

  func encode(with coder: any EncodingCoder) {}
}

@Suite("Nib link phase after a failed initialiser", .serialized)
struct NibFailedInitialiserLinkTests {
  @Test("NIB-001: links an initialiser asked for before it threw are not assigned; its retry's are, once")
  func failedInitialiserLinksDropped() throws {
    FlakyLinker.attempts.withLock { $0 = 0 }
    FlakyLinker.assignments.withLock { $0 = 0 }
    let registry = ClassRegistry()
    registry.register(FlakyLinker.self, as: "FlakyLinker")
    registry.register(RetryingParent.self, as: "RetryingParent")
    let nib = Nib(
      data: xib(
        #"""
        <view id="p" customClass="RetryingParent">
          <view key="child" id="c" customClass="FlakyLinker">
            <view key="peer" id="q" customClass="UIView"/>
          </view>
        </view>
        """#),
      registry: registry)
    let parent = try #require(try nib.instantiate(owner: nil).first as? RetryingParent)
    let child = try #require(parent.child)
    #expect(FlakyLinker.attempts.withLock { $0 } == 2)
    #expect(FlakyLinker.assignments.withLock { $0 } == 1)
    #expect(child.peer != nil)
  }
}
