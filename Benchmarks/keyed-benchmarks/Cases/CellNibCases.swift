import Foundation
import InterfaceObjects
import NibLoading
import XIB

#if canImport(FoundationXML)
import FoundationXML
#endif

/// `NibLoading.instantiate.cell-nib`: a cell XIB of about 50 objects instantiated N times from one cached `Nib`,
/// beside loading the file each time (read and parse, then instantiate); and `XIB.parse.xib-large`: the largest
/// corpus XIB (or a generated one) parsed, beside FoundationXML's `XMLParser` reading the same bytes.
enum CellNibCases {
  static func cases(repetitions: Int) -> [BenchmarkCase] {
    InterfaceCatalog.register()
    let cached = Side.encoding(
      "Nib (parsed once)", CellNibInput.self,
      build: { input -> Nib in
        let nib = Nib(data: input.xib, name: "Cell.xib")
        _ = try nib.objectTable()
        return nib
      },
      encode: { nib in
        // A fresh owner each time: it accepts the cell's `tapped:` actions.
        Blackhole.consume(try nib.instantiate(owner: GenericNibObject(className: "Owner")))
        return Data([1])
      })
    let fromFile = Side.encoding(
      "file loaded each time", CellNibInput.self,
      build: { input -> URL in
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("keyed-bench-cell-\(getpid()).xib")
        try input.xib.write(to: url)
        return url
      },
      encode: { url in
        Blackhole.consume(try Nib(contentsOf: url).instantiate(owner: GenericNibObject(className: "Owner")))
        return Data([1])
      })
    return [
      .encoding(
        name: "NibLoading.instantiate.cell-nib", n: repetitions, group: "cell-nib",
        summary: "instantiate a 50-object table-cell XIB N times (times are per run of N)", ours: cached,
        peers: [fromFile]),
      .encoding(
        name: "XIB.parse.xib-large", n: 1, group: "xib-large",
        summary: "parse the largest corpus XIB (generated when the corpus is absent) into the document model",
        ours: .encoding(
          "XIBDocument", LargeXIBInput.self, build: { $0.bytes },
          encode: { bytes in
            Blackhole.consume(try XIBDocument(parsing: bytes).objects.count)
            return Data([1])
          }),
        peers: [
          .encoding(
            "XMLParser (events only)", LargeXIBInput.self, build: { Data($0.bytes) },
            encode: { data in
              let parser = XMLParser(data: data)
              let counter = ElementCounter()
              parser.delegate = counter
              guard parser.parse() else { throw BenchmarkFailure("XMLParser failed") }
              Blackhole.consume(counter.count)
              return Data([1])
            })
        ]),
    ]
  }
}

/// The largest XIB of `../shared/corpus/xib`, or a generated 200 KB document.
struct LargeXIBInput: BenchmarkInput {
  var bytes: [UInt8]
  static func generate(count: Int) -> LargeXIBInput {
    let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("shared/corpus/xib")
    let files =
      (try? FileManager.default.contentsOfDirectory(at: corpus, includingPropertiesForKeys: [.fileSizeKey]))
      ?? []
    let largest = files.filter { $0.pathExtension == "xib" }.max {
      ((try? $0.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0)
        < ((try? $1.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0)
    }
    if let largest, let data = try? Data(contentsOf: largest) { return LargeXIBInput(bytes: [UInt8](data)) }
    return LargeXIBInput(bytes: [UInt8](CellNibInput.generate(count: 1).xib))
  }
  var objectCount: Int { 1 }
}

/// Counts elements for the XMLParser side.
final class ElementCounter: NSObject, XMLParserDelegate {
  var count = 0
  func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
    attributes: [String: String] = [:]
  ) {
    count += 1
  }
}
