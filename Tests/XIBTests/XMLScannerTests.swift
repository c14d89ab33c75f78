import ArchiveCoding
import Testing
import XIB

@Suite("XMLScanner")
struct XMLScannerTests {
  private func parse(_ text: String) throws -> XMLElementNode {
    try XMLScanner().parse(Array(text.utf8), fileName: "Test.xib")
  }

  private func parse(bytes: [UInt8]) throws -> XMLElementNode {
    try XMLScanner().parse(bytes, fileName: "Test.xib")
  }

  // MARK: - What is read

  @Test("XIB-100: elements keep their name, attributes in order, children, text and position")
  func treeShape() throws {
    let root = try parse(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <document z="1" a="2" m="3">
          <objects>
              <view id="v1"/>
              <label id="l1">Hello</label>
          </objects>
      </document>
      """)
    #expect(root.name == "document")
    #expect(root.attributes.map(\.name) == ["z", "a", "m"])
    #expect(root[attribute: "a"] == "2")
    #expect(root[attribute: "missing"] == nil)
    #expect(root.text == "")
    #expect((root.line, root.column) == (2, 1))
    let objects = try #require(root.children.first)
    #expect(objects.children.map(\.name) == ["view", "label"])
    #expect((objects.children[0].line, objects.children[0].column) == (4, 9))
    #expect((objects.children[1].line, objects.children[1].column) == (5, 9))
    #expect(objects.children[1].text == "Hello")
    #expect(root.elementCount == 4)
    #expect(objects.children[0].byteOffset == 90)
  }

  @Test("XIB-105: the five predefined entities and numeric character references are replaced")
  func entities() throws {
    let root = try parse(#"<a v="&lt;&gt;&amp;&quot;&apos;|&#65;&#x42;&#x1F600;">&lt;b&gt; &amp; &#233;&#xe9;</a>"#)
    #expect(root[attribute: "v"] == "<>&\"'|AB😀")
    #expect(root.text == "<b> & éé")
  }

  @Test("XIB-107: CDATA sections are character data taken verbatim")
  func cdata() throws {
    let root = try parse("<a>x<![CDATA[<b>&amp;]]]]>y</a>")
    #expect(root.text == "x<b>&amp;]]y")
    #expect(root.children.isEmpty)
  }

  @Test("XIB-104: comments and processing instructions are skipped everywhere outside tags")
  func commentsAndProcessingInstructions() throws {
    let root = try parse(
      "<!-- before --><?pi data?>\n<a><!-- inside <b> --><?x y?>t<!---->u</a><!-- after --><?end?>\n")
    #expect(root.name == "a")
    #expect(root.children.isEmpty)
    #expect(root.text == "tu")
  }

  @Test("XIB-104: a document type declaration, internal subset included, is skipped")
  func documentType() throws {
    let root = try parse(
      """
      <?xml version="1.0"?>
      <!DOCTYPE document [ <!ENTITY x "a > b"> <!-- ] > --> ]>
      <document/>
      """)
    #expect(root.name == "document")
    #expect(root.line == 3)
  }

  @Test("XIB-106: attribute values take either quote, keep the other one, and normalize white space")
  func attributeQuoting() throws {
    let root = try parse("<a one='say \"hi\"' two=\"it's\" three=\"x\ny\tz\r\nw\" four='&#10;'/>")
    #expect(root[attribute: "one"] == "say \"hi\"")
    #expect(root[attribute: "two"] == "it's")
    #expect(root[attribute: "three"] == "x y z w")
    #expect(root[attribute: "four"] == "\n")
  }

  @Test("XIB-107: line ends in character data become line feeds; leaf text is kept exactly")
  func lineEnds() throws {
    let root = try parse("<a><b>one\r\ntwo\rthree</b><c>  </c><d/></a>")
    #expect(root.children[0].text == "one\ntwo\nthree")
    #expect(root.children[1].text == "  ")
    #expect(root.children[2].text == "")
  }

  @Test("XIB-107: in an element with children, white-space-only runs are dropped and other runs joined")
  func mixedContent() throws {
    let root = try parse("<a>\n  <b/>\n  x <c/> y\n  <d/>\n</a>")
    #expect(root.text == "\n  x  y\n  ")
    #expect(root.children.map(\.name) == ["b", "c", "d"])
  }

  @Test("XIB-121: columns count Unicode scalars; multi-byte UTF-8 is read whole")
  func multiByte() throws {
    let root = try parse("<a>\n  <b t=\"日本語\"/>é<c>✓ 😀</c>\n</a>")
    #expect(root.children[0][attribute: "t"] == "日本語")
    #expect(root.children[1].text == "✓ 😀")
    // "  <b t="日本語"/>é" is 15 scalars (22 bytes) before <c>.
    #expect((root.children[1].line, root.children[1].column) == (2, 16))
  }

  @Test("XIB-121: on one long line every element's column counts from the line's start, an error's too")
  func columnsOnOneLongLine() throws {
    // 20,000 elements on one line, with a multi-byte character in each, then a second line: each column must count
    // from the start of its line (columns are worked out from the previous element's, not by recounting the line).
    let count = 20_000
    let element = "<b t=\"é\"/>"  // 11 bytes, 10 scalars
    let root = try parse("<a>" + String(repeating: element, count: count) + "\n  <c/></a>")
    #expect(root.children.count == count + 1)
    for index in [0, 1, 999, count - 1] {
      #expect((root.children[index].line, root.children[index].column) == (1, 4 + 10 * index))
    }
    #expect((root.children[count].line, root.children[count].column) == (2, 3))
    // An error after them is located the same way.
    do {
      _ = try parse("<a>" + String(repeating: element, count: count) + "<b t=1/></a>")
      Issue.record("an unquoted attribute value was accepted")
    } catch let error as ArchiveError {
      #expect(error.location.line == 1)
      #expect(error.location.column == 4 + 10 * count + 5, "\(error)")
    }
  }

  @Test("XIB-102: a UTF-8 byte order mark is skipped and is not a column")
  func byteOrderMark() throws {
    let root = try parse(bytes: [0xEF, 0xBB, 0xBF] + Array("<a><b/></a>".utf8))
    #expect(root.name == "a")
    #expect((root.line, root.column) == (1, 1))
    #expect((root.children[0].line, root.children[0].column) == (1, 4))
  }

  @Test("XIB-103: the XML declaration accepts UTF-8 and US-ASCII in any case, and standalone")
  func declaration() throws {
    for encoding in ["UTF-8", "utf-8", "utf8", "US-ASCII"] {
      let root = try parse("<?xml version='1.0' encoding='\(encoding)' standalone='no'?><a/>")
      #expect(root.name == "a")
    }
  }

  @Test("XIB-100: names may hold namespace prefixes, digits, dots and hyphens")
  func names() throws {
    let root = try parse("<ns:a-b.c_1 xml:lang=\"en\" data-x.y=\"1\"/>")
    #expect(root.name == "ns:a-b.c_1")
    #expect(root.attributes.map(\.name) == ["xml:lang", "data-x.y"])
  }

  // MARK: - Errors

  @Test(
    "XIB-108, XIB-120, XIB-123: a mismatched end tag names both tags, where the open one started, with the source line")
  func mismatchedTag() {
    Diagnostics.expectScanError(
      "<a>\n  <b>\n  </c>\n</a>",
      """
      Test.xib:3:3: error: mismatched end tag: expected </b> (opened at 2:3), found </c>
        </c>
        ^
      """)
  }

  @Test("XIB-108: input that ends inside an element names the unclosed element")
  func unclosedElement() {
    Diagnostics.expectScanError(
      "<a>\n<b>text",
      """
      Test.xib:2:8: error: unexpected end of input: element <b> opened at 2:1 is not closed
      <b>text
             ^
      """)
  }

  @Test("XIB-106: duplicate attributes are an error at the second one")
  func duplicateAttribute() {
    Diagnostics.expectScanError(
      "<a x='1' x=\"2\"/>",
      """
      Test.xib:1:10: error: duplicate attribute "x" on <a>
      <a x='1' x="2"/>
               ^
      """)
  }

  @Test("XIB-106: '<' inside an attribute value is an error; tabs in the shown line become spaces")
  func lessThanInAttribute() {
    Diagnostics.expectScanError(
      "<a>\n\t<b attr=\"x<y\"/></a>",
      """
      Test.xib:2:12: error: '<' is not allowed in an attribute value
       <b attr="x<y"/></a>
                 ^
      """)
  }

  @Test("XIB-106: attributes must be separated by white space and quoted")
  func attributeSyntax() {
    Diagnostics.expectScanError(
      "<a x=\"1\"y=\"2\"/>",
      """
      Test.xib:1:9: error: expected white space, '>' or '/>' in the start tag of <a>
      <a x="1"y="2"/>
              ^
      """)
    Diagnostics.expectScanError(
      "<a x=1/>",
      """
      Test.xib:1:6: error: expected a quoted attribute value, found '1'
      <a x=1/>
           ^
      """)
    Diagnostics.expectScanError(
      "<a x=\"1/>",
      """
      Test.xib:1:6: error: unterminated attribute value
      <a x="1/>
           ^
      """)
  }

  @Test("XIB-105: undefined entities, bare ampersands and bad character references are errors")
  func badReferences() {
    Diagnostics.expectScanError(
      "<a>&nbsp;</a>",
      """
      Test.xib:1:4: error: undefined entity &nbsp;
      <a>&nbsp;</a>
         ^
      """)
    Diagnostics.expectScanError(
      "<a>fish & chips</a>",
      """
      Test.xib:1:9: error: '&' must start a reference such as &amp;
      <a>fish & chips</a>
              ^
      """)
    Diagnostics.expectScanError(
      "<a v=\"&#0;\"/>",
      """
      Test.xib:1:7: error: character reference to a character not allowed in XML (0)
      <a v="&#0;"/>
            ^
      """)
    Diagnostics.expectScanError(
      "<a>&#xD800;</a>",
      """
      Test.xib:1:4: error: character reference to a character not allowed in XML (55296)
      <a>&#xD800;</a>
         ^
      """)
    Diagnostics.expectScanError(
      "<a>&#99999999999;</a>",
      """
      Test.xib:1:4: error: character reference out of range
      <a>&#99999999999;</a>
         ^
      """)
  }

  @Test("XIB-104: '--' inside a comment and unterminated comments are errors")
  func badComments() {
    Diagnostics.expectScanError(
      "<a><!-- x -- y --></a>",
      """
      Test.xib:1:11: error: '--' is not allowed inside a comment
      <a><!-- x -- y --></a>
                ^
      """)
    Diagnostics.expectScanError(
      "<a><!-- x </a>",
      """
      Test.xib:1:4: error: unterminated comment
      <a><!-- x </a>
         ^
      """)
  }

  @Test("XIB-107: ']]>' and control characters in character data are errors")
  func badCharacterData() {
    Diagnostics.expectScanError(
      "<a>x]]>y</a>",
      """
      Test.xib:1:5: error: ']]>' is not allowed in character data
      <a>x]]>y</a>
          ^
      """)
    Diagnostics.expectScanError(
      "<a>x\u{01}</a>",
      "Test.xib:1:5: error: invalid character U+0001 in character data\n<a>x\u{01}</a>\n    ^")
  }

  @Test("XIB-108: one root element, nothing but comments and white space around it")
  func rootRules() {
    Diagnostics.expectScanError(
      "<a/><b/>",
      """
      Test.xib:1:5: error: a document has one root element; found a second one
      <a/><b/>
          ^
      """)
    Diagnostics.expectScanError(
      "<a/>trailing",
      """
      Test.xib:1:5: error: content is not allowed after the root element
      <a/>trailing
          ^
      """)
    Diagnostics.expectScanError(
      "hello <a/>",
      """
      Test.xib:1:1: error: text is not allowed before the root element
      hello <a/>
      ^
      """)
    Diagnostics.expectScanError(
      "<!-- only a comment -->\n",
      """
      Test.xib:2:1: error: the document has no root element

      ^
      """)
  }

  @Test("XIB-103: the XML declaration must come first and name a supported encoding")
  func declarationErrors() {
    Diagnostics.expectScanError(
      "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a/>",
      """
      Test.xib:1:21: error: encoding "ISO-8859-1" is not supported; the document must be UTF-8
      <?xml version="1.0" encoding="ISO-8859-1"?><a/>
                          ^
      """, code: .unsupportedFormat)
    Diagnostics.expectScanError(
      "<a/>\n<?xml version=\"1.0\"?>",
      """
      Test.xib:2:1: error: the XML declaration is allowed only at the very start of the document
      <?xml version="1.0"?>
      ^
      """)
  }

  @Test("XIB-102: UTF-16 input is rejected as unsupported")
  func utf16() {
    let thrown = Diagnostics.error {
      _ = try XMLScanner().parse([0xFF, 0xFE, 0x3C, 0x00, 0x61, 0x00], fileName: "Test.xib")
    }
    #expect(thrown?.code == .unsupportedFormat)
    #expect(thrown?.message == "UTF-16 input is not supported; the document must be UTF-8")
  }

  @Test("XIB-109: invalid UTF-8 is an error at the first bad byte")
  func invalidUTF8() {
    // "<a>ok" then 0xC3 0x28 (a lead byte followed by a non-continuation byte).
    let thrown = Diagnostics.error {
      _ = try XMLScanner().parse(Array("<a>ok".utf8) + [0xC3, 0x28] + Array("</a>".utf8), fileName: "Test.xib")
    }
    #expect(thrown?.code == .corruptData)
    #expect(thrown?.message == "invalid UTF-8")
    #expect(thrown?.location.line == 1)
    #expect(thrown?.location.column == 6)
    // An overlong encoding of '/' (0xC0 0xAF) in an attribute value.
    let overlong = Diagnostics.error {
      _ = try XMLScanner().parse(Array("<a v=\"".utf8) + [0xC0, 0xAF] + Array("\"/>".utf8))
    }
    #expect(overlong?.location.column == 7)
  }

  @Test("XIB-122: no source line is shown when the caret would be past column 1000")
  func longLine() {
    let text = "<a>" + String(repeating: "x", count: 2000) + "&bad;</a>"
    let thrown = Diagnostics.error { _ = try XMLScanner().parse(Array(text.utf8), fileName: "Test.xib") }
    #expect(thrown?.location.column == 2004)
    #expect(thrown?.sourceLine == nil)
    #expect(thrown?.description == "Test.xib:1:2004: error: undefined entity &bad;")
  }

  // MARK: - Limits

  @Test("XIB-110: nesting deeper than the depth limit is refused")
  func depthLimit() {
    let text = String(repeating: "<a>", count: 11) + String(repeating: "</a>", count: 11)
    let thrown = Diagnostics.error {
      _ = try XMLScanner(limits: .init(maximumDepth: 10)).parse(Array(text.utf8), fileName: "Deep.xib")
    }
    #expect(thrown?.code == .limitExceeded)
    #expect(thrown?.message == "elements are nested deeper than 10 levels")
    #expect(thrown?.location.column == 31)
    let fits = String(repeating: "<a>", count: 10) + String(repeating: "</a>", count: 10)
    #expect(throws: Never.self) { try XMLScanner(limits: .init(maximumDepth: 10)).parse(Array(fits.utf8)) }
  }

  @Test("XIB-110: the default depth limit stops a deeply nested document without exhausting the stack")
  func defaultDepthLimit() {
    let text = String(repeating: "<a>", count: 100_000)
    let thrown = Diagnostics.error { _ = try XMLScanner().parse(Array(text.utf8)) }
    #expect(thrown?.code == .limitExceeded)
    #expect(thrown?.message == "elements are nested deeper than 256 levels")
  }

  @Test("XIB-110: inputs past the size limit are refused before scanning")
  func sizeLimit() {
    let thrown = Diagnostics.error {
      _ = try XMLScanner(limits: .init(maximumBytes: 10)).parse(Array("<a>0123456789</a>".utf8), fileName: "Big.xib")
    }
    #expect(thrown?.code == .limitExceeded)
    #expect(thrown?.description == "Big.xib: input is 17 bytes, more than the limit of 10")
  }

  @Test("XIB-110: attribute and element counts are limited")
  func countLimits() {
    let attributes = Diagnostics.error {
      _ = try XMLScanner(limits: .init(maximumAttributesPerElement: 2)).parse(Array("<a x='1' y='2' z='3'/>".utf8))
    }
    #expect(attributes?.code == .limitExceeded)
    #expect(attributes?.message == "element <a> has more than 2 attributes")
    let elements = Diagnostics.error {
      _ = try XMLScanner(limits: .init(maximumElements: 3)).parse(Array("<a><b/><c/><d/></a>".utf8))
    }
    #expect(elements?.code == .limitExceeded)
    #expect(elements?.message == "more than 3 elements")
  }
}
