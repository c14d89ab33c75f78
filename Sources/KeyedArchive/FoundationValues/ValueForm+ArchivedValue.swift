import FoundationForms

extension ValueForm {
  /// The form of `value`.
  init(_ value: ArchivedValue) {
    switch value {
    case .point(let x, let y): self = .geometry(.point([x, y]))
    case .size(let width, let height): self = .geometry(.size([width, height]))
    case .rect(let x, let y, let width, let height): self = .geometry(.rect([x, y, width, height]))
    case .range(let location, let length):
      self = .geometry(.range(location: .integer(location), length: .integer(length)))
    case .transform(let a, let b, let c, let d, let tx, let ty): self = .transform([a, b, c, d, tx, ty])
    case .edgeInsets(let top, let left, let bottom, let right, let special):
      self = .edgeInsets([top, left, bottom, right], special: special)
    }
  }
}
