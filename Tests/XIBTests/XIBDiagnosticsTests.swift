import ArchiveCoding
import Testing
import XIB

/// Broken documents and the exact diagnostics they produce.
@Suite("XIB diagnostics")
struct XIBDiagnosticsTests {
  /// A small iOS XIB whose view holds `body` (lines 6 onwards).
  private func iOSXIB(_ body: String) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0" targetRuntime="iOS.CocoaTouch">
        <objects>
            <placeholder placeholderIdentifier="IBFilesOwner" id="-1"/>
            <view contentMode="scaleToFill" id="v1">
    \(body)
            </view>
        </objects>
    </document>
    """
  }

  @Test("XIB-120: malformed XML in a XIB is reported in compiler style with the source line and a caret")
  func malformedXML() {
    Diagnostics.expectDocumentError(
      iOSXIB(
        """
                    <subviews>
                        <label id="l1">
                    </subviews>
        """),
      """
      OmniBar.xib:8:13: error: mismatched end tag: expected </label> (opened at 7:17), found </subviews>
                  </subviews>
                  ^
      """, fileName: "OmniBar.xib")
  }

  @Test("XIB-054, XIB-123: an outlet to an id that does not exist is an error at the outlet")
  func missingOutletDestination() {
    Diagnostics.expectDocumentError(
      iOSXIB(
        """
                    <connections>
                        <outlet property="titleLabel" destination="nope" id="o1"/>
                    </connections>
        """),
      """
      Test.xib:7:17: error: outlet "titleLabel" refers to unknown object id "nope"
                      <outlet property="titleLabel" destination="nope" id="o1"/>
                      ^
      """)
  }

  @Test("XIB-054: actions, segues and outlet collections to missing ids are errors too")
  func missingOtherDestinations() {
    Diagnostics.expectDocumentError(
      iOSXIB(
        """
                    <connections>
                        <action selector="go:" destination="ghost" eventType="touchUpInside" id="a1"/>
                    </connections>
        """),
      """
      Test.xib:7:17: error: action "go:" targets unknown object id "ghost"
                      <action selector="go:" destination="ghost" eventType="touchUpInside" id="a1"/>
                      ^
      """)
    Diagnostics.expectDocumentError(
      iOSXIB(
        """
                    <connections>
                        <outletCollection property="rows" destination="r9" id="c1"/>
                    </connections>
        """),
      """
      Test.xib:7:17: error: outlet collection "rows" refers to unknown object id "r9"
                      <outletCollection property="rows" destination="r9" id="c1"/>
                      ^
      """)
    Diagnostics.expectDocumentError(
      iOSXIB(
        """
                    <connections>
                        <segue destination="elsewhere" kind="show" id="s1"/>
                    </connections>
        """),
      """
      Test.xib:7:17: error: segue refers to unknown object id "elsewhere"
                      <segue destination="elsewhere" kind="show" id="s1"/>
                      ^
      """)
  }

  @Test("XIB-050: a forward reference resolves; only a truly missing id fails, and the first one in order")
  func firstMissingReferenceWins() {
    Diagnostics.expectDocumentError(
      iOSXIB(
        """
                    <connections>
                        <outlet property="later" destination="v2" id="o1"/>
                        <outlet property="first" destination="x1" id="o2"/>
                        <outlet property="second" destination="x2" id="o3"/>
                    </connections>
                </view>
                <view id="v2">
        """),
      """
      Test.xib:8:17: error: outlet "first" refers to unknown object id "x1"
                      <outlet property="first" destination="x1" id="o2"/>
                      ^
      """)
  }

  @Test("XIB-053: an unknown connection kind is an error; <binding> is known only on macOS")
  func unknownConnectionKind() {
    Diagnostics.expectDocumentError(
      iOSXIB(
        """
                    <connections>
                        <binding destination="-1" name="value" keyPath="x" id="b1"/>
                    </connections>
        """),
      """
      OmniBar.xib:7:17: error: unknown connection kind "binding"
                      <binding destination="-1" name="value" keyPath="x" id="b1"/>
                      ^
      """, fileName: "OmniBar.xib")
    Diagnostics.expectDocumentError(
      iOSXIB(
        """
                    <connections>
                        <wire from="a" to="b"/>
                    </connections>
        """),
      """
      Test.xib:7:17: error: unknown connection kind "wire"
                      <wire from="a" to="b"/>
                      ^
      """)
  }

  @Test("XIB-051: connections without their required attributes are errors")
  func missingAttributes() {
    Diagnostics.expectDocumentError(
      iOSXIB(
        """
                    <connections>
                        <outlet destination="-1" id="o1"/>
                    </connections>
        """),
      """
      Test.xib:7:17: error: <outlet> needs a "property" attribute
                      <outlet destination="-1" id="o1"/>
                      ^
      """)
    Diagnostics.expectDocumentError(
      iOSXIB(
        """
                    <connections>
                        <action destination="-1" id="a1"/>
                    </connections>
        """),
      """
      Test.xib:7:17: error: <action> needs a "selector" attribute
                      <action destination="-1" id="a1"/>
                      ^
      """)
  }

  @Test("XIB-052: an action without a target is a nil-targeted action, not an error")
  func nilTargetedAction() throws {
    let document = try XIBDocument(
      parsing: Array(
        iOSXIB(
          """
                      <connections>
                          <action selector="copy:" id="a1"/>
                      </connections>
          """
        ).utf8))
    #expect(document.connections.first?.destinationID == nil)
    #expect(document.statistics.actions == 1)
  }

  @Test("XIB-025: a duplicate object id is an error naming where the id was first used")
  func duplicateID() {
    Diagnostics.expectDocumentError(
      iOSXIB(
        """
                    <subviews>
                        <label id="v1"/>
                    </subviews>
        """),
      """
      Test.xib:7:17: error: duplicate object id "v1" (first used at 5:9)
                      <label id="v1"/>
                      ^
      """)
  }

  @Test("XIB-055: <connections> outside of any object is an error")
  func connectionsOutsideObjects() {
    Diagnostics.expectDocumentError(
      """
      <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" targetRuntime="iOS.CocoaTouch">
          <objects>
              <connections/>
          </objects>
      </document>
      """,
      """
      Test.xib:3:9: error: <connections> outside of any object: the connections have no source
              <connections/>
              ^
      """)
  }

  @Test("XIB-043, XIB-124: an unknown element is a warning, once per name, and reading goes on")
  func unknownElementWarning() throws {
    let document = try XIBDocument(
      parsing: Array(
        iOSXIB(
          """
                      <subviews>
                          <hologram id="h1" intensity="3"/>
                          <hologram id="h2"/>
                      </subviews>
                      <sparkle key="glow" amount="2"/>
          """
        ).utf8), fileName: "Gadget.xib")
    #expect(
      document.warnings.map(\.description) == [
        "Gadget.xib:7:17: warning: unknown element <hologram>",
        "Gadget.xib:10:13: warning: unknown element <sparkle>",
      ])
    #expect(document.object(withID: "h1")?.className == "UIHologram")
    #expect(document.object(withID: "h2")?.parentID == "v1")
    #expect(document.object(withID: "v1")?.value(forKey: "glow")?.elementValue?.attribute("amount") == "2")
    #expect(document.statistics.objects == 3)
  }

  @Test("XIB-056: dangling constraint items and initial controller are warnings")
  func danglingReferenceWarnings() throws {
    let document = try XIBDocument(
      parsing: Array(
        """
        <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" targetRuntime="iOS.CocoaTouch" initialViewController="gone">
            <scenes>
                <scene sceneID="s">
                    <objects>
                        <viewController id="vc" sceneMemberID="viewController">
                            <view key="view" id="v">
                                <constraints>
                                    <constraint firstItem="missing" firstAttribute="top" secondItem="v" secondAttribute="top" id="k"/>
                                </constraints>
                            </view>
                        </viewController>
                    </objects>
                </scene>
            </scenes>
        </document>
        """.utf8), fileName: "Main.storyboard")
    #expect(
      document.warnings.map(\.description) == [
        "Main.storyboard:8:29: warning: constraint firstItem refers to unknown object id \"missing\"",
        "Main.storyboard:1:1: warning: initialViewController refers to unknown object id \"gone\"",
      ])
  }

  @Test("XIB-001: a well-formed XML file that is not an Interface Builder document is unsupported")
  func notADocument() {
    Diagnostics.expectDocumentError(
      "<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><dict/></plist>",
      """
      Info.plist:2:1: error: not an Interface Builder document: the root element is <plist>
      <plist version="1.0"><dict/></plist>
      ^
      """, code: .unsupportedFormat, fileName: "Info.plist")
  }

  @Test("XIB-011: an unsupported target runtime is reported at the root element")
  func unsupportedRuntime() {
    Diagnostics.expectDocumentError(
      "<document type=\"com.apple.InterfaceBuilder.WatchKit.Storyboard\" targetRuntime=\"watchKit\"/>",
      """
      Watch.storyboard:1:1: error: target runtime "watchKit" is not supported (iOS, tvOS and macOS are)
      <document type="com.apple.InterfaceBuilder.WatchKit.Storyboard" targetRuntime="watchKit"/>
      ^
      """, code: .unsupportedFormat, fileName: "Watch.storyboard")
  }

  @Test("XIB-076: an archive connection of an unknown class, or to an unknown object, is an error")
  func archiveConnectionErrors() {
    let unknownClass = Fixtures.iOSArchive.replacingOccurrences(
      of: "IBCocoaTouchOutletConnection", with: "IBCocoaTouchTeleportConnection")
    Diagnostics.expectDocumentError(
      unknownClass,
      "Old.xib:36:6: error: unknown connection kind \"IBCocoaTouchTeleportConnection\"\n"
        + "     <object class=\"IBCocoaTouchTeleportConnection\" key=\"connection\">\n     ^",
      fileName: "Old.xib")
    let unknownObject = Fixtures.iOSArchive.replacingOccurrences(
      of: "<reference key=\"destination\" ref=\"103\"/>", with: "<reference key=\"destination\" ref=\"999\"/>")
    Diagnostics.expectDocumentError(
      unknownObject,
      "Old.xib:39:7: error: connection destination refers to unknown archived object \"999\"\n"
        + "      <reference key=\"destination\" ref=\"999\"/>\n      ^",
      fileName: "Old.xib")
  }

  @Test("XIB-070: an archive without its object records is corrupt")
  func archiveWithoutRecords() {
    Diagnostics.expectDocumentError(
      """
      <archive type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="7.10">
        <data>
          <object class="NSMutableArray" key="IBDocument.RootObjects" id="1"/>
          <object class="IBObjectContainer" key="IBDocument.Objects"/>
        </data>
      </archive>
      """,
      """
      Test.xib:4:5: error: the archive has no objectRecords.orderedObjects
          <object class="IBObjectContainer" key="IBDocument.Objects"/>
          ^
      """)
  }
}

extension XIBDiagnosticsTests {
  @Test("XIB-120: a file that cannot be read is a fileIO error naming the path")
  func unreadableFile() {
    let thrown = Diagnostics.error { _ = try XIBDocument(contentsOfFile: "/nonexistent/Missing.xib") }
    #expect(thrown?.code == .fileIO)
    #expect(thrown?.description == "/nonexistent/Missing.xib: cannot read the file")
  }
}
