/// The order in which the canonical view writes an array's elements.
package enum CanonicalOrder: Sendable {
  /// As the walk reports them.
  case asWalked
  /// Sorted by their canonical text (by code point, ``CanonicalText/precedes(_:_:)``), equal texts in the walk's
  /// order: the members of a set.
  case byText
  /// Each element is a pair `[key, value]`, sorted by the key's canonical text, equal keys in the walk's order: the
  /// entries of a dictionary whose keys are not all strings.
  case byKeyText
}
