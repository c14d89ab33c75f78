import ArchiveCoding

extension Placeholder {
  /// How a person names the placeholder: `File's Owner`, `First Responder`, `Application`, `external <identifier>`.
  package var label: String {
    switch self {
    case .filesOwner: "File's Owner"
    case .firstResponder: "First Responder"
    case .application: "Application"
    case .external(let identifier): "external \(identifier)"
    case .other(let name): name
    }
  }
}
