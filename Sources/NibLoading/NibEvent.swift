/// One step of the nib-loading pipeline, for traces (`keyed instantiate --trace`) and tests.
public enum NibEvent: Sendable, Hashable, CustomStringConvertible {
  /// An object was created through `init(coder:)`.
  case decode(id: String, className: String)
  /// An outlet was set.
  case outlet(source: String, key: String, destination: String)
  /// An object was added to an outlet collection.
  case collection(source: String, key: String, destination: String)
  /// An action was connected (target `nil` is the responder chain).
  case action(source: String, action: String, target: String?, event: String?)
  /// A segue was recorded.
  case segue(source: String, identifier: String?, destination: String)
  /// A runtime attribute was set.
  case attribute(object: String, keyPath: String)
  /// `awakeFromNib()` was sent.
  case awake(id: String)
  /// A view controller's life-cycle call (`loadView`, `viewDidLoad`, `viewWillAppear`…), a segue's
  /// `prepare(for:sender:)`, or a tab bar's selection, with the controller as the trace names it: its storyboard
  /// identifier, else its scene, else its class (NIB-316).
  case lifecycle(controller: String, call: String)

  /// `true` for the five forms cli.md fixes for `keyed instantiate --trace` (decode, outlet, collection, action,
  /// awake); segues and runtime attributes are printed by `--trace-all` only.
  public var isContractForm: Bool {
    switch self {
    case .decode, .outlet, .collection, .action, .awake: true
    case .segue, .attribute, .lifecycle: false
    }
  }

  /// The line `keyed instantiate --trace` prints (CLI-030).
  public var description: String {
    switch self {
    case .decode(let id, let className): "decode \(id) \(className)"
    case .outlet(let source, let key, let destination): "outlet \(source) \(key) \(destination)"
    case .collection(let source, let key, let destination): "collection \(source) \(key) \(destination)"
    case .action(let source, let action, let target, let event):
      "action \(source) \(action) \(target ?? "nil")" + (event.map { " \($0)" } ?? "")
    case .segue(let source, let identifier, let destination): "segue \(source) \(identifier ?? "-") \(destination)"
    case .attribute(let object, let keyPath): "attribute \(object) \(keyPath)"
    case .awake(let id): "awake \(id)"
    case .lifecycle(let controller, let call): "\(controller) \(call)"
    }
  }
}
