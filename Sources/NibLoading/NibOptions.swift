import Foundation

/// Options for one instantiation of a nib.
public struct NibOptions {
  /// What to do with connections to or from File's Owner when no owner is passed.
  public enum MissingOwnerPolicy: Sendable, Hashable {
    /// Fail the instantiation with an error naming the connection (the default, NIB-011).
    case fail
    /// Skip those connections.
    case skipConnections
  }

  /// Objects standing for the nib's external-object placeholders, by identifier.
  public var externalObjects: [String: AnyObject] = [:]
  /// What to do with File's Owner connections when the owner is `nil`.
  public var missingOwnerPolicy: MissingOwnerPolicy = .fail
  /// Called for every pipeline event, in order.
  public var trace: ((NibEvent) -> Void)?
  /// Called for every warning (unknown classes falling back to their base class, a class registry without the
  /// interface catalog, runtime attributes that could not be set): ``standardError`` by default; collect them with
  /// a closure of your own, or silence them with `nil` (NIB-103). The instance keeps them too
  /// (`NibInstance.warnings`).
  public var warning: ((String) -> Void)?

  /// Writes a warning to standard error, as `warning: <message>` on a line of its own.
  public static let standardError: @Sendable (String) -> Void = { message in
    FileHandle.standardError.write(Data("warning: \(message)\n".utf8))
  }
  /// Where a load error that no call can throw goes: a view controller's `view` whose nib does not load,
  /// `XIBView.init(frame:)` (NIB-330). Standard error by default (``standardErrorFailure``), once per failure, naming
  /// the nib and the reason; a closure of yours collects it, `nil` silences it. The object keeps the error
  /// (`viewLoadError`) either way.
  public var failureReport: ((String) -> Void)? = NibOptions.standardErrorFailure
  /// Whether such an error stops the process once reported, as UIKit's `NSInternalInconsistencyException` ("Could not
  /// load NIB in bundle") ends an app: `false` by default, so that a port on Linux goes on with an empty view
  /// (NIB-330).
  public var stopsOnLoadFailure = false

  /// Writes a load error to standard error, as `error: <message>` on a line of its own.
  public static let standardErrorFailure: @Sendable (String) -> Void = { message in
    FileHandle.standardError.write(Data("error: \(message)\n".utf8))
  }

  /// Reports a load error no call can throw, as ``failureReport`` and ``stopsOnLoadFailure`` say (NIB-330).
  public func reportLoadFailure(_ message: String) {
    failureReport?(message)
    if stopsOnLoadFailure { fatalError(message) }
  }

  /// The most members an outlet collection may have after a connection adds one (default 10,000). Each member
  /// sets the whole array, with one will/did-change pair per member (NIB-002), so a collection of n members costs
  /// time quadratic in n: a hostile document of 100,000 members would run for minutes. Past the limit the
  /// instantiation fails with `limitExceeded`.
  public var maxOutletCollectionCount = 10_000

  /// Creates default options.
  public init(
    externalObjects: [String: AnyObject] = [:], missingOwnerPolicy: MissingOwnerPolicy = .fail,
    trace: ((NibEvent) -> Void)? = nil, warning: ((String) -> Void)? = NibOptions.standardError
  ) {
    self.externalObjects = externalObjects
    self.missingOwnerPolicy = missingOwnerPolicy
    self.trace = trace
    self.warning = warning
  }
}
