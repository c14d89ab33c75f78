/// The peak memory of one side, as reported by a child process.
struct MemoryReading {
  /// Peak resident memory while the operation ran, in MiB (inputs included: they are resident too).
  var peakMiB: Double?
  /// Resident memory once the inputs were built, before the operation, in MiB.
  var setupMiB: Double?
  /// Set when the peak could not be isolated from the setup or the child failed.
  var note: String?
}
