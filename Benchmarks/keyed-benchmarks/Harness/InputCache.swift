/// Generated inputs by type and size, so the sides of one case (and the encode and decode cases of one input) share
/// them instead of generating them again.
final class InputCache {
  private var inputs: [String: any BenchmarkInput] = [:]
  /// The case group the cached inputs belong to; moving to another group empties the cache.
  private var group = ""

  /// The input of `count` objects, generated on first use.
  func input<Input: BenchmarkInput>(count: Int) -> Input {
    let key = "\(Input.self)#\(count)"
    if let cached = inputs[key] as? Input { return cached }
    let made = Input.generate(count: count)
    inputs[key] = made
    return made
  }

  /// Keeps the cache for the same group, empties it for another.
  func enter(group: String) {
    if group != self.group {
      inputs.removeAll()
      self.group = group
    }
  }
}
