extension Array where Element == AnyObject {
  /// The elements that are instances of `T`, in order: a collection a nib decodes with
  /// `decodeObjectReferences(forKey:)` (a view's subviews) keeps only the objects of the class it holds, as the
  /// catalog always has (an object standing in for an unknown class that is no view is left out of `subviews`).
  ///
  /// Inlined, so that each call site casts to its own concrete class (a class cast, not a generic one).
  @inline(__always)
  func instances<T: AnyObject>(of type: T.Type) -> [T] {
    var instances: [T] = []
    instances.reserveCapacity(count)
    for element in self {
      if let instance = element as? T { instances.append(instance) }
    }
    return instances
  }
}
