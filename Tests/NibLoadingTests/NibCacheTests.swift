import ArchiveCoding
import Foundation
import InterfaceObjects
import NibLoading
import Testing

@Suite("Nib cache")
struct NibCacheTests {
  /// Three XIB files of the same size in a fresh folder, as nibs of their own cache.
  func nibs(_ cache: NibCache) throws -> (URL, [Nib]) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cache-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    var nibs: [Nib] = []
    for name in ["A", "B", "C"] {
      let url = folder.appendingPathComponent("\(name).xib")
      try xib(#"<view id="v1"><subviews><label text="\#(name)" id="l1"/></subviews></view>"#).write(to: url)
      nibs.append(Nib(contentsOf: url, registry: testRegistry, cache: cache))
    }
    return (folder, nibs)
  }

  @Test("NIB-101: purgeAll drops every file-backed nib's table; the next instantiation reads the file again")
  func purgeAll() throws {
    let cache = NibCache()
    let (folder, nibs) = try nibs(cache)
    defer { try? FileManager.default.removeItem(at: folder) }
    for nib in nibs { _ = try nib.instantiate(owner: nil) }
    #expect(nibs.allSatisfy { $0.isLoaded })
    #expect(cache.loadedByteCount > 0)
    cache.purgeAll()
    #expect(nibs.allSatisfy { !$0.isLoaded })
    #expect(cache.loadedByteCount == 0)
    let label = try #require((try nibs[1].instantiate(owner: nil).first as? View)?.subviews.first as? Label)
    #expect(label.text == "B")
    #expect(nibs[1].isLoaded)
  }

  @Test("NIB-101: a memory budget keeps the most recently instantiated tables that fit and drops the others")
  func memoryBudget() throws {
    let cache = NibCache()
    let (folder, nibs) = try nibs(cache)
    defer { try? FileManager.default.removeItem(at: folder) }
    for nib in nibs { _ = try nib.instantiate(owner: nil) }
    let each = cache.loadedByteCount / 3
    _ = try nibs[0].instantiate(owner: nil)
    cache.memoryBudget = each * 2
    #expect(nibs[0].isLoaded, "used last")
    #expect(!nibs[1].isLoaded, "used least recently")
    #expect(nibs[2].isLoaded)
    _ = try nibs[1].instantiate(owner: nil)
    #expect(nibs[1].isLoaded, "the nib being loaded is kept")
    #expect(!nibs[2].isLoaded)
    #expect(cache.loadedByteCount <= each * 2)
    cache.memoryBudget = nil
    for nib in nibs { _ = try nib.instantiate(owner: nil) }
    #expect(nibs.allSatisfy { $0.isLoaded })
  }
}
