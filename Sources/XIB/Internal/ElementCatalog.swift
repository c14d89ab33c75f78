/// What the XIB front end knows about element names: the Apple class each object element stands for on UIKit and
/// AppKit (`Specs/XIBFormat.md`, XIB-020), and which names are collections, values and document structure. Any
/// name in none of these sets is unknown (XIB-043).
enum ElementCatalog {
  /// Element → (UIKit class, AppKit class). A `nil` side falls back to the prefix rule (XIB-021).
  static let classes: [String: (uiKit: String?, appKit: String?)] = [
    // Placeholders and generic objects
    "placeholder": ("NSObject", "NSObject"),
    "exit": ("NSObject", "NSObject"),
    "viewControllerPlaceholder": ("UIViewController", "NSViewController"),
    "application": ("UIApplication", "NSApplication"),
    "customObject": ("NSObject", "NSObject"),
    "customView": ("UIView", "NSView"),
    // Views and controls
    "view": ("UIView", "NSView"),
    "label": ("UILabel", "NSTextField"),
    "button": ("UIButton", "NSButton"),
    "imageView": ("UIImageView", "NSImageView"),
    "textField": ("UITextField", "NSTextField"),
    "secureTextField": (nil, "NSSecureTextField"),
    "textView": ("UITextView", "NSTextView"),
    "switch": ("UISwitch", "NSSwitch"),
    "slider": ("UISlider", "NSSlider"),
    "stepper": ("UIStepper", "NSStepper"),
    "segmentedControl": ("UISegmentedControl", "NSSegmentedControl"),
    "pageControl": ("UIPageControl", nil),
    "progressView": ("UIProgressView", nil),
    "progressIndicator": (nil, "NSProgressIndicator"),
    "activityIndicatorView": ("UIActivityIndicatorView", nil),
    "datePicker": ("UIDatePicker", "NSDatePicker"),
    "pickerView": ("UIPickerView", nil),
    "searchBar": ("UISearchBar", nil),
    "searchField": (nil, "NSSearchField"),
    "colorWell": ("UIColorWell", "NSColorWell"),
    "scrollView": ("UIScrollView", "NSScrollView"),
    "stackView": ("UIStackView", "NSStackView"),
    "visualEffectView": ("UIVisualEffectView", "NSVisualEffectView"),
    "containerView": ("UIView", "NSView"),
    "tableView": ("UITableView", "NSTableView"),
    "tableViewCell": ("UITableViewCell", nil),
    "tableViewCellContentView": ("UITableViewCellContentView", nil),
    "tableViewSection": ("UITableViewSection", nil),
    "collectionView": ("UICollectionView", "NSCollectionView"),
    "collectionViewCell": ("UICollectionViewCell", nil),
    "collectionViewCellContentView": ("UIView", nil),
    "collectionReusableView": ("UICollectionReusableView", nil),
    "collectionViewFlowLayout": ("UICollectionViewFlowLayout", "NSCollectionViewFlowLayout"),
    "collectionViewLayout": ("UICollectionViewLayout", "NSCollectionViewLayout"),
    "collectionViewItem": (nil, "NSCollectionViewItem"),
    "navigationBar": ("UINavigationBar", nil),
    "navigationItem": ("UINavigationItem", nil),
    "barButtonItem": ("UIBarButtonItem", nil),
    "toolbar": ("UIToolbar", "NSToolbar"),
    "toolbarItem": (nil, "NSToolbarItem"),
    "tabBar": ("UITabBar", nil),
    "tabBarItem": ("UITabBarItem", nil),
    "webView": ("UIWebView", "WebView"),
    "wkWebView": ("WKWebView", "WKWebView"),
    "mapView": ("MKMapView", "MKMapView"),
    "pdfView": ("PDFView", "PDFView"),
    "refreshControl": ("UIRefreshControl", nil),
    "window": ("UIWindow", "NSWindow"),
    // Gesture recognizers
    "tapGestureRecognizer": ("UITapGestureRecognizer", nil),
    "panGestureRecognizer": ("UIPanGestureRecognizer", "NSPanGestureRecognizer"),
    "swipeGestureRecognizer": ("UISwipeGestureRecognizer", nil),
    "pinchGestureRecognizer": ("UIPinchGestureRecognizer", nil),
    "rotationGestureRecognizer": ("UIRotationGestureRecognizer", "NSRotationGestureRecognizer"),
    "longPressGestureRecognizer": ("UILongPressGestureRecognizer", nil),
    "screenEdgePanGestureRecognizer": ("UIScreenEdgePanGestureRecognizer", nil),
    "clickGestureRecognizer": (nil, "NSClickGestureRecognizer"),
    "pressGestureRecognizer": (nil, "NSPressGestureRecognizer"),
    "magnificationGestureRecognizer": (nil, "NSMagnificationGestureRecognizer"),
    // Controllers
    "viewController": ("UIViewController", "NSViewController"),
    "tableViewController": ("UITableViewController", nil),
    "collectionViewController": ("UICollectionViewController", nil),
    "navigationController": ("UINavigationController", nil),
    "tabBarController": ("UITabBarController", nil),
    "pageViewController": ("UIPageViewController", nil),
    "splitViewController": ("UISplitViewController", "NSSplitViewController"),
    "tabViewController": (nil, "NSTabViewController"),
    "pageController": (nil, "NSPageController"),
    "windowController": (nil, "NSWindowController"),
    "splitViewItem": (nil, "NSSplitViewItem"),
    // Layout
    "constraint": ("NSLayoutConstraint", "NSLayoutConstraint"),
    "layoutGuide": ("UILayoutGuide", "NSLayoutGuide"),
    "viewLayoutGuide": ("UILayoutGuide", "NSLayoutGuide"),
    "viewControllerLayoutGuide": ("_UILayoutGuide", nil),
    // AppKit views, cells and controllers
    "menu": ("UIMenu", "NSMenu"),
    "menuItem": ("UIMenuItem", "NSMenuItem"),
    "textFieldCell": (nil, "NSTextFieldCell"),
    "secureTextFieldCell": (nil, "NSSecureTextFieldCell"),
    "buttonCell": (nil, "NSButtonCell"),
    "imageCell": (nil, "NSImageCell"),
    "popUpButton": (nil, "NSPopUpButton"),
    "popUpButtonCell": (nil, "NSPopUpButtonCell"),
    "segmentedCell": (nil, "NSSegmentedCell"),
    "sliderCell": (nil, "NSSliderCell"),
    "stepperCell": (nil, "NSStepperCell"),
    "comboBox": (nil, "NSComboBox"),
    "comboBoxCell": (nil, "NSComboBoxCell"),
    "searchFieldCell": (nil, "NSSearchFieldCell"),
    "datePickerCell": (nil, "NSDatePickerCell"),
    "levelIndicator": (nil, "NSLevelIndicator"),
    "levelIndicatorCell": (nil, "NSLevelIndicatorCell"),
    "pathControl": (nil, "NSPathControl"),
    "pathCell": (nil, "NSPathCell"),
    "box": (nil, "NSBox"),
    "clipView": (nil, "NSClipView"),
    "scroller": (nil, "NSScroller"),
    "splitView": (nil, "NSSplitView"),
    "tabView": (nil, "NSTabView"),
    "tabViewItem": (nil, "NSTabViewItem"),
    "tableColumn": (nil, "NSTableColumn"),
    "tableHeaderView": (nil, "NSTableHeaderView"),
    "tableHeaderCell": (nil, "NSTableHeaderCell"),
    "tableCellView": (nil, "NSTableCellView"),
    "tableRowView": (nil, "NSTableRowView"),
    "outlineView": (nil, "NSOutlineView"),
    "browser": (nil, "NSBrowser"),
    "matrix": (nil, "NSMatrix"),
    "gridView": (nil, "NSGridView"),
    "drawer": (nil, "NSDrawer"),
    "popover": (nil, "NSPopover"),
    "predicateEditor": (nil, "NSPredicateEditor"),
    "predicateEditorRowTemplate": (nil, "NSPredicateEditorRowTemplate"),
    "userDefaultsController": (nil, "NSUserDefaultsController"),
    "arrayController": (nil, "NSArrayController"),
    "treeController": (nil, "NSTreeController"),
    "objectController": (nil, "NSObjectController"),
    "dictionaryController": (nil, "NSDictionaryController"),
    "numberFormatter": ("NSNumberFormatter", "NSNumberFormatter"),
    "dateFormatter": ("NSDateFormatter", "NSDateFormatter"),
    "byteCountFormatter": (nil, "NSByteCountFormatter"),
  ]

  /// Elements without a `key` whose children are the members of one property (XIB-041).
  static let collections: Set<String> = [
    "subviews", "constraints", "gestureRecognizers", "items", "cells", "column", "tableColumns", "segments",
    "prototypes", "sections", "layoutGuides", "tabViewItems", "allowedToolbarItems", "defaultToolbarItems",
    "rowTemplates", "popUpMenus", "prototypeCellViews", "customSpacing", "visibilityPriorities",
    "holdingPriorities", "declaredKeys", "splitViewItems", "leftBarButtonItems", "rightBarButtonItems",
    "toolbarItems", "scopeButtonTitles", "animations", "accessibilityElements", "keyCommands", "tabs",
    "menuItems", "allowedTypes", "arrangedSubviews", "gridRows", "gridColumns", "gridCells",
  ]

  /// Value elements (normally with a `key`) and their parts.
  static let values: Set<String> = [
    "rect", "point", "size", "inset", "edgeInsets", "directionalEdgeInsets", "range", "autoresizingMask", "color",
    "fontDescription", "font", "state", "string", "nil", "real", "integer", "bool", "boolean", "attributedString",
    "fragment", "attributes", "paragraphStyle", "mutableData", "data", "accessibility", "accessibilityTraits",
    "textInputTraits", "freeformSimulatedSizeMetrics", "simulatedMetricsContainer", "simulatedStatusBarMetrics",
    "simulatedOrientationMetrics", "simulatedScreenMetrics", "simulatedNavigationBarMetrics",
    "simulatedTabBarMetrics", "simulatedToolbarMetrics", "simulatedMetrics", "behavior", "modifierMask",
    "tableColumnResizingMask", "tableViewGridLines", "windowStyleMask", "windowPositionMask",
    "windowCollectionBehavior", "contentBorderThickness", "value", "sortDescriptor", "date", "datePickerElements",
    "decimal", "dictionary", "array", "classReference", "imageReference", "blurEffect", "vibrancyEffect", "url",
    "variation", "mask", "exclude", "include", "dataDetectorType", "offsetWrapper", "segment", "image",
    "userDefinedRuntimeAttribute", "textContainer", "locale", "calendar", "timeZone", "symbolConfiguration",
    "buttonConfiguration", "backgroundConfiguration", "preferredSymbolConfiguration", "textAttributes",
    "titleTextAttributes", "largeTitleTextAttributes", "navigationBarAppearance", "toolbarAppearance",
    "tabBarAppearance", "barButtonItemAppearance", "imageSymbolConfiguration", "contentConfiguration",
    "shadow", "offset", "interval", "number", "set", "characterSet", "double", "float",
  ]

  /// Structural and metadata elements (document header, storyboard scenes, IB-only data).
  static let structure: Set<String> = [
    "document", "device", "adaptation", "dependencies", "deployment", "plugIn", "capability", "development",
    "customFonts", "objects", "scenes", "scene", "resources", "namedColor", "systemColor", "designables",
    "designable", "inferredMetricsTieBreakers", "segue", "classes", "class", "source", "relationships",
    "relationship", "connections", "outlet", "outletCollection", "action", "binding",
    "userDefinedRuntimeAttributes",
  ]

  /// `true` when the name is in the catalog or one of the sets.
  static func isKnown(_ name: String) -> Bool {
    classes[name] != nil || collections.contains(name) || values.contains(name) || structure.contains(name)
  }

  /// XIB-020 / XIB-021: the default class of an element on a platform.
  static func defaultClassName(forElement name: String, runtime: XIBTargetRuntime) -> String {
    if let entry = classes[name], let className = runtime.usesUIKit ? entry.uiKit : entry.appKit {
      return className
    }
    return (runtime.usesUIKit ? "UI" : "NS") + capitalizingFirstLetter(name)
  }

  static func capitalizingFirstLetter(_ name: String) -> String {
    guard let first = name.first else { return name }
    return first.uppercased() + name.dropFirst()
  }

  static func lowercasingFirstLetter(_ name: String) -> String {
    guard let first = name.first else { return name }
    return first.lowercased() + name.dropFirst()
  }
}
