import ArchiveCoding

/// A fast, strict XML 1.0 reader for Interface Builder documents: it turns UTF-8 bytes into a tree of
/// ``XMLElementNode``s, recording the line and column of every element.
///
/// The scanner checks well-formedness (matching tags, quoting, names, references, characters, UTF-8) and the
/// ``Limits``; any violation is thrown as an `ArchiveError` in compiler style, with the offending source line:
///
///     Broken.xib:3:5: error: mismatched end tag: expected </view> (opened at 2:3), found </label>
///
/// It accepts the XML declaration (UTF-8 or US-ASCII only), comments, processing instructions, CDATA sections, a
/// document type declaration (skipped; its entities are not defined), the five predefined entities and numeric
/// character references. A UTF-8 byte order mark is skipped; UTF-16 input is rejected.
public struct XMLScanner: Sendable {
  /// Bounds that keep hostile input from exhausting memory or the stack.
  public struct Limits: Sendable, Hashable {
    /// The largest input accepted, in bytes.
    public var maximumBytes: Int
    /// The deepest element nesting accepted (the root element is at depth 1).
    public var maximumDepth: Int
    /// The most attributes one element may carry.
    public var maximumAttributesPerElement: Int
    /// The most elements one document may contain.
    public var maximumElements: Int

    /// Creates limits; the defaults accept every real XIB by a wide margin.
    /// - Parameters:
    ///   - maximumBytes: the largest input, 64 MiB by default.
    ///   - maximumDepth: the deepest nesting, 256 by default.
    ///   - maximumAttributesPerElement: attributes per element, 256 by default.
    ///   - maximumElements: elements per document, 2,000,000 by default.
    public init(
      maximumBytes: Int = 64 << 20, maximumDepth: Int = 256, maximumAttributesPerElement: Int = 256,
      maximumElements: Int = 2_000_000
    ) {
      self.maximumBytes = maximumBytes
      self.maximumDepth = maximumDepth
      self.maximumAttributesPerElement = maximumAttributesPerElement
      self.maximumElements = maximumElements
    }
  }

  /// The limits applied by ``parse(_:fileName:)``.
  public var limits: Limits

  /// Creates a scanner.
  /// - Parameter limits: the bounds to enforce.
  public init(limits: Limits = Limits()) {
    self.limits = limits
  }

  /// Reads a whole XML document and returns its root element.
  /// - Parameters:
  ///   - bytes: the document, UTF-8 encoded.
  ///   - fileName: the name shown in diagnostics (`Main.xib:3:5: error: ...`).
  /// - Returns: the root element with its subtree.
  /// - Throws: `ArchiveError` with code `corruptData` for malformed XML, `unsupportedFormat` for an encoding other
  ///   than UTF-8, `limitExceeded` when a ``Limits`` bound is passed; the location has the file, line and column
  ///   and the error carries the source line.
  public func parse(_ bytes: [UInt8], fileName: String? = nil) throws -> XMLElementNode {
    guard bytes.count <= limits.maximumBytes else {
      throw ArchiveError(
        .limitExceeded, "input is \(bytes.count) bytes, more than the limit of \(limits.maximumBytes)",
        at: ArchiveError.Location(file: fileName))
    }
    return try bytes.withUnsafeBufferPointer { buffer in
      try ByteClass.table.withUnsafeBufferPointer { table in
        var engine = XMLScannerEngine(bytes: buffer, table: table, fileName: fileName, limits: limits)
        return try engine.run()
      }
    }
  }
}
