/// Generates a large XIB-like document with counts known by construction, for the scanner's timing comparison and
/// for checking the model on a big input.
enum SyntheticXIB {
  /// What the generated document contains.
  struct Expected {
    var objects = 0
    var outlets = 0
    var actions = 0
  }

  /// A document of roughly `targetBytes` bytes: one root view holding `cards` card views, each with a label, a
  /// button, two constraints, a runtime attribute, escaped and non-ASCII text, an outlet and an action.
  static func make(targetBytes: Int) -> (bytes: [UInt8], expected: Expected) {
    var text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0" toolsVersion="23504" \
      targetRuntime="iOS.CocoaTouch" propertyAccessControl="none" useAutolayout="YES">
          <dependencies>
              <deployment identifier="iOS"/>
          </dependencies>
          <objects>
              <placeholder placeholderIdentifier="IBFilesOwner" id="-1" userLabel="File's Owner"/>
              <placeholder placeholderIdentifier="IBFirstResponder" id="-2" customClass="UIResponder"/>
              <view contentMode="scaleToFill" id="root" customClass="Board" customModule="App">
                  <rect key="frame" x="0.0" y="0.0" width="414" height="896"/>
                  <subviews>

      """
    var expected = Expected(objects: 1)
    var card = 0
    var connections = ""
    while text.utf8.count < targetBytes {
      let id = "c\(card)"
      text += """
                        <!-- card \(card) -->
                        <view contentMode="scaleToFill" translatesAutoresizingMaskIntoConstraints="NO" id="\(id)" \
        userLabel='Card "\(card)"'>
                            <rect key="frame" x="\(card % 7)" y="\(card * 3)" width="320" height="80.5"/>
                            <color key="backgroundColor" red="0.25" green="0.5" blue="0.75" alpha="1" \
        colorSpace="custom" customColorSpace="sRGB"/>
                            <subviews>
                                <label opaque="NO" text="Caf&#233; &amp; cr&#xE8;me &lt;\(card)&gt;" \
        textAlignment="natural" lineBreakMode="tailTruncation" id="\(id)l">
                                    <rect key="frame" x="8" y="8" width="200" height="21"/>
                                    <fontDescription key="fontDescription" type="system" pointSize="17"/>
                                    <nil key="highlightedColor"/>
                                </label>
                                <button opaque="NO" contentMode="scaleToFill" buttonType="system" id="\(id)b">
                                    <state key="normal" title="Tap ✓ \(card)"/>
                                    <connections>
                                        <action selector="tap:" destination="-1" eventType="touchUpInside" id="\(id)a"/>
                                    </connections>
                                </button>
                            </subviews>
                            <constraints>
                                <constraint firstAttribute="height" constant="80" id="\(id)h"/>
                                <constraint firstItem="\(id)l" firstAttribute="leading" secondItem="\(id)" \
        secondAttribute="leading" constant="8" id="\(id)k"/>
                            </constraints>
                            <userDefinedRuntimeAttributes>
                                <userDefinedRuntimeAttribute type="number" keyPath="layer.cornerRadius">
                                    <real key="value" value="8"/>
                                </userDefinedRuntimeAttribute>
                            </userDefinedRuntimeAttributes>
                            <string key="accessibilityHint">Line one
        line two &amp; <![CDATA[<raw>]]></string>
                        </view>

        """
      connections += "                <outlet property=\"card\(card)\" destination=\"\(id)\" id=\"\(id)o\"/>\n"
      expected.objects += 5
      expected.outlets += 1
      expected.actions += 1
      card += 1
    }
    text += """
                      </subviews>
                      <connections>
      \(connections)                </connections>
                  </view>
              </objects>
          </document>

      """
    return (Array(text.utf8), expected)
  }
}
