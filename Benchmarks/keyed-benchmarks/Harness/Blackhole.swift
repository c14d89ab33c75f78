/// Takes results so that the optimiser cannot prove them unused and drop the work that made them.
enum Blackhole {
  @inline(never) @_optimize(none)
  static func consume<T>(_ value: T) {}
}
