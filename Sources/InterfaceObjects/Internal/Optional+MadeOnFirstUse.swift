extension Optional where Wrapped: AnyObject {
  /// The stored instance, or one made by `make` and stored for the next call: for the parts of an object that most
  /// objects never use (a view's layer, a responder's observers).
  mutating func madeOnFirstUse(_ make: () -> Wrapped) -> Wrapped {
    if let stored = self { return stored }
    let made = make()
    self = made
    return made
  }
}
