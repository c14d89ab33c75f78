/// Hand-written Interface Builder documents used by the model and diagnostics tests. Line numbers matter to the
/// diagnostics tests: keep each fixture's layout as it is.
enum Fixtures {
  /// An iOS XIB: File's Owner with an outlet to a view defined later (a forward reference), a custom view with a
  /// button sending an action to the owner, constraints, keyed values of every kind, runtime attributes, an
  /// outlet collection and a second top-level object.
  static let iOSCard = """
    <?xml version="1.0" encoding="UTF-8"?>
    <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0" toolsVersion="23504" targetRuntime="iOS.CocoaTouch" propertyAccessControl="none" useAutolayout="YES">
        <device id="retina6_1" orientation="portrait" appearance="light"/>
        <dependencies>
            <deployment identifier="iOS"/>
        </dependencies>
        <objects>
            <placeholder placeholderIdentifier="IBFilesOwner" id="-1" userLabel="File's Owner" customClass="CardOwner" customModule="App" customModuleProvider="target">
                <connections>
                    <outlet property="card" destination="c1" id="o1"/>
                    <outletCollection property="buttons" destination="b1" collectionClass="NSMutableArray" id="oc1"/>
                </connections>
            </placeholder>
            <placeholder placeholderIdentifier="IBFirstResponder" id="-2" customClass="UIResponder"/>
            <placeholder placeholderIdentifier="ThemeProvider" id="ext"/>
            <view contentMode="scaleToFill" id="c1" customClass="CardView" customModule="App">
                <rect key="frame" x="0.0" y="0.0" width="320" height="80"/>
                <autoresizingMask key="autoresizingMask" flexibleMaxX="YES" flexibleMaxY="YES"/>
                <subviews>
                    <button opaque="NO" translatesAutoresizingMaskIntoConstraints="NO" id="b1">
                        <state key="normal" title="OK &amp; go">
                            <color key="titleColor" systemColor="linkColor"/>
                        </state>
                        <connections>
                            <action selector="ok:" destination="-1" eventType="touchUpInside" id="a1"/>
                        </connections>
                    </button>
                    <label text="Title" numberOfLines="2" id="l1">
                        <fontDescription key="fontDescription" type="boldSystem" pointSize="17"/>
                        <nil key="highlightedColor"/>
                        <string key="accessibilityHint">Line one
    line two</string>
                        <string key="keyEquivalent" base64-UTF8="YES">
    Gw
    </string>
                    </label>
                </subviews>
                <color key="backgroundColor" red="1" green="0.5" blue="0.25" alpha="1" colorSpace="custom" customColorSpace="sRGB"/>
                <constraints>
                    <constraint firstItem="b1" firstAttribute="centerX" secondItem="c1" secondAttribute="centerX" id="k1"/>
                    <constraint firstAttribute="height" constant="80" id="k2"/>
                </constraints>
                <viewLayoutGuide key="safeArea" id="sa1"/>
                <userDefinedRuntimeAttributes>
                    <userDefinedRuntimeAttribute type="number" keyPath="cornerRadius">
                        <real key="value" value="8.5"/>
                    </userDefinedRuntimeAttribute>
                    <userDefinedRuntimeAttribute type="boolean" keyPath="isFancy" value="YES"/>
                    <userDefinedRuntimeAttribute type="string" keyPath="title" value="Hi"/>
                    <userDefinedRuntimeAttribute type="size" keyPath="shadowOffset">
                        <size key="value" width="1" height="2"/>
                    </userDefinedRuntimeAttribute>
                </userDefinedRuntimeAttributes>
                <point key="canvasLocation" x="10" y="20"/>
            </view>
            <tapGestureRecognizer id="tap">
                <connections>
                    <action selector="tapped:" destination="-1" id="a2"/>
                </connections>
            </tapGestureRecognizer>
        </objects>
        <resources>
            <image name="card" width="16" height="16"/>
        </resources>
    </document>
    """

  /// A macOS XIB: the three AppKit placeholders, a window with a text field label, a menu item action to First
  /// Responder, an action to the application, a binding and an app delegate custom object.
  static let macOSWindow = """
    <?xml version="1.0" encoding="UTF-8"?>
    <document type="com.apple.InterfaceBuilder3.Cocoa.XIB" version="3.0" toolsVersion="23504" targetRuntime="MacOSX.Cocoa" propertyAccessControl="none">
        <objects>
            <customObject id="-2" userLabel="File's Owner" customClass="NSApplication">
                <connections>
                    <outlet property="delegate" destination="Voe-Tx-rLC" id="GzC-gU-4Uq"/>
                </connections>
            </customObject>
            <customObject id="-1" userLabel="First Responder" customClass="FirstResponder"/>
            <customObject id="-3" userLabel="Application" customClass="NSObject"/>
            <customObject id="Voe-Tx-rLC" customClass="AppDelegate" customModule="Demo" customModuleProvider="target"/>
            <window title="Demo" allowsToolTipsWhenApplicationIsInactive="NO" id="QvC-M9-y7g">
                <windowStyleMask key="styleMask" titled="YES" closable="YES"/>
                <rect key="contentRect" x="196" y="240" width="480" height="270"/>
                <view key="contentView" id="EiT-Mj-1SZ">
                    <rect key="frame" x="0.0" y="0.0" width="480" height="270"/>
                    <subviews>
                        <textField horizontalHuggingPriority="251" id="lbl">
                            <rect key="frame" x="18" y="20" width="100" height="16"/>
                            <textFieldCell key="cell" title="Name" id="cel">
                                <font key="font" metaFont="system"/>
                            </textFieldCell>
                            <connections>
                                <binding destination="Voe-Tx-rLC" name="value" keyPath="name" id="bnd"/>
                            </connections>
                        </textField>
                    </subviews>
                </view>
            </window>
            <menu title="Main" systemMenu="main" id="AYu-sK-qS6">
                <items>
                    <menuItem title="Quit" keyEquivalent="q" id="4sb-4s-VLi">
                        <connections>
                            <action selector="terminate:" target="-3" id="Te9-Nm-7eG"/>
                        </connections>
                    </menuItem>
                    <menuItem title="Minimize" id="OY7-WF-poV">
                        <connections>
                            <action selector="performMiniaturize:" target="-1" id="VwT-WD-YPe"/>
                        </connections>
                    </menuItem>
                </items>
            </menu>
        </objects>
    </document>
    """

  /// An iOS storyboard: a navigation controller (initial) with a relationship segue, a table view controller with
  /// a push segue from a prototype cell, an exit, a controller placeholder.
  static let iOSStoryboard = """
    <?xml version="1.0" encoding="UTF-8"?>
    <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" toolsVersion="23504" targetRuntime="iOS.CocoaTouch" propertyAccessControl="none" initialViewController="nav">
        <scenes>
            <!--Navigation Controller-->
            <scene sceneID="s1">
                <objects>
                    <navigationController id="nav" sceneMemberID="viewController">
                        <navigationBar key="navigationBar" contentMode="scaleToFill" id="bar">
                            <autoresizingMask key="autoresizingMask"/>
                        </navigationBar>
                        <connections>
                            <segue destination="list" kind="relationship" relationship="rootViewController" id="r1"/>
                        </connections>
                    </navigationController>
                    <placeholder placeholderIdentifier="IBFirstResponder" id="fr1" userLabel="First Responder" sceneMemberID="firstResponder"/>
                </objects>
            </scene>
            <!--List-->
            <scene sceneID="s2">
                <objects>
                    <tableViewController storyboardIdentifier="List" id="list" customClass="ListController" customModule="App" sceneMemberID="viewController">
                        <tableView key="view" clipsSubviews="YES" contentMode="scaleToFill" id="tv">
                            <prototypes>
                                <tableViewCell contentMode="scaleToFill" reuseIdentifier="Cell" id="cell">
                                    <tableViewCellContentView key="contentView" opaque="NO" tableViewCell="cell" id="ccv">
                                        <autoresizingMask key="autoresizingMask"/>
                                    </tableViewCellContentView>
                                    <connections>
                                        <segue destination="other" kind="show" identifier="ShowDetail" id="sg1"/>
                                    </connections>
                                </tableViewCell>
                            </prototypes>
                            <connections>
                                <outlet property="dataSource" destination="list" id="ds"/>
                                <outlet property="delegate" destination="list" id="dl"/>
                            </connections>
                        </tableView>
                        <navigationItem key="navigationItem" title="List" id="ni"/>
                    </tableViewController>
                    <placeholder placeholderIdentifier="IBFirstResponder" id="fr2" sceneMemberID="firstResponder"/>
                    <exit id="ex" userLabel="Exit" sceneMemberID="exit"/>
                    <tapGestureRecognizer id="tap2"/>
                </objects>
                <point key="canvasLocation" x="1" y="2"/>
            </scene>
            <scene sceneID="s3">
                <objects>
                    <viewControllerPlaceholder storyboardName="Detail" referencedIdentifier="Detail" id="other" sceneMemberID="viewController"/>
                    <placeholder placeholderIdentifier="IBFirstResponder" id="fr3" sceneMemberID="firstResponder"/>
                </objects>
            </scene>
        </scenes>
    </document>
    """

  /// A macOS storyboard with an application scene (the shared application is a placeholder) and a window
  /// controller.
  static let macOSStoryboard = """
    <?xml version="1.0" encoding="UTF-8"?>
    <document type="com.apple.InterfaceBuilder3.Cocoa.Storyboard.XIB" version="3.0" toolsVersion="23504" targetRuntime="MacOSX.Cocoa" propertyAccessControl="none" initialViewController="wc">
        <scenes>
            <scene sceneID="app">
                <objects>
                    <application id="hnw" sceneMemberID="viewController">
                        <menu key="mainMenu" title="Main Menu" systemMenu="main" id="AYu">
                            <items>
                                <menuItem title="Quit" id="q1">
                                    <connections>
                                        <action selector="terminate:" target="Ady" id="t1"/>
                                    </connections>
                                </menuItem>
                            </items>
                        </menu>
                        <connections>
                            <outlet property="delegate" destination="Voe" id="d1"/>
                        </connections>
                    </application>
                    <customObject id="Voe" customClass="AppDelegate" customModuleProvider="target"/>
                    <customObject id="Ady" userLabel="First Responder" customClass="NSResponder" sceneMemberID="firstResponder"/>
                </objects>
            </scene>
            <scene sceneID="win">
                <objects>
                    <windowController id="wc" sceneMemberID="viewController">
                        <window key="window" title="Window" id="IQv">
                            <rect key="contentRect" x="0" y="0" width="480" height="270"/>
                        </window>
                        <connections>
                            <segue destination="vc" kind="relationship" relationship="window.shadowedContentViewController" id="cq2"/>
                        </connections>
                    </windowController>
                    <customObject id="Oky" userLabel="First Responder" customClass="NSResponder" sceneMemberID="firstResponder"/>
                </objects>
            </scene>
            <scene sceneID="content">
                <objects>
                    <viewController id="vc" sceneMemberID="viewController">
                        <view key="view" id="m2S">
                            <rect key="frame" x="0" y="0" width="480" height="270"/>
                        </view>
                    </viewController>
                    <customObject id="rPt" userLabel="First Responder" customClass="NSResponder" sceneMemberID="firstResponder"/>
                </objects>
            </scene>
        </scenes>
    </document>
    """

  /// An iOS IBDocument archive (version 7.10): owner, first responder, an app delegate with a custom class, a
  /// window with a button sending an action to the owner.
  static let iOSArchive = """
    <?xml version="1.0" encoding="UTF-8"?>
    <archive type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="7.10">
    	<data>
    		<int key="IBDocument.SystemTarget">1056</int>
    		<object class="NSMutableArray" key="IBDocument.RootObjects" id="1000">
    			<bool key="EncodedWithXMLCoder">YES</bool>
    			<object class="IBProxyObject" id="100">
    				<string key="IBProxiedObjectIdentifier">IBFilesOwner</string>
    			</object>
    			<object class="IBProxyObject" id="101">
    				<string key="IBProxiedObjectIdentifier">IBFirstResponder</string>
    			</object>
    			<object class="IBUICustomObject" id="102"/>
    			<object class="IBUIWindow" id="103">
    				<object class="NSMutableArray" key="NSSubviews">
    					<bool key="EncodedWithXMLCoder">YES</bool>
    					<object class="IBUIButton" id="104">
    						<reference key="NSSuperview" ref="103"/>
    						<string key="NSFrame">{{20, 20}, {160, 37}}</string>
    						<string key="IBUINormalTitle">Press</string>
    						<bool key="IBUIOpaque">NO</bool>
    						<float key="IBUIAlpha">0.5</float>
    						<int key="IBUIButtonType">1</int>
    						<bytes key="NSRGB">MSAxIDEAA</bytes>
    						<string type="base64-UTF8" key="IBUIAccessibilityHint">SGkA</string>
    						<nil key="IBUIHighlightedColor"/>
    					</object>
    				</object>
    				<bool key="IBUIVisibleAtLaunch">YES</bool>
    			</object>
    		</object>
    		<object class="IBObjectContainer" key="IBDocument.Objects">
    			<object class="NSMutableArray" key="connectionRecords">
    				<bool key="EncodedWithXMLCoder">YES</bool>
    				<object class="IBConnectionRecord">
    					<object class="IBCocoaTouchOutletConnection" key="connection">
    						<string key="label">window</string>
    						<reference key="source" ref="102"/>
    						<reference key="destination" ref="103"/>
    					</object>
    					<int key="connectionID">5</int>
    				</object>
    				<object class="IBConnectionRecord">
    					<object class="IBCocoaTouchEventConnection" key="connection">
    						<string key="label">press:</string>
    						<reference key="source" ref="104"/>
    						<reference key="destination" ref="100"/>
    						<int key="IBEventType">7</int>
    					</object>
    					<int key="connectionID">9</int>
    				</object>
    			</object>
    			<object class="IBMutableOrderedSet" key="objectRecords">
    				<object class="NSArray" key="orderedObjects">
    					<bool key="EncodedWithXMLCoder">YES</bool>
    					<object class="IBObjectRecord">
    						<int key="objectID">0</int>
    						<object class="NSArray" key="object" id="0">
    							<bool key="EncodedWithXMLCoder">YES</bool>
    						</object>
    						<reference key="children" ref="1000"/>
    						<nil key="parent"/>
    					</object>
    					<object class="IBObjectRecord">
    						<int key="objectID">-1</int>
    						<reference key="object" ref="100"/>
    						<reference key="parent" ref="0"/>
    						<string key="objectName">File's Owner</string>
    					</object>
    					<object class="IBObjectRecord">
    						<int key="objectID">-2</int>
    						<reference key="object" ref="101"/>
    						<reference key="parent" ref="0"/>
    					</object>
    					<object class="IBObjectRecord">
    						<int key="objectID">4</int>
    						<reference key="object" ref="104"/>
    						<reference key="parent" ref="103"/>
    					</object>
    					<object class="IBObjectRecord">
    						<int key="objectID">2</int>
    						<reference key="object" ref="103"/>
    						<reference key="parent" ref="0"/>
    					</object>
    					<object class="IBObjectRecord">
    						<int key="objectID">3</int>
    						<reference key="object" ref="102"/>
    						<reference key="parent" ref="0"/>
    					</object>
    				</object>
    			</object>
    			<object class="NSMutableDictionary" key="flattenedProperties">
    				<bool key="EncodedWithXMLCoder">YES</bool>
    				<object class="NSArray" key="dict.sortedKeys">
    					<bool key="EncodedWithXMLCoder">YES</bool>
    					<string>-1.CustomClassName</string>
    					<string>3.CustomClassName</string>
    					<string>3.IBPluginDependency</string>
    				</object>
    				<object class="NSMutableArray" key="dict.values">
    					<bool key="EncodedWithXMLCoder">YES</bool>
    					<string>UIApplication</string>
    					<string>AppDelegate</string>
    					<string>com.apple.InterfaceBuilder.IBCocoaTouchPlugin</string>
    				</object>
    			</object>
    		</object>
    	</data>
    </archive>
    """

  /// A macOS IBDocument archive (version 8.00 spellings): the three placeholders as NSCustomObject records, a menu
  /// item whose action record points from the target (source) to the control (destination), a binding and a
  /// custom view class from the 8.x `<dictionary>` flattened properties.
  static let macOSArchive = """
    <?xml version="1.0" encoding="UTF-8"?>
    <archive type="com.apple.InterfaceBuilder3.Cocoa.XIB" version="8.00">
    	<data>
    		<array class="NSMutableArray" key="IBDocument.RootObjects" id="1048">
    			<object class="NSCustomObject" id="1021">
    				<string key="NSClassName">NSApplication</string>
    			</object>
    			<object class="NSCustomObject" id="1014">
    				<string key="NSClassName">FirstResponder</string>
    			</object>
    			<object class="NSCustomObject" id="1050">
    				<string key="NSClassName">NSApplication</string>
    			</object>
    			<object class="NSMenuItem" id="200">
    				<string key="NSTitle">Quit</string>
    			</object>
    			<object class="NSCustomView" id="300">
    				<string key="NSClassName">NSView</string>
    				<integer value="12" key="NSvFlags"/>
    				<boolean value="YES" key="NSIsFlipped"/>
    				<real value="1.5" key="NSScale"/>
    			</object>
    			<object class="NSCustomObject" id="400">
    				<string key="NSClassName">AppDelegate</string>
    			</object>
    		</array>
    		<object class="IBObjectContainer" key="IBDocument.Objects">
    			<array class="NSMutableArray" key="connectionRecords">
    				<object class="IBConnectionRecord">
    					<object class="IBActionConnection" key="connection">
    						<string key="label">terminate:</string>
    						<reference key="source" ref="1050"/>
    						<reference key="destination" ref="200"/>
    					</object>
    					<int key="connectionID">449</int>
    				</object>
    				<object class="IBConnectionRecord">
    					<object class="IBBindingConnection" key="connection">
    						<string key="label">hidden: flag</string>
    						<reference key="source" ref="300"/>
    						<reference key="destination" ref="400"/>
    						<object class="NSNibBindingConnector" key="connector">
    							<string key="NSBinding">hidden</string>
    							<string key="NSKeyPath">flag</string>
    						</object>
    					</object>
    					<int key="connectionID">12</int>
    				</object>
    				<object class="IBConnectionRecord">
    					<object class="IBOutletConnection" key="connection">
    						<string key="label">delegate</string>
    						<reference key="source" ref="1021"/>
    						<reference key="destination" ref="400"/>
    					</object>
    					<int key="connectionID">13</int>
    				</object>
    			</array>
    			<object class="IBMutableOrderedSet" key="objectRecords">
    				<array key="orderedObjects">
    					<object class="IBObjectRecord">
    						<int key="objectID">0</int>
    						<array key="object" id="0"/>
    						<reference key="children" ref="1048"/>
    						<nil key="parent"/>
    					</object>
    					<object class="IBObjectRecord">
    						<int key="objectID">-2</int>
    						<reference key="object" ref="1021"/>
    						<reference key="parent" ref="0"/>
    					</object>
    					<object class="IBObjectRecord">
    						<int key="objectID">-1</int>
    						<reference key="object" ref="1014"/>
    						<reference key="parent" ref="0"/>
    					</object>
    					<object class="IBObjectRecord">
    						<int key="objectID">-3</int>
    						<reference key="object" ref="1050"/>
    						<reference key="parent" ref="0"/>
    					</object>
    					<object class="IBObjectRecord">
    						<int key="objectID">10</int>
    						<reference key="object" ref="200"/>
    						<reference key="parent" ref="0"/>
    					</object>
    					<object class="IBObjectRecord">
    						<int key="objectID">11</int>
    						<reference key="object" ref="300"/>
    						<reference key="parent" ref="0"/>
    					</object>
    					<object class="IBObjectRecord">
    						<int key="objectID">12</int>
    						<reference key="object" ref="400"/>
    						<reference key="parent" ref="0"/>
    					</object>
    				</array>
    			</object>
    			<dictionary class="NSMutableDictionary" key="flattenedProperties">
    				<string key="11.CustomClassName">GraphView</string>
    				<string key="11.IBPluginDependency">com.apple.InterfaceBuilder.CocoaPlugin</string>
    			</dictionary>
    		</object>
    	</data>
    </archive>
    """
}
