import ArchiveCoding
import Testing
import XIB

/// Helpers that check a thrown `ArchiveError` completely: code, location and the full printed text (message,
/// source line and caret).
enum Diagnostics {
  /// Runs `body`, requires it to throw an `ArchiveError`, and returns it.
  static func error(
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
  ) -> ArchiveError? {
    do {
      try body()
      Issue.record("expected an ArchiveError, but nothing was thrown", sourceLocation: sourceLocation)
      return nil
    } catch let error as ArchiveError {
      return error
    } catch {
      Issue.record("expected an ArchiveError, got \(error)", sourceLocation: sourceLocation)
      return nil
    }
  }

  /// Expects scanning `text` to fail with exactly `description` and `code`.
  static func expectScanError(
    _ text: String, _ description: String, code: ArchiveError.Code = .corruptData, fileName: String = "Test.xib",
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let thrown = error(sourceLocation: sourceLocation) {
      _ = try XMLScanner().parse(Array(text.utf8), fileName: fileName)
    }
    #expect(thrown?.code == code, sourceLocation: sourceLocation)
    #expect(thrown?.description == description, sourceLocation: sourceLocation)
  }

  /// Expects reading `text` as a document to fail with exactly `description` and `code`.
  static func expectDocumentError(
    _ text: String, _ description: String, code: ArchiveError.Code = .corruptData, fileName: String = "Test.xib",
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let thrown = error(sourceLocation: sourceLocation) {
      _ = try XIBDocument(parsing: Array(text.utf8), fileName: fileName)
    }
    #expect(thrown?.code == code, sourceLocation: sourceLocation)
    #expect(thrown?.description == description, sourceLocation: sourceLocation)
  }
}
