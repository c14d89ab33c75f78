import ArchiveCoding
import NibLoading

/// Registers the catalog's classes under Apple's class names, so real nibs instantiate on Linux.
///
///     InterfaceCatalog.register()
///     let objects = try Nib(contentsOf: url).instantiate(owner: controller)
public enum InterfaceCatalog {
  /// Every Apple class name the catalog answers to, with the class that stands for it.
  public static var classes: [(name: String, type: any Coding.Type)] {
    [
      ("UIView", View.self), ("NSView", View.self), ("UITableViewCellContentView", View.self),
      ("UICollectionViewCellContentView", View.self), ("NSClipView", View.self), ("NSBox", View.self),
      ("NSCustomView", View.self),
      ("UILabel", Label.self), ("UITableViewLabel", Label.self),
      ("UIControl", Control.self), ("NSControl", Control.self),
      ("UIButton", Button.self), ("NSButton", Button.self),
      ("UIImageView", ImageView.self), ("NSImageView", ImageView.self),
      ("UITextField", TextField.self), ("NSTextField", TextField.self), ("NSSecureTextField", TextField.self),
      ("NSSearchField", TextField.self),
      ("UISwitch", Switch.self), ("NSSwitch", Switch.self),
      ("UISlider", Slider.self), ("NSSlider", Slider.self),
      ("UIScrollView", ScrollView.self), ("NSScrollView", ScrollView.self),
      ("UIStackView", StackView.self), ("NSStackView", StackView.self),
      ("UITableView", TableView.self), ("NSTableView", TableView.self), ("NSOutlineView", TableView.self),
      ("UITableViewCell", TableViewCell.self), ("NSTableCellView", TableViewCell.self),
      ("UICollectionView", CollectionView.self), ("NSCollectionView", CollectionView.self),
      ("UICollectionViewCell", CollectionViewCell.self), ("UICollectionReusableView", CollectionViewCell.self),
      ("UIViewController", ViewController.self), ("NSViewController", ViewController.self),
      ("UINavigationController", NavigationController.self),
      ("UITabBarController", TabBarController.self), ("NSTabViewController", TabBarController.self),
      ("UISplitViewController", SplitViewController.self), ("NSSplitViewController", SplitViewController.self),
      ("UIWindow", Window.self), ("NSWindow", Window.self), ("NSPanel", Window.self), ("NSWindowTemplate", Window.self),
      ("NSMenu", Menu.self), ("NSMenuItem", MenuItem.self),
      ("NSLayoutConstraint", LayoutConstraint.self),
      ("UITapGestureRecognizer", GestureRecognizer.self), ("UIPanGestureRecognizer", GestureRecognizer.self),
      ("UILongPressGestureRecognizer", GestureRecognizer.self), ("UISwipeGestureRecognizer", GestureRecognizer.self),
      ("UIPinchGestureRecognizer", GestureRecognizer.self),
      ("UIScreenEdgePanGestureRecognizer", GestureRecognizer.self),
      ("NSClickGestureRecognizer", GestureRecognizer.self), ("UIGestureRecognizer", GestureRecognizer.self),
      ("UIColor", ColorObject.self), ("NSColor", ColorObject.self),
      ("UIFont", FontObject.self), ("NSFont", FontObject.self),
      ("UINib", ArchivedNib.self), ("NSNib", ArchivedNib.self),
    ] + standIns
  }

  /// Classes the catalog keeps in place without modelling them: views, controls, controllers and plain objects
  /// that accept any key and action.
  static var standIns: [(name: String, type: any Coding.Type)] {
    [
      "UITextView", "NSTextView", "UIActivityIndicatorView", "NSProgressIndicator", "UIProgressView", "UIPickerView",
      "UINavigationBar", "UIToolbar", "UITabBar", "UISearchBar", "UIVisualEffectView", "NSVisualEffectView",
      "WKWebView", "UIWebView", "MKMapView", "NSSplitView", "NSTabView", "NSScroller", "NSTableHeaderView",
      "UITableViewHeaderFooterView", "NSMatrix", "NSLevelIndicator", "NSPathControl", "NSBrowser", "NSGridView",
      "UIInputView", "ARSCNView", "SCNView", "GLKView", "MTKView", "NSOpenGLView", "PDFView",
    ].map { ($0, StandInView.self as any Coding.Type) }
      + [
        "UISegmentedControl", "UIPageControl", "UIDatePicker", "UIStepper", "NSPopUpButton", "NSSegmentedControl",
        "NSStepper", "NSColorWell", "NSDatePicker", "NSComboBox", "UIRefreshControl",
      ].map { ($0, StandInControl.self as any Coding.Type) }
      + [
        "UITableViewController", "UICollectionViewController", "UIPageViewController", "NSWindowController",
        "AVPlayerViewController", "UIHostingController",
      ].map { ($0, StandInViewController.self as any Coding.Type) }
      + [
        "UINavigationItem", "UIBarButtonItem", "UITabBarItem", "UILayoutGuide", "UIViewLayoutGuide",
        "NSObject", "NSCustomObject", "NSUserDefaultsController", "NSArrayController", "NSObjectController",
        "NSTreeController", "NSDictionaryController", "NSNumberFormatter", "NSDateFormatter", "NSFormatter",
        "NSToolbar", "NSToolbarItem", "NSTableColumn", "NSCell", "NSTextFieldCell", "NSButtonCell", "NSImageCell",
        "NSPopUpButtonCell", "NSSliderCell", "NSSegmentedCell", "NSSearchFieldCell", "NSSecureTextFieldCell",
        "NSComboBoxCell", "NSStepperCell", "NSLevelIndicatorCell", "NSDatePickerCell", "NSPathCell", "NSFontManager",
        "UIImage", "NSImage", "UIStoryboardSegue", "NSApplication", "UIApplication", "NSMenuItemCell",
        "UISearchDisplayController", "UIBarItem", "UIScreen", "NSCustomResource", "UIImageNibPlaceholder",
      ].map { ($0, StandInObject.self as any Coding.Type) }
  }

  /// Registers every catalog class in a registry (default: the shared one). Registering twice is harmless.
  public static func register(in registry: ClassRegistry = .shared) {
    var seen: Set<ObjectIdentifier> = []
    for (name, type) in classes {
      let id = ObjectIdentifier(type)
      if seen.insert(id).inserted {
        registry.register(type, as: name)
      } else {
        registry.register(type, as: registry.className(for: type), aliases: [name])
      }
    }
  }
}
