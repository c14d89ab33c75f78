import Foundation

/// `cell-nib`: a table-cell XIB of about 50 objects (labels, image views, buttons with actions, constraints),
/// instantiated N times.
struct CellNibInput: BenchmarkInput {
  var xib: Data
  var repetitions: Int

  static func generate(count: Int) -> CellNibInput {
    var body = ""
    var constraints = ""
    for row in 0..<8 {
      body += """
                    <label text="Row \(row)" id="lb\(row)">
                        <rect key="frame" x="16" y="\(row * 20)" width="200" height="20"/>
                        <fontDescription key="fontDescription" type="system" pointSize="14"/>
                        <color key="textColor" red="0.1" green="0.1" blue="0.1" alpha="1" colorSpace="custom" customColorSpace="sRGB"/>
                    </label>
                    <imageView contentMode="scaleAspectFit" image="icon\(row)" id="iv\(row)">
                        <rect key="frame" x="220" y="\(row * 20)" width="20" height="20"/>
                    </imageView>
                    <button id="bt\(row)">
                        <rect key="frame" x="250" y="\(row * 20)" width="60" height="20"/>
                        <state key="normal" title="Go \(row)"/>
                        <connections>
                            <action selector="tapped:" destination="-1" eventType="touchUpInside" id="ac\(row)"/>
                        </connections>
                    </button>

        """
      constraints += """
                    <constraint firstItem="lb\(row)" firstAttribute="leading" secondItem="cv" secondAttribute="leading" constant="16" id="c\(row)a"/>
                    <constraint firstItem="bt\(row)" firstAttribute="trailing" secondItem="cv" secondAttribute="trailing" constant="-10" id="c\(row)b"/>
                    <constraint firstItem="iv\(row)" firstAttribute="width" constant="20" id="c\(row)c"/>

        """
    }
    let text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0" targetRuntime="iOS.CocoaTouch">
          <objects>
              <placeholder placeholderIdentifier="IBFilesOwner" id="-1" userLabel="File's Owner"/>
              <placeholder placeholderIdentifier="IBFirstResponder" id="-2" customClass="UIResponder"/>
              <tableViewCell contentMode="scaleToFill" reuseIdentifier="Cell" id="cell">
                  <rect key="frame" x="0.0" y="0.0" width="320" height="160"/>
                  <tableViewCellContentView key="contentView" id="cv">
                      <rect key="frame" x="0.0" y="0.0" width="320" height="160"/>
                      <subviews>
      \(body)
                      </subviews>
                      <constraints>
      \(constraints)
                      </constraints>
                  </tableViewCellContentView>
              </tableViewCell>
          </objects>
      </document>
      """
    return CellNibInput(xib: Data(text.utf8), repetitions: count)
  }

  /// Objects per instantiation: the cell, its content view, 8 × (label, image view, button) and 24 constraints.
  var objectCount: Int { 50 }
}
