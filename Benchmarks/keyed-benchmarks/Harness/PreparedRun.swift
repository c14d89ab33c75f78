/// One side of a case at one size, with its inputs already built: only ``run`` is timed.
struct PreparedRun {
  /// Model objects handled by one run (objects × repetitions).
  var objects: Int
  /// Operations in one run (1, or the repetitions of `small`).
  var operations: Int
  /// Runs once untimed-in-spirit (its time is the warm-up), checks the result against the input, and returns the
  /// archive size of one operation (bytes written, or bytes read) and a problem, if any.
  var warmUp: () throws -> (bytes: Int, problem: String?)
  /// The measured work. Every result goes to the ``Blackhole``; releasing it is part of the time.
  var run: () throws -> Void
}
