import ArchiveCoding
import Foundation
import KeyedArchive
import Testing

// The examples of `Sources/KeyedArchive/KeyedArchive.docc/ReadingArchivesFromOtherPlatforms.md`, run against
// archives the toolchain's own `NSKeyedArchiver` writes.

/// The class as the app on Apple's platforms declares it: an `NSObject` with `NSSecureCoding`.
final class AppContact: NSObject, NSSecureCoding {
  static var supportsSecureCoding: Bool { true }
  let name: String
  let emails: [String]
  init(name: String, emails: [String]) {
    self.name = name
    self.emails = emails
  }
  required init?(coder: NSCoder) {
    name = coder.decodeObject(of: NSString.self, forKey: "name") as String? ?? ""
    emails = coder.decodeObject(of: [NSArray.self, NSString.self], forKey: "emails") as? [String] ?? []
  }
  func encode(with coder: NSCoder) {
    coder.encode(name, forKey: "name")
    coder.encode(emails, forKey: "emails")
  }
}

final class Contact: SecureCoding {
  var name: String
  var emails: [String]

  required init(coder: any DecodingCoder) throws {
    name = try coder.decodeString(forKey: "name") ?? ""
    emails = try coder.decodeArrayOfObjects(ofClass: String.self, forKey: "emails") ?? []
  }

  func encode(with coder: any EncodingCoder) {
    coder.encode(name, forKey: "name")
    coder.encodeObject(emails, forKey: "emails")
  }
}

@Suite("Documentation: reading archives written on other platforms")
struct ReadingArchivesExamples {
  /// What the app wrote: Foundation archives a Swift class under its module-qualified name, here
  /// `DocumentationTests.AppContact`; the app's module is `MyApp` and its class `Contact`, so that name is put in
  /// its place, in the XML form Foundation wrote (the toolchain's `setClassName(_:for:)` does not rename it).
  static func appArchive() throws -> Data {
    let archiver = NSKeyedArchiver(requiringSecureCoding: true)
    archiver.outputFormat = .xml
    archiver.encode(AppContact(name: "Ada", emails: ["ada@example.com"]), forKey: NSKeyedArchiveRootObjectKey)
    archiver.finishEncoding()
    let xml = String(decoding: archiver.encodedData, as: UTF8.self)
    let stored = NSStringFromClass(AppContact.self)
    #expect(xml.contains("<string>\(stored)</string>"), "Foundation stores the class as \(stored)")
    return Data(xml.replacingOccurrences(of: "<string>\(stored)</string>", with: "<string>MyApp.Contact</string>").utf8)
  }

  @Test(
    "DOC-031: an app's archive of its own class, written by Foundation, reads into the class registered for its name")
  func appClass() throws {
    let data = try Self.appArchive()

    ClassRegistry.shared.register(Contact.self, as: "MyApp.Contact")  // the name the app's archives store
    let contact = try KeyedUnarchiver.unarchivedObject(ofClass: Contact.self, from: data)

    #expect(contact?.name == "Ada")
    #expect(contact?.emails == ["ada@example.com"])
  }

  @Test("DOC-031: Foundation's values come out as Swift values")
  func foundationValues() throws {
    let settings: NSDictionary = [
      "name": "Ada", "updated": Date(timeIntervalSinceReferenceDate: 0), "home": URL(fileURLWithPath: "/home/ada"),
      "volume": 0.5, "zone": TimeZone(identifier: "Europe/London") as Any,
    ]
    let data = try NSKeyedArchiver.archivedData(withRootObject: settings, requiringSecureCoding: false)

    let values = try KeyedUnarchiver.unarchivedDictionary(
      keysOfClasses: [String.self], objectsOfClasses: [String.self, Date.self, URL.self, Double.self, TimeZone.self],
      from: data)
    let updated = values?["updated"] as? Date
    let zone = values?["zone"] as? TimeZone

    #expect(values?["name"] as? String == "Ada")
    #expect(updated == Date(timeIntervalSinceReferenceDate: 0))
    #expect((values?["home"] as? URL)?.path == "/home/ada")
    #expect(values?["volume"] as? Double == 0.5)
    #expect(zone?.identifier == "Europe/London")
  }

  @Test("DOC-031: a class the process does not know is an error that names it")
  func unknownClass() throws {
    let data = try Self.appArchive()
    do {
      _ = try KeyedUnarchiver.unarchivedRootObject(from: data, registry: ClassRegistry())
      Issue.record("an archive of an unregistered class decoded")
    } catch let error as ArchiveError {
      #expect(error.code == .classNotFound, "\(error)")
      #expect(error.description.contains("MyApp.Contact"), "\(error)")
    }
  }
}
