import Foundation
import KeyedCommands
import TestSupport
import Testing

/// Chromium from Debian (`apt-get install chromium`; `.ci/run` installs it), or `nil`.
let chromium: URL? = HeadlessChromium.executable

/// Runs headless Chromium with a throwaway profile; returns what it printed on standard output. A run longer than
/// a minute is stopped and fails the test.
func runChromium(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
  _ = try #require(chromium, sourceLocation: sourceLocation)
  let (output, finished) = try HeadlessChromium.run(arguments)
  if !finished { Issue.record("chromium did not finish within a minute", sourceLocation: sourceLocation) }
  return output
}

/// What `Tests/Scripts/png_regions.py` says of a screenshot.
struct ScreenshotReport: Decodable {
  struct Region: Decodable {
    var dominant: String?
    var pixels: Int
    var dark: Int
  }
  var width: Int
  var height: Int
  var colors: Int
  var regions: [String: Region]
}

func describeScreenshot(_ png: URL, regions: [String: [Double]]) throws -> ScreenshotReport {
  let list = regions.keys.sorted().map { ["name": $0, "rect": regions[$0] ?? []] as [String: Any] }
  let json = String(decoding: try JSONSerialization.data(withJSONObject: list), as: UTF8.self)
  let output = try #require(try runPython("png_regions.py", [png.path, json]), "python3 could not read the screenshot")
  return try JSONDecoder().decode(ScreenshotReport.self, from: output)
}

@Suite(
  "keyed render in a real browser", .serialized,
  .enabled(if: chromium != nil, "chromium is not installed (apt-get install chromium): the browser tests are skipped"))
struct RenderBrowserTests {
  @Test(
    "CLI-094: the HTML page loads in headless Chromium, its script runs, and a connection's entry highlights its source and destination"
  )
  func domHighlights() throws {
    let directory = try makeTemporaryDirectory("keyed-render-browser")
    defer { try? FileManager.default.removeItem(at: directory) }
    let page = directory.appendingPathComponent("ConnectedActionsView.html")
    let xib = scenarioFolder.appendingPathComponent("ConnectedActionsView.xib")
    #expect(keyed("render", xib.path, "-o", page.path).status == 0)
    let html = String(decoding: try Data(contentsOf: page), as: UTF8.self)
    // The action's entry: the button cav-bt-001 sends connectedActionsViewTouchedUp: to File's Owner (-1).
    let tree = try MarkupTree(Data(html.replacingOccurrences(of: "<!DOCTYPE html>\n", with: "").utf8))
    let entries = tree.elements.filter { $0.name == "a" && $0.attributes["data-source"] != nil }
    let actionIndex = try #require(entries.firstIndex { $0.text.contains("connectedActionsViewTouchedUp:") })
    var url = URLComponents(url: page, resolvingAgainstBaseURL: false)
    url?.fragment = "connection=\(actionIndex)"
    let dom = try runChromium(["--dump-dom", try #require(url?.url?.absoluteString)])
    let objects = XIBFramesCount(xib)
    #expect(dom.contains("data-entries=\""), "the page's script did not run: \(dom.prefix(300))")
    #expect(dom.range(of: #"<g data-id="cav-bt-001"[^>]*class="highlight-source""#, options: .regularExpression) != nil)
    #expect(dom.range(of: #"<g data-id="-1"[^>]*class="highlight-destination""#, options: .regularExpression) != nil)
    #expect(dom.contains("class=\"selected\""))
    #expect(objects > 0 && dom.components(separatedBy: "data-target=").count - 1 >= objects)

    // An object entry, selected through the address, highlights that object only.
    url?.fragment = "object=cav-vw-001"
    let selected = try runChromium(["--dump-dom", try #require(url?.url?.absoluteString)])
    #expect(
      selected.range(of: #"<g data-id="cav-vw-001"[^>]*class="highlight-source""#, options: .regularExpression) != nil)
    #expect(!selected.contains("highlight-destination\""))
  }

  @Test("CLI-094: a segue's entry highlights its arrow, the button that performs it and the destination scene")
  func segueHighlight() throws {
    let directory = try makeTemporaryDirectory("keyed-render-browser-segue")
    defer { try? FileManager.default.removeItem(at: directory) }
    let storyboard = directory.appendingPathComponent("Main.storyboard")
    try Data(RenderTests.storyboard.utf8).write(to: storyboard)
    let page = directory.appendingPathComponent("Main.html")
    #expect(keyed("render", storyboard.path, "-o", page.path).status == 0)
    var url = URLComponents(url: page, resolvingAgainstBaseURL: false)
    url?.fragment = "connection=0"
    let dom = try runChromium(["--dump-dom", try #require(url?.url?.absoluteString)])
    #expect(
      dom.range(of: #"<path [^>]*data-kind="segue"[^>]*class="highlight-source""#, options: .regularExpression) != nil)
    #expect(dom.range(of: #"<g data-id="go"[^>]*class="highlight-source""#, options: .regularExpression) != nil)
    #expect(
      dom.range(of: #"<g data-id="second"[^>]*class="highlight-destination""#, options: .regularExpression) != nil)
  }

  @Test("CLI-094: a screenshot of the drawing is not blank and paints each scenario view where its frame says")
  func screenshotPaintsFrames() throws {
    let directory = try makeTemporaryDirectory("keyed-render-screenshot")
    defer { try? FileManager.default.removeItem(at: directory) }
    let picture = directory.appendingPathComponent("PlainView.svg")
    let xib = scenarioFolder.appendingPathComponent("PlainView.xib")
    #expect(keyed("render", xib.path, "-o", picture.path).status == 0)
    let svg = try MarkupTree(try Data(contentsOf: picture))
    let root = try #require(svg.elements.first { $0.name == "svg" })
    let width = try #require(Int(root.attributes["width"] ?? ""))
    let height = try #require(Int(root.attributes["height"] ?? ""))
    let png = directory.appendingPathComponent("PlainView.png")
    _ = try runChromium(["--window-size=\(width),\(height)", "--screenshot=\(png.path)", picture.absoluteString])
    // Where the XIB's frames put the view and its label: the drawing's frame of the view (checked against the XIB
    // by CLI-090), the label at its offset inside it.
    let view = try #require(svg.drawnFrame("pln-vw-001"))
    let frames = try XIBFrames(xib)
    let label = try #require(frames.views.first { $0.id == "pln-lb-001" }).frame
    let report = try describeScreenshot(
      png,
      regions: [
        "view-corner": [view[0] + 2, view[1] + 2, 14, 14],
        "label": [view[0] + label[0], view[1] + label[1], label[2], label[3]],
        "canvas": [2, 2, 10, 10],
      ])
    #expect(report.width == width && report.height == height)
    #expect(report.colors > 10, "the page is blank")
    // <color key="backgroundColor" red="0.96" green="0.96" blue="0.86"/>: #f5f5db.
    #expect(report.regions["view-corner"]?.dominant == "#f5f5db")
    #expect((report.regions["label"]?.dark ?? 0) > 50, "no text painted in the label's frame")
    #expect(report.regions["canvas"]?.dominant != "#f5f5db")
  }

  @Test("CLI-094: the HTML page paints a non-blank page with the drawing and its lists")
  func htmlScreenshot() throws {
    let directory = try makeTemporaryDirectory("keyed-render-html-screenshot")
    defer { try? FileManager.default.removeItem(at: directory) }
    let page = directory.appendingPathComponent("TableViewCell.html")
    #expect(
      keyed("render", scenarioFolder.appendingPathComponent("TableViewCell.xib").path, "-o", page.path).status == 0)
    let png = directory.appendingPathComponent("TableViewCell.png")
    _ = try runChromium(["--window-size=1200,600", "--screenshot=\(png.path)", page.absoluteString])
    let report = try describeScreenshot(png, regions: ["page": [0, 0, 1200, 600]])
    #expect(report.colors > 20, "the page is blank")
    #expect((report.regions["page"]?.dark ?? 0) > 500, "no text painted")
  }
}

/// How many objects with a frame a XIB has.
private func XIBFramesCount(_ url: URL) -> Int { (try? XIBFrames(url).views.count) ?? 0 }
