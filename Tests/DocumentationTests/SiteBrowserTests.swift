import Foundation
import TestSupport
import Testing

// The built documentation site (`Scripts/build-documentation`), served on 127.0.0.1 and opened in headless
// Chromium: DocC's pages are drawn by JavaScript from JSON, so only a browser shows whether they paint (DOC-040 to
// DOC-042).

/// Where `Scripts/build-documentation` writes the site.
let documentationSite = packageRoot.appendingPathComponent(".build/documentation/site")

/// The site's folder holds a built site.
let siteIsBuilt = FileManager.default.fileExists(
  atPath: documentationSite.appendingPathComponent("data/documentation.json").path)

/// `python3 -m http.server` over the site, on a port the system chooses, until `stop()`.
final class SiteServer {
  let process = Process()
  let port: Int

  init(root: URL) throws {
    let output = Pipe()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", root.path]
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    // "Serving HTTP on 127.0.0.1 port 40123 (http://127.0.0.1:40123/) ..."
    var text = ""
    let deadline = Date().addingTimeInterval(20)
    var found: Int?
    while found == nil, Date() < deadline, process.isRunning {
      let data = output.fileHandleForReading.availableData
      if data.isEmpty { break }
      text += String(decoding: data, as: UTF8.self)
      if let range = text.range(of: #"port (\d+)"#, options: .regularExpression) {
        found = Int(text[range].dropFirst("port ".count))
      }
    }
    guard let found else {
      if process.isRunning { kill(process.processIdentifier, SIGKILL) }
      throw CocoaError(
        .fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "the HTTP server did not start: \(text)"])
    }
    port = found
  }

  func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

  /// Stops the server with SIGKILL: a child of the test process may inherit a mask that blocks SIGTERM, and
  /// `http.server` would then never exit.
  func stop() {
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
  }
}

/// The page at `path` as Chromium's DOM holds it once its scripts have run (DocC fetches the page's JSON and draws
/// it; the virtual time budget lets the fetches finish before the DOM is printed).
func renderedPage(
  _ path: String, on server: SiteServer, sourceLocation: SourceLocation = #_sourceLocation
) throws
  -> String
{
  let (dom, finished) = try HeadlessChromium.run(["--virtual-time-budget=15000", "--dump-dom", server.url(path)])
  #expect(finished, "chromium did not finish loading \(path) within a minute", sourceLocation: sourceLocation)
  return dom
}

/// The text of a fragment of HTML: tags removed, the entities DocC's pages use decoded.
func visibleText(_ html: some StringProtocol) -> String {
  var text = String(html).replacingOccurrences(of: #"<[^>]*>"#, with: "", options: .regularExpression)
  for (entity, character) in [("&quot;", "\""), ("&#39;", "'"), ("&lt;", "<"), ("&gt;", ">"), ("&amp;", "&")] {
    text = text.replacingOccurrences(of: entity, with: character)
  }
  return text
}

/// The library products Package.swift declares.
func libraryProducts() throws -> [String] {
  let manifest = try String(contentsOf: packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
  return manifest.matches(of: #/\.library\(name: "([^"]+)"/#).map { String($0.output.1) }
}

@Suite(
  "Documentation: the built site in a browser", .serialized,
  .enabled(
    if: HeadlessChromium.executable != nil,
    "chromium is not installed (apt-get install chromium): the documentation site's browser tests are skipped"),
  .enabled(
    if: siteIsBuilt,
    "the documentation site is not built (Scripts/build-documentation writes .build/documentation/site): its browser tests are skipped"
  ))
struct SiteBrowserTests {
  @Test("DOC-040: the landing page lists the guides and every library product, in its groups")
  func landingPageListsModules() throws {
    let server = try SiteServer(root: documentationSite)
    defer { server.stop() }
    let dom = try renderedPage("/documentation/", on: server)

    let products = try libraryProducts()
    #expect(products.count >= 10)
    for name in ["guides"] + products.map({ $0.lowercased() }) {
      #expect(dom.contains("href=\"/documentation/\(name)\""), "the landing page does not link to \(name)")
    }
    let text = visibleText(dom)
    for group in ["Archives and property lists", "Interface Builder documents", "Testing and comparing"] {
      #expect(text.contains(group), "the landing page has no group \"\(group)\"")
    }
  }

  @Test("DOC-041: a symbol's page paints its declaration")
  func symbolPagePaintsDeclaration() throws {
    let server = try SiteServer(root: documentationSite)
    defer { server.stop() }
    let dom = try renderedPage("/documentation/keyedarchive/keyedarchiver", on: server)

    let declaration = try #require(
      dom.range(of: #"class="declaration[^"]*".*?</pre>"#, options: .regularExpression),
      "no declaration was drawn: \(visibleText(dom).prefix(300))")
    #expect(visibleText(dom[declaration]).contains("final class KeyedArchiver"))
    #expect(visibleText(dom).contains("Archiving in one call"), "the page's topic groups were not drawn")
  }

  @Test("DOC-042: an article paints its code listing, highlighted, as the article's source has it")
  func articlePaintsCode() throws {
    let article = packageRoot.appendingPathComponent(
      "Sources/InterfaceObjects/InterfaceObjects.docc/LoadingViewsFromXIBs.md")
    let source = CodeBlock.blocks(in: try String(contentsOf: article, encoding: .utf8), file: relativePath(article))
    let plain = try #require(source.first { $0.lines.contains { $0.contains("loadNibNamed(\"Card\"") } })
    let server = try SiteServer(root: documentationSite)
    defer { server.stop() }
    let dom = try renderedPage("/documentation/interfaceobjects/loadingviewsfromxibs", on: server)

    let lines = dom.matches(of: #/<span[^>]*class="code-line"[^>]*>(.*?)</span></span>/#).map {
      visibleText($0.output.1)
    }
    #expect(lines.count > 50, "the article's code listings were not drawn: \(visibleText(dom).prefix(300))")
    for line in plain.lines {
      #expect(lines.contains(line), "the listing does not show \"\(line)\"")
    }
    #expect(
      dom.contains("class=\"syntax-keyword\""), "the listings were not highlighted: the page's script did not run")
  }
}
