/// What the two document readers (XIB 3.0 and archive) hand to ``XIBDocument``.
struct DocumentReadResult {
  /// Every object, placeholders included, in document order.
  var objects: [XIBObject]
  /// The index in ``objects`` of each object id.
  var indexByID: [String: Int]
  /// Every connection in document order.
  var connections: [XIBConnection]
  /// Storyboard scenes (empty for XIBs).
  var scenes: [XIBScene]
  /// Warnings collected while reading.
  var warnings: [XIBDiagnostic]
}
