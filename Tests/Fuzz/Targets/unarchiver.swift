// libFuzzer target: the keyed unarchiver, with secure coding on (two registered test classes allowed) and off
// (unknown classes decoded generically as ArchivedObject).
import ArchiveCoding
import Foundation
import KeyedArchive

/// A record with primitives, a string, data and a nested object.
final class FuzzRecord: SecureCoding {
  static var supportsSecureCoding: Bool { true }
  var number = 0
  var ratio = 0.0
  var flag = false
  var title: String?
  var blob: Data?
  var child: FuzzNode?
  init() {}
  required init(coder: any DecodingCoder) throws {
    number = try coder.decodeInt(forKey: "number")
    ratio = try coder.decodeDouble(forKey: "ratio")
    flag = try coder.decodeBool(forKey: "flag")
    title = try coder.decodeString(forKey: "title")
    blob = try coder.decodeData(forKey: "blob")
    child = try coder.decodeObject(of: FuzzNode.self, forKey: "child")
  }
  func encode(with coder: any EncodingCoder) {}
}

/// A linked node: `next` direct, `previous` through the link phase (cycles allowed).
final class FuzzNode: SecureCoding {
  static var supportsSecureCoding: Bool { true }
  var value = 0
  var next: FuzzNode?
  weak var previous: FuzzNode?
  var items: [Any] = []
  required init(coder: any DecodingCoder) throws {
    value = try coder.decodeInt(forKey: "value")
    try coder.decodeReference(forKey: "next", into: \FuzzNode.next)
    try coder.decodeReference(forKey: "previous", into: \FuzzNode.previous)
    items = try coder.decodeObject(of: [NSArrayStandIn.self], forKey: "items") as? [Any] ?? []
  }
  func encode(with coder: any EncodingCoder) {}
}

/// `[Any]` as an allowed type: the unarchiver maps it to NSArray.
typealias NSArrayStandIn = [Any]

let fuzzRegistry: ClassRegistry = {
  let registry = ClassRegistry()
  registry.register(FuzzRecord.self, as: "FuzzRecord")
  registry.register(FuzzNode.self, as: "FuzzNode")
  return registry
}()

/// Breaks the reference cycles that a hostile archive can build out of the harness's own class (`FuzzNode.next`,
/// `items`) and out of Foundation's mutable collections (an `NSMutableArray` that contains itself), as their owner
/// would: these are cycles of the caller's strong references, the same on Darwin. A mutable collection is emptied, not
/// walked into (reading it may recurse in Foundation). Generic objects are left alone:
/// the unarchiver must not make strong cycles of them (COD-025), and LeakSanitizer checks that it does not.
func breakHarnessCycles(_ root: Any?) {
  var pending: [Any?] = [root]
  var seen: Set<ObjectIdentifier> = []
  while let next = pending.popLast() {
    guard let value = next else { continue }
    if type(of: value) is AnyClass {
      guard seen.insert(ObjectIdentifier(value as AnyObject)).inserted else { continue }
    }
    switch value {
    case let node as FuzzNode:
      pending.append(node.next)
      pending.append(contentsOf: node.items)
      node.next = nil
      node.items = []
    case let record as FuzzRecord:
      pending.append(record.child)
    case let object as ArchivedObject:
      for entry in object.fields {
        switch entry.value {
        case .object(let v): pending.append(v)
        case .objects(let list): pending.append(contentsOf: list)
        case .value: break
        }
      }
    // Emptied without reading their elements: on swift-corelibs-foundation every read of an element bridges it, and
    // bridging a collection that contains itself recurses until the stack overflows (in Foundation, not here).
    case let array as NSMutableArray: array.removeAllObjects()
    case let dictionary as NSMutableDictionary: dictionary.removeAllObjects()
    case let set as NSMutableSet: set.removeAllObjects()
    case let array as [Any?]: pending.append(contentsOf: array)
    case let dictionary as [AnyHashable: Any]: pending.append(contentsOf: dictionary.values.map { $0 })
    case let set as Set<AnyHashable>: pending.append(contentsOf: set.map(\.base))
    default: break
    }
  }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKeyedUnarchiver(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  let bytes = Data(UnsafeBufferPointer(start: start, count: start == nil ? 0 : count))
  // Secure coding on: only the two registered classes (and the Foundation values they need).
  if let unarchiver = try? KeyedUnarchiver(forReadingFrom: bytes, requiringSecureCoding: true) {
    unarchiver.registry = fuzzRegistry
    breakHarnessCycles(
      try? unarchiver.decodeObject(of: [FuzzRecord.self, FuzzNode.self, String.self], forKey: "root"))
    _ = try? unarchiver.finishDecoding()
  }
  // Secure coding off: any class; unknown ones generically; every top-level key.
  if let unarchiver = try? KeyedUnarchiver(forReadingFrom: bytes, requiringSecureCoding: false) {
    unarchiver.registry = fuzzRegistry
    unarchiver.decodesUnknownClassesGenerically = true
    for key in unarchiver.topLevelKeys {
      breakHarnessCycles(try? unarchiver.decodeObject(forKey: key))
    }
    _ = try? unarchiver.finishDecoding()
  }
  return 0
}
