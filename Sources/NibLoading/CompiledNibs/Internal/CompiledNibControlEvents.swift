/// Names of UIKit control events, as XIB documents spell them in `eventType`, for the masks a
/// `UIRuntimeEventConnection` stores in `UIEventMask` (NIBA-047).
enum CompiledNibControlEvents {
  /// Single-bit events, in bit order.
  static let names: [(mask: UInt64, name: String)] = [
    (1 << 0, "touchDown"),
    (1 << 1, "touchDownRepeat"),
    (1 << 2, "touchDragInside"),
    (1 << 3, "touchDragOutside"),
    (1 << 4, "touchDragEnter"),
    (1 << 5, "touchDragExit"),
    (1 << 6, "touchUpInside"),
    (1 << 7, "touchUpOutside"),
    (1 << 8, "touchCancel"),
    (1 << 12, "valueChanged"),
    (1 << 13, "primaryActionTriggered"),
    (1 << 14, "menuActionTriggered"),
    (1 << 16, "editingDidBegin"),
    (1 << 17, "editingChanged"),
    (1 << 18, "editingDidEnd"),
    (1 << 19, "editingDidEndOnExit"),
  ]

  /// The event name of a mask: the name of each set bit, joined with `|` in bit order; `nil` when the mask is 0 or
  /// has a bit without a name.
  static func name(forMask mask: UInt64) -> String? {
    guard mask != 0 else { return nil }
    var remaining = mask
    var parts: [String] = []
    for (bit, name) in names where remaining & bit != 0 {
      parts.append(name)
      remaining &= ~bit
    }
    return remaining == 0 ? parts.joined(separator: "|") : nil
  }
}
