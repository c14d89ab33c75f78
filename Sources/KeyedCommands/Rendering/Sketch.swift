import InterfaceObjects

/// What `keyed render` draws: the scenes of a loaded document laid out on one canvas, each view at its place in
/// canvas coordinates, with the placeholders, the other objects and the connections (CLI-090).
///
/// A sketch is built from the loaded object graph (``SketchBuilder``) and written as SVG or HTML
/// (``SketchSVGWriter``, ``SketchHTMLWriter``); it holds plain values only.
struct Sketch {
  /// How a view is drawn.
  enum Kind: String {
    case view, label, button, imageView, textField, textView, switchControl = "switch", slider, segmentedControl
    case stepper, progress, activityIndicator, pageControl, tableView, tableViewCell, scrollView, control
    case navigationBar, toolbar, tabBar, searchBar, window, checkBox, radioButton
  }

  /// One drawn view and the views drawn inside it.
  struct Node {
    /// The document's id (for compiled nibs, the object's index) and the class it names (its custom class when
    /// it has one).
    var id, className: String
    var kind: Kind
    /// The frame in canvas coordinates.
    var frame: Rect
    /// A label's text, a button's title, a text field's text, a window's title.
    var text: String?
    /// A text field's placeholder, an image view's image name.
    var secondaryText: String?
    /// The font size of ``text``.
    var fontSize: Double = 17
    var textAlignment: String?
    var background: Color?
    var textColor: Color?
    /// A segmented control's segment titles.
    var segments: [String] = []
    /// A slider's or progress view's position, 0…1; a switch's state (0 or 1); a segmented control's selection.
    var value: Double = 0
    var isHidden = false
    var children: [Node] = []
  }

  /// A top-level view, view controller or window, drawn as one picture on the canvas.
  struct Scene {
    /// The id and class of the top-level object (the view controller, window or view), and what the caption
    /// says: the controller's title or storyboard identifier, or the class.
    var id, className, caption: String
    /// The whole scene on the canvas, title bar included.
    var frame: Rect
    /// A macOS window's title bar: its title (empty for an untitled window), or `nil` for no title bar.
    var titleBar: String?
    /// The scene's root view, when it has one.
    var root: Node?
  }

  /// A placeholder (File's Owner, First Responder, an external object…), drawn beside the canvas.
  struct Placeholder {
    var id, className, label: String
    var frame: Rect
  }

  /// An object of the document that is not drawn (a menu, a controller without a view, a constraint…), listed in
  /// the HTML object tree.
  struct Other {
    var id, className: String
  }

  /// A connection of the document: outlet, outlet collection, action or segue.
  struct Connection {
    var id: String?
    /// `outlet`, `outletCollection`, `action` or `segue`.
    var kind: String
    var sourceID: String
    /// `nil` for an action sent up the responder chain.
    var destinationID: String?
    /// The outlet key, action name or segue identifier.
    var label: String
  }

  var scenes: [Scene] = []
  var placeholders: [Placeholder] = []
  var others: [Other] = []
  var connections: [Connection] = []
  /// The canvas size.
  var size = Size(width: 0, height: 0)
  /// Whether the document is a macOS one (windows get title bars, frames are flipped to a top-left origin).
  var isAppKit = false
}
