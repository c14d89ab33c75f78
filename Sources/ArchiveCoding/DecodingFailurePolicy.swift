/// What a decoding coder does when a decode call fails, as `NSCoder.DecodingFailurePolicy`.
public enum DecodingFailurePolicy: Sendable, Hashable {
  /// The failing call throws (the default).
  case throwError
  /// The failing call records the error in ``DecodingCoder/error`` and returns nil or zero; every later call
  /// returns nil or zero too, and the top-level decode throws the recorded error when it finishes.
  case setErrorAndReturn
}
