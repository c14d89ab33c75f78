import ArchiveCoding
import Foundation
import InterfaceObjects
import NibLoading
import Testing

// The example of `docs/Guides.docc/Performance.md`: measuring in your own code.

@Suite("Documentation: performance", .serialized)
struct PerformanceExamples {
  @Test("DOC-038: a cached nib instantiates faster than loading the file each time, measured with a clock")
  func cachedNibIsFaster() throws {
    InterfaceCatalog.register()
    ClassRegistry.shared.register(BookCell.self, as: "BookCell")

    let clock = ContinuousClock()
    let nib = try Nib(nibName: "BookCell", bundle: .module)
    _ = try nib.instantiate(owner: nil)  // the first use reads and parses the file
    let cached = try clock.measure {
      for _ in 0..<200 { _ = try nib.instantiate(owner: nil) }
    }
    let uncached = try clock.measure {
      for _ in 0..<200 { _ = try Bundle.module.loadNibNamed("BookCell", owner: nil) }
    }
    print(uncached / cached)  // how many times faster the cached nib is

    #expect(uncached > cached, "cached \(cached), loading each time \(uncached)")
  }
}
