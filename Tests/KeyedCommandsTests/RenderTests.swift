import Foundation
import KeyedCommands
import TestSupport
import Testing

@Suite("keyed render")
struct RenderTests {
  @Test(
    "CLI-090: every view of a scenario XIB is drawn at its frame, nested in its superview's drawing",
    arguments: scenarioNames)
  func viewsAtTheirFrames(name: String) throws {
    let xib = scenarioFolder.appendingPathComponent("\(name).xib")
    let svg = try MarkupTree(try rendered(xib))
    let document = try XIBFrames(xib)
    #expect(!document.views.isEmpty)
    for view in document.views {
      let group = try #require(
        svg.elements.indices.first {
          svg.elements[$0].name == "g" && svg.elements[$0].attributes["data-id"] == view.id
        },
        "\(name): \(view.id) is not drawn")
      #expect(svg.elements[group].attributes["data-class"]?.isEmpty == false)
      let drawn = try #require(svg.drawnFrame(view.id))
      #expect(drawn[2] == view.frame[2] && drawn[3] == view.frame[3], "\(name): \(view.id) size \(drawn)")
      if let parent = view.parent {
        let parentGroup = try #require(svg.first("data-id", parent))
        #expect(svg.isInside(group, parentGroup), "\(name): \(view.id) is not inside \(parent)")
        let outer = try #require(svg.drawnFrame(parent))
        #expect(drawn[0] - outer[0] == view.frame[0], "\(name): \(view.id) x")
        #expect(drawn[1] - outer[1] == view.frame[1], "\(name): \(view.id) y")
      }
    }
  }

  @Test("CLI-090: each label's text and button's title is in a <text> element of its drawing", arguments: scenarioNames)
  func textsInTextElements(name: String) throws {
    let xib = scenarioFolder.appendingPathComponent("\(name).xib")
    let svg = try MarkupTree(try rendered(xib))
    for view in try XIBFrames(xib).views where view.element == "label" || view.element == "button" {
      let group = try #require(svg.first("data-id", view.id))
      #expect(svg.texts(under: group).contains(view.text ?? ""), "\(name): \(view.id) text \(view.text ?? "-")")
    }
  }

  @Test("CLI-090: File's Owner and First Responder are drawn beside the canvas, not inside a scene")
  func placeholdersBesideTheCanvas() throws {
    let svg = try MarkupTree(try rendered(scenarioFolder.appendingPathComponent("ConnectedActionsView.xib")))
    let owner = try #require(svg.first("data-id", "-1"))
    #expect(svg.elements[owner].attributes["data-kind"] == "placeholder")
    #expect(svg.texts(under: owner) == ["File's Owner"])
    let ownerFrame = try #require(svg.drawnFrame("-1"))
    let view = try #require(svg.drawnFrame("cav-vw-001"))
    #expect(ownerFrame[0] + ownerFrame[2] < view[0])
    #expect(svg.texts(under: try #require(svg.first("data-id", "-2"))) == ["First Responder"])
  }

  @Test("CLI-090: colours are painted as the document gives them, font sizes as its font descriptions say")
  func coloursAndFonts() throws {
    let svg = try MarkupTree(try rendered(scenarioFolder.appendingPathComponent("PlainView.xib")))
    let view = try #require(svg.first("data-id", "pln-vw-001"))
    let rect = try #require(svg.children(of: view).first { svg.elements[$0].name == "rect" })
    // <color key="backgroundColor" red="0.96" green="0.96" blue="0.86"/>
    #expect(svg.elements[rect].attributes["fill"] == "rgb(245,245,219)")
    let label = try #require(svg.first("data-id", "pln-lb-001"))
    let text = try #require(svg.children(of: label).first { svg.elements[$0].name == "text" })
    #expect(svg.elements[text].attributes["font-size"] == "17")
    #expect(svg.elements[text].attributes["text-anchor"] == "middle")  // textAlignment="center"
  }

  @Test("CLI-090: image views are framed placeholders named after their image; controls are drawn as what they are")
  func controlsAndImages() throws {
    let directory = try makeTemporaryDirectory("keyed-render-controls")
    defer { try? FileManager.default.removeItem(at: directory) }
    let xib = directory.appendingPathComponent("Controls.xib")
    try Data(Self.controlsXIB.utf8).write(to: xib)
    let svg = try MarkupTree(try rendered(xib))
    let kinds: [(String, String)] = [
      ("img", "imageView"), ("sw", "switch"), ("sl", "slider"), ("seg", "segmentedControl"), ("tf", "textField"),
      ("st", "stepper"), ("pv", "progress"), ("tv", "tableView"), ("cell", "tableViewCell"),
    ]
    for (id, kind) in kinds {
      let group = try #require(svg.first("data-id", id), "\(id) is not drawn")
      #expect(svg.elements[group].attributes["data-kind"] == kind, "\(id)")
    }
    #expect(svg.texts(under: try #require(svg.first("data-id", "img"))) == ["cover-art"])
    #expect(svg.texts(under: try #require(svg.first("data-id", "seg"))) == ["Day", "Week", "Month"])
    #expect(svg.texts(under: try #require(svg.first("data-id", "tf"))) == ["Search"])
    // The switch is on: its track is green.
    let switchGroup = try #require(svg.first("data-id", "sw"))
    #expect(svg.children(of: switchGroup).contains { svg.elements[$0].attributes["fill"] == "#34c759" })
    // The prototype cell is drawn inside its table view, with its label.
    #expect(svg.isInside(try #require(svg.first("data-id", "cell")), try #require(svg.first("data-id", "tv"))))
    #expect(svg.texts(under: try #require(svg.first("data-id", "cell"))).contains("Prototype"))
  }

  static let controlsXIB = """
    <?xml version="1.0" encoding="UTF-8"?>
    <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0" toolsVersion="22505" targetRuntime="iOS.CocoaTouch">
        <objects>
            <placeholder placeholderIdentifier="IBFilesOwner" id="-1" userLabel="File's Owner"/>
            <view contentMode="scaleToFill" id="root">
                <rect key="frame" x="0.0" y="0.0" width="320" height="480"/>
                <subviews>
                    <imageView image="cover-art" id="img"><rect key="frame" x="10" y="10" width="100" height="100"/></imageView>
                    <switch opaque="NO" on="YES" id="sw"><rect key="frame" x="130" y="10" width="51" height="31"/></switch>
                    <slider opaque="NO" value="0.25" minValue="0.0" maxValue="1" id="sl"><rect key="frame" x="130" y="50" width="170" height="30"/></slider>
                    <segmentedControl opaque="NO" segmentControlStyle="plain" selectedSegmentIndex="1" id="seg">
                        <rect key="frame" x="10" y="120" width="300" height="32"/>
                        <segments><segment title="Day"/><segment title="Week"/><segment title="Month"/></segments>
                    </segmentedControl>
                    <textField opaque="NO" borderStyle="roundedRect" placeholder="Search" id="tf">
                        <rect key="frame" x="10" y="160" width="300" height="34"/>
                        <fontDescription key="fontDescription" type="system" pointSize="14"/>
                    </textField>
                    <stepper opaque="NO" value="1" maximumValue="10" id="st"><rect key="frame" x="10" y="200" width="94" height="32"/></stepper>
                    <progressView opaque="NO" progress="0.5" id="pv"><rect key="frame" x="120" y="214" width="190" height="4"/></progressView>
                    <tableView clipsSubviews="YES" contentMode="scaleToFill" dataMode="prototypes" style="plain" id="tv">
                        <rect key="frame" x="0.0" y="240" width="320" height="240"/>
                        <prototypes>
                            <tableViewCell reuseIdentifier="Cell" id="cell">
                                <rect key="frame" x="0.0" y="28" width="320" height="44"/>
                                <tableViewCellContentView key="contentView" opaque="NO" id="cellContent">
                                    <rect key="frame" x="0.0" y="0.0" width="320" height="44"/>
                                    <subviews>
                                        <label opaque="NO" text="Prototype" id="cellLabel"><rect key="frame" x="16" y="11" width="200" height="21"/></label>
                                    </subviews>
                                </tableViewCellContentView>
                            </tableViewCell>
                        </prototypes>
                    </tableView>
                </subviews>
            </view>
        </objects>
    </document>
    """

  @Test(
    "CLI-091: the SVG is standalone and the same bytes every time; the scenario XIBs match their golden SVGs",
    arguments: scenarioNames)
  func goldens(name: String) throws {
    let xib = scenarioFolder.appendingPathComponent("\(name).xib")
    let first = try rendered(xib)
    #expect(try rendered(xib) == first)
    let text = String(decoding: first, as: UTF8.self)
    #expect(!text.contains("href"), "no links to resources")
    #expect(!text.contains("url(") || !text.replacingOccurrences(of: "url(#", with: "").contains("url("))
    #expect(!text.contains("<script"))
    let golden = packageRoot.appendingPathComponent("Tests/KeyedCommandsTests/Goldens/render-\(name).svg")
    if ProcessInfo.processInfo.environment["KEYED_RECORD_GOLDENS"] != nil { try first.write(to: golden) }
    let expected = try Data(contentsOf: golden)
    #expect(first == expected, "\(name).svg changed; rerun with KEYED_RECORD_GOLDENS=1 to accept the new drawing")
    if name == "TableViewCell" {
      // The keyed tool guide shows this drawing.
      let shown = packageRoot.appendingPathComponent("docs/Guides.docc/Resources/TableViewCell.svg")
      if ProcessInfo.processInfo.environment["KEYED_RECORD_GOLDENS"] != nil { try first.write(to: shown) }
      #expect(
        try Data(contentsOf: shown) == first,
        "docs/Guides.docc/Resources/TableViewCell.svg is not what keyed render draws")
    }
  }

  @Test("CLI-092: the HTML page lists every object and every connection, each entry naming what it highlights")
  func htmlTreeAndConnections() throws {
    let xib = scenarioFolder.appendingPathComponent("TableViewCell.xib")
    let data = try rendered(xib, as: "html")
    let text = String(decoding: data, as: UTF8.self)
    #expect(text.hasPrefix("<!DOCTYPE html>"))
    #expect(
      !text.contains("http:") || !text.replacingOccurrences(of: "http://www.w3.org/2000/svg", with: "").contains("http")
    )
    #expect(!text.contains("<script src"))
    let page = try MarkupTree(Data(text.replacingOccurrences(of: "<!DOCTYPE html>\n", with: "").utf8))
    let document = try XIBFrames(xib)
    let targets = Set(page.elements.compactMap { $0.attributes["data-target"] })
    let drawn = Set(page.elements.filter { $0.name == "g" }.compactMap { $0.attributes["data-id"] })
    for view in document.views {
      #expect(targets.contains(view.id), "\(view.id) is not in the object tree")
      #expect(drawn.contains(view.id), "\(view.id) is not drawn in the page")
    }
    let connections = page.elements.filter { $0.attributes["data-source"] != nil && $0.name == "a" }
    #expect(connections.count == document.connections.count)
    for connection in document.connections {
      #expect(
        connections.contains {
          $0.attributes["data-source"] == connection.source
            && $0.attributes["data-destination"] == connection.destination
            && $0.attributes["data-kind"] == (connection.kind == "action" ? "action" : "outlet")
        }, "\(connection)")
    }
  }

  @Test("CLI-093: a storyboard draws its scenes side by side with its segues as arrows; --scene draws one")
  func storyboards() throws {
    let directory = try makeTemporaryDirectory("keyed-render-storyboard")
    defer { try? FileManager.default.removeItem(at: directory) }
    let storyboard = directory.appendingPathComponent("Main.storyboard")
    try Data(Self.storyboard.utf8).write(to: storyboard)
    let svg = try MarkupTree(try rendered(storyboard))
    let scenes = svg.elements.filter { $0.attributes["data-kind"] == "scene" }
    #expect(scenes.compactMap { $0.attributes["data-id"] } == ["first", "second"])
    let first = try #require(svg.drawnFrame("first"))
    let second = try #require(svg.drawnFrame("second"))
    #expect(first[0] + first[2] < second[0] && first[1] == second[1])
    let segue = try #require(svg.elements.first { $0.attributes["data-kind"] == "segue" })
    #expect(segue.name == "path")
    #expect(segue.attributes["data-source"] == "go" && segue.attributes["data-destination"] == "second")
    #expect(segue.attributes["marker-end"] == "url(#segue-arrow)")
    // The button that performs the segue and the label of the second scene.
    #expect(svg.texts(under: try #require(svg.first("data-id", "go"))) == ["Next"])
    #expect(svg.texts(under: try #require(svg.first("data-id", "done"))) == ["Arrived"])

    let one = try MarkupTree(try rendered(storyboard, extra: ["--scene", "Detail"]))
    #expect(
      one.elements.filter { $0.attributes["data-kind"] == "scene" }.compactMap { $0.attributes["data-id"] } == [
        "second"
      ])
    let unknown = keyed(
      "render", storyboard.path, "-o", directory.appendingPathComponent("x.svg").path, "--scene", "Nope")
    #expect(unknown.status == 64)
    #expect(unknown.errors.contains("no scene 'Nope'") && unknown.errors.contains("first"))
  }

  @Test("CLI-093: a compiled storyboard folder draws each view controller's scene side by side, ids prefixed by nib")
  func compiledStoryboards() throws {
    let directory = try makeTemporaryDirectory("keyed-render-storyboardc")
    defer { try? FileManager.default.removeItem(at: directory) }
    let storyboard = directory.appendingPathComponent("Main.storyboard")
    try Data(Self.storyboard.utf8).write(to: storyboard)
    let compiled = directory.appendingPathComponent("Main.storyboardc")
    #expect(keyed("compile", storyboard.path, "-o", compiled.path).status == 0)
    let svg = try MarkupTree(try rendered(compiled))
    let scenes = svg.elements.indices.filter { svg.elements[$0].attributes["data-kind"] == "scene" }
    try #require(scenes.count == 2)
    let captions = scenes.compactMap { svg.children(of: $0).first { svg.elements[$0].name == "text" } }
      .map { svg.elements[$0].text }
    #expect(captions == ["UIViewController-first (UIViewController)", "Detail (UIViewController)"])
    let frames = scenes.compactMap { svg.drawnFrame(svg.elements[$0].attributes["data-id"] ?? "") }
    #expect(frames.count == 2 && frames[0][0] + frames[0][2] < frames[1][0])
    #expect(svg.texts(under: scenes[0]).contains("Next") && svg.texts(under: scenes[1]).contains("Arrived"))
    let ids = svg.elements.compactMap { $0.name == "g" ? $0.attributes["data-id"] : nil }
    #expect(Set(ids).count == ids.count, "duplicate data-id")
    #expect(ids.allSatisfy { $0.hasPrefix("UIViewController-first:") || $0.hasPrefix("Detail:") })

    let one = try MarkupTree(try rendered(compiled, extra: ["--scene", "Detail"]))
    #expect(one.elements.filter { $0.attributes["data-kind"] == "scene" }.count == 1)
    let unknown = keyed(
      "render", compiled.path, "-o", directory.appendingPathComponent("x.svg").path, "--scene", "Nope")
    #expect(unknown.status == 64)
  }

  static let storyboard = """
    <?xml version="1.0" encoding="UTF-8"?>
    <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" toolsVersion="22505" targetRuntime="iOS.CocoaTouch" initialViewController="first">
        <scenes>
            <scene sceneID="s1">
                <objects>
                    <viewController id="first" sceneMemberID="viewController">
                        <view key="view" contentMode="scaleToFill" id="firstView">
                            <rect key="frame" x="0.0" y="0.0" width="200" height="300"/>
                            <subviews>
                                <button opaque="NO" contentMode="scaleToFill" buttonType="system" id="go">
                                    <rect key="frame" x="50" y="130" width="100" height="40"/>
                                    <state key="normal" title="Next"/>
                                    <connections><segue destination="second" kind="show" id="segue1"/></connections>
                                </button>
                            </subviews>
                        </view>
                    </viewController>
                    <placeholder placeholderIdentifier="IBFirstResponder" id="fr1" sceneMemberID="firstResponder"/>
                </objects>
            </scene>
            <scene sceneID="s2">
                <objects>
                    <viewController storyboardIdentifier="Detail" id="second" sceneMemberID="viewController">
                        <view key="view" contentMode="scaleToFill" id="secondView">
                            <rect key="frame" x="0.0" y="0.0" width="200" height="300"/>
                            <subviews>
                                <label opaque="NO" text="Arrived" id="done"><rect key="frame" x="20" y="20" width="160" height="30"/></label>
                            </subviews>
                        </view>
                    </viewController>
                    <placeholder placeholderIdentifier="IBFirstResponder" id="fr2" sceneMemberID="firstResponder"/>
                </objects>
            </scene>
        </scenes>
    </document>
    """

  @Test("CLI-090: a macOS window is drawn with its title bar; AppKit frames, measured from the bottom, are flipped")
  func macWindows() throws {
    let directory = try makeTemporaryDirectory("keyed-render-mac")
    defer { try? FileManager.default.removeItem(at: directory) }
    let xib = directory.appendingPathComponent("Window.xib")
    try Data(Self.macWindow.utf8).write(to: xib)
    let svg = try MarkupTree(try rendered(xib))
    let bar = try #require(svg.elements.indices.first { svg.elements[$0].attributes["data-kind"] == "title-bar" })
    #expect(svg.texts(under: bar) == ["Preferences"])
    let content = try #require(svg.drawnFrame("content"))
    let button = try #require(svg.drawnFrame("ok"))
    // <rect key="frame" x="380" y="13" width="82" height="32"/> in a 480-high content view: 13 from the bottom.
    #expect(button[0] - content[0] == 380)
    #expect(button[1] - content[1] == 480 - 13 - 32)
    #expect(svg.texts(under: try #require(svg.first("data-id", "ok"))) == ["OK"])
    #expect(svg.texts(under: try #require(svg.first("data-id", "name"))) == ["Name:"])
  }

  static let macWindow = """
    <?xml version="1.0" encoding="UTF-8"?>
    <document type="com.apple.InterfaceBuilder3.Cocoa.XIB" version="3.0" toolsVersion="22505" targetRuntime="MacOSX.Cocoa">
        <objects>
            <customObject id="-2" userLabel="File's Owner"/>
            <customObject id="-1" userLabel="First Responder" customClass="FirstResponder"/>
            <customObject id="-3" userLabel="Application" customClass="NSObject"/>
            <window title="Preferences" allowsToolTipsWhenApplicationIsInactive="NO" id="win">
                <rect key="contentRect" x="196" y="240" width="480" height="480"/>
                <view key="contentView" id="content">
                    <rect key="frame" x="0.0" y="0.0" width="480" height="480"/>
                    <subviews>
                        <button verticalHuggingPriority="750" id="ok">
                            <rect key="frame" x="380" y="13" width="82" height="32"/>
                            <buttonCell key="cell" type="push" title="OK" bezelStyle="rounded" alignment="center" id="okCell">
                                <font key="font" metaFont="system"/>
                            </buttonCell>
                        </button>
                        <textField verticalHuggingPriority="750" id="name">
                            <rect key="frame" x="18" y="440" width="100" height="16"/>
                            <textFieldCell key="cell" lineBreakMode="clipping" title="Name:" id="nameCell">
                                <font key="font" metaFont="system"/>
                            </textFieldCell>
                        </textField>
                    </subviews>
                </view>
            </window>
        </objects>
    </document>
    """

  @Test("CLI-090: a compiled nib is drawn from its own values: the same frames and texts as the XIB it came from")
  func compiledNibs() throws {
    let directory = try makeTemporaryDirectory("keyed-render-nib")
    defer { try? FileManager.default.removeItem(at: directory) }
    let xib = scenarioFolder.appendingPathComponent("TableViewCell.xib")
    let nib = directory.appendingPathComponent("TableViewCell.nib")
    #expect(keyed("compile", xib.path, "-o", nib.path).status == 0)
    let fromXIB = try MarkupTree(try rendered(xib))
    let fromNib = try MarkupTree(try rendered(nib))
    func labels(_ tree: MarkupTree) -> [String] {
      tree.elements.indices.filter { ["label", "button"].contains(tree.elements[$0].attributes["data-kind"] ?? "") }
        .map { index in
          let frame = tree.drawnFrame(tree.elements[index].attributes["data-id"] ?? "") ?? []
          return "\(tree.elements[index].attributes["data-kind"] ?? "") \(frame) \(tree.texts(under: index))"
        }
    }
    #expect(labels(fromNib) == labels(fromXIB))
    #expect(labels(fromXIB).count == 3)
  }

  @Test("CLI-090: a NIBArchive storyboard scene draws its static table's cells and its segmented controls' titles")
  func nibArchiveStaticTable() throws {
    guard let corpus = corpusRoot else {
      print("skipped: ../shared/corpus is absent")
      return
    }
    let nib = corpus.appendingPathComponent(
      "nib/appium-ios-uicatalog/2019/Base.lproj/SegmentedControlViewController.storyboardc/Eil-ie-nN6-view-fLQ-5f-tUh.nib"
    )
    let bytes = try Data(contentsOf: nib)
    #expect(bytes.starts(with: Array("NIBArchive".utf8)))
    let svg = try MarkupTree(try rendered(nib))
    let table = try #require(svg.elements.indices.first { svg.elements[$0].attributes["data-kind"] == "tableView" })
    let cells = svg.elements.indices.filter { svg.elements[$0].attributes["data-kind"] == "tableViewCell" }
    #expect(cells.count == 4)
    #expect(cells.allSatisfy { svg.isInside($0, table) })
    let cellFrames = cells.compactMap { svg.drawnFrame(svg.elements[$0].attributes["data-id"] ?? "") }
    #expect(zip(cellFrames, cellFrames.dropFirst()).allSatisfy { $0[1] + $0[3] <= $1[1] }, "cells overlap")
    let segmented = svg.elements.indices.filter { svg.elements[$0].attributes["data-kind"] == "segmentedControl" }
    #expect(segmented.count == 4)
    #expect(segmented.contains { svg.texts(under: $0) == ["Check", "Search", "Tools"] })
  }

  @Test(
    "CLI-090: an AppKit keyed-archive nib draws its windows with title bars and its buttons' titles from their cells")
  func appKitKeyedArchiveNib() throws {
    guard let corpus = corpusRoot else {
      print("skipped: ../shared/corpus is absent")
      return
    }
    let nib = corpus.appendingPathComponent("nib/avrfuses/ddd4c5c85c/Base.lproj/MainMenu.nib/keyedobjects.nib")
    #expect(try Data(contentsOf: nib).starts(with: Array("bplist00".utf8)))
    let svg = try MarkupTree(try rendered(nib))
    let bars = svg.elements.indices.filter { svg.elements[$0].attributes["data-kind"] == "title-bar" }
    #expect(bars.map { svg.texts(under: $0) } == [["AVRFuses"], ["Preferences"], ["Projects"]])
    let buttons = svg.elements.indices.filter { svg.elements[$0].attributes["data-kind"] == "button" }
    let titles = Set(buttons.flatMap { svg.texts(under: $0) })
    #expect(titles.isSuperset(of: ["Read", "Verify", "Program"]), "\(titles)")
  }

  @Test("CLI-090: every XIB, storyboard and compiled nib of the corpus renders to well-formed SVG and HTML")
  func corpus() throws {
    guard corpusRoot != nil else {
      print("skipped: ../shared/corpus is absent")
      return
    }
    let documents = corpusFiles("xib", extensions: ["xib", "storyboard"])
    // classes.nib and info.nib, in old nib folders, are Interface Builder's notes, not nibs.
    let nibs = corpusFiles("nib", extensions: ["nib", "storyboardc"]).filter {
      !["classes.nib", "info.nib"].contains($0.lastPathComponent)
    }
    #expect(!documents.isEmpty && !nibs.isEmpty)
    for file in documents + nibs {
      let svg = try rendered(file)
      #expect((try? MarkupTree(svg)) != nil, "\(file.lastPathComponent): SVG not well-formed")
      #expect(svg.count > 300, "\(file.lastPathComponent)")
    }
    for file in documents.prefix(6) {
      let html = String(decoding: try rendered(file, as: "html"), as: UTF8.self)
      #expect(html.contains("id=\"objects\"") && html.contains("id=\"connections\""), "\(file.lastPathComponent)")
    }
  }

  @Test("CLI-003: render is listed in the tool's overview, and 'keyed help render' is its --help")
  func helpListing() {
    #expect(keyed("help").output.contains("render      Draw a XIB"))
    #expect(keyed("help", "render").output == keyed("render", "--help").output)
    #expect(keyed("render", "--help").output.contains("USAGE: keyed render FILE -o OUT.svg|OUT.html [--scene ID]"))
  }

  @Test("CLI-050: the demo ends by drawing a scenario XIB with keyed render and saying where the picture is")
  func demoPicture() throws {
    let result = keyed("demo")
    #expect(result.status == 0, "\(result.errors)")
    let last = try #require(result.output.split(separator: "\n").last.map(String.init))
    let prefix = "The picture of the table cell XIB is at "
    #expect(last.hasPrefix(prefix))
    let picture = URL(fileURLWithPath: String(last.dropFirst(prefix.count)))
    let svg = try MarkupTree(try Data(contentsOf: picture))
    #expect(svg.texts(under: try #require(svg.first("data-id", "tvc-bt-001"))) == ["Button"])
  }

  @Test("CLI-090: random byte changes to a compiled nib end in a drawing or exit 65, never a crash")
  func mutatedNibs() throws {
    let directory = try makeTemporaryDirectory("keyed-render-mutations")
    defer { try? FileManager.default.removeItem(at: directory) }
    let nib = directory.appendingPathComponent("TableViewCell.nib")
    #expect(
      keyed("compile", scenarioFolder.appendingPathComponent("TableViewCell.xib").path, "-o", nib.path).status == 0)
    let original = [UInt8](try Data(contentsOf: nib))
    var random = SplitMix64(seed: 0x5EED_0090)
    let mutated = directory.appendingPathComponent("Mutated.nib")
    for round in 0..<48 {
      var bytes = original
      for _ in 0..<(1 + random.below(4)) { bytes[random.below(bytes.count)] = UInt8(truncatingIfNeeded: random.next()) }
      try Data(bytes).write(to: mutated)
      let result = keyed("render", mutated.path, "-o", directory.appendingPathComponent("x.svg").path)
      #expect(result.status == 0 || result.status == 65, "round \(round): \(result.errors)")
    }
  }

  @Test("CLI-002: render refuses bad arguments with 64, bad input with 65 naming the file, never crashing")
  func errors() throws {
    let directory = try makeTemporaryDirectory("keyed-render-errors")
    defer { try? FileManager.default.removeItem(at: directory) }
    let xib = scenarioFolder.appendingPathComponent("PlainView.xib")
    #expect(keyed("render", xib.path).status == 64)
    #expect(keyed("render", xib.path, "-o", directory.appendingPathComponent("x.png").path).status == 64)
    #expect(keyed("render", "-o", directory.appendingPathComponent("x.svg").path).status == 64)
    #expect(keyed("render", directory.appendingPathComponent("missing.xib").path, "-o", "x.svg").status == 1)
    let broken = directory.appendingPathComponent("Broken.xib")
    let bytes = try Data(contentsOf: xib)
    // Every truncation of the document ends in an error or a drawing, never a crash.
    for length in stride(from: 40, to: bytes.count, by: 97) {
      try bytes.prefix(length).write(to: broken)
      let result = keyed("render", broken.path, "-o", directory.appendingPathComponent("x.svg").path)
      #expect(result.status == 65 || result.status == 0, "\(length): \(result.errors)")
      if result.status == 65 { #expect(result.errors.contains("Broken.xib")) }
    }
  }
}
