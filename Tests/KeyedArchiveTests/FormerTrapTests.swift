import ArchiveCoding
import Foundation
import KeyedArchive
import Testing

/// A model whose `bookTitle` is a plain stored property, declared nowhere for key-value coding.
final class BookDetail: KeyValueObservable {
  let keyValueObservers = KeyValueObservers()
  var bookTitle = ""
  var author = "" {
    willSet { willChangeValue(forKey: "author") }
    didSet { didChangeValue(forKey: "author") }
  }
  static var keyValueAccessors: [String: KeyValueAccessor] { ["author": .observedProperty(\BookDetail.author)] }
}

/// Writes bytes with a length its caller got wrong.
final class BadLength: Coding {
  init() {}
  required init(coder: any DecodingCoder) throws {}
  func encode(with coder: any EncodingCoder) { coder.encodeBytes([1, 2, 3], length: 5, forKey: "raw") }
}

/// COD-232 to COD-237: mistakes in the calling code, each of which stopped the process before, is now an error.
@Suite("Former traps in the coders and key-value coding")
struct FormerTrapTests {
  @Test("COD-236: observing a plain stored property throws, saying how to declare its key")
  func undeclaredKeyPath() throws {
    let detail = BookDetail()
    #expect {
      _ = try detail.observe(\.bookTitle) { _ in }
    } throws: { error in
      let error = error as? ArchiveError
      return error?.code == .valueNotFound && error?.message.contains("BookDetail declares no key") == true
        && error?.message.contains(#""bookTitle": .observedProperty(\BookDetail.bookTitle)"#) == true
        && error?.message.contains("@Outlet") == true
    }
    var seen: [String] = []
    let token = try detail.observe(\.author) { seen.append("\($0.newValue ?? "-")") }
    detail.author = "Le Guin"
    token.invalidate()
    detail.author = "Herbert"
    #expect(seen == ["Le Guin"])
  }

  @Test("COD-235: invalidate() removes the observer once; cancel() and release after it do nothing more")
  func invalidate() throws {
    let detail = BookDetail()
    var count = 0
    var token: KeyValueObservation? = detail.observe("author", options: [.new]) { _ in count += 1 }
    detail.author = "a"
    token?.invalidate()
    token?.invalidate()
    token?.cancel()
    token = nil
    detail.author = "b"
    #expect(count == 1)
  }

  @Test("COD-237: an undeclared key's error names the class and the key and shows the declaration")
  func undefinedKeyHint() {
    #expect {
      try BookDetail().setValue("x", forKey: "titleLabel")
    } throws: { error in
      let message = (error as? ArchiveError)?.message ?? ""
      return message.contains(#"BookDetail is not key-value coding compliant for the key "titleLabel""#)
        && message.contains(#""titleLabel": .property(\BookDetail.titleLabel)"#)
    }
  }

  @Test("COD-232: encodeBytes with a length past the bytes is an error when the archive finishes")
  func encodeBytesLength() {
    #expect {
      try KeyedArchiver.archivedData(withRootObject: BadLength())
    } throws: { error in
      let error = error as? ArchiveError
      return error?.code == .invalidValue && error?.message.contains("length 5 is outside the 3 bytes") == true
    }
  }

  @Test("COD-233: finishing twice gives the same archive; encoding after finishing leaves it as it was")
  func finishTwice() throws {
    let archiver = KeyedArchiver()
    archiver.encode("one", forKey: "first")
    let archive = try archiver.finishEncoding()
    #expect(try archiver.finishEncoding() == archive)
    archiver.encode("two", forKey: "second")
    #expect(try archiver.encodedData == archive)
    let back = try KeyedUnarchiver(forReadingFrom: archive)
    #expect(try back.decodeString(forKey: "first") == "one")
    #expect(try back.decodeString(forKey: "second") == nil)
  }

  @Test("COD-234: turning requiresSecureCoding off leaves it on, and finishing the decoding throws")
  func secureCodingStaysOn() throws {
    let archive = try KeyedArchiver.archivedData(withRootObject: "text")
    let unarchiver = try KeyedUnarchiver(forReadingFrom: archive)
    unarchiver.requiresSecureCoding = true
    unarchiver.requiresSecureCoding = false
    #expect(unarchiver.requiresSecureCoding)
    #expect(try unarchiver.decodeObject(of: String.self, forKey: "root") == "text")
    #expect {
      try unarchiver.finishDecoding()
    } throws: { error in
      (error as? ArchiveError)?.message.contains("cannot be turned off") == true
    }
  }
}
