import ArchiveCoding
import Foundation
import InterfaceObjects
import Testing
import Typedstream

// The examples of `Sources/Typedstream/Typedstream.docc/ReadingTypedstreams.md` and of the Typedstream landing
// page. The streams are written by `TypedstreamArchiver` in the layout `NSArchiver` gives them (an iMessage body,
// a colour list); the corpus's real files are read by `Tests/TypedstreamTests`.

/// A colour list as `NSColorList` writes it: a version, a nil and a count, then each colour and its name.
func makeColorList(_ colors: [(String, Color)]) throws -> Data {
  InterfaceCatalog.register()  // the catalog's colour is written as NSColor
  let archiver = TypedstreamArchiver()
  archiver.encodeValues([.integer(1)], ofObjCTypes: "i")
  archiver.encodeValues([.object(nil), .integer(Int64(colors.count))], ofObjCTypes: "@i")
  for (name, color) in colors {
    archiver.encodeValues([.object(ColorObject(color)), .object(name)], ofObjCTypes: "@@")
  }
  return try archiver.finishEncoding()
}

/// A note whose `encode(with:)` writes the sequential form when the coder is not keyed.
final class StickyNote: Coding {
  var text: String
  var color: Int

  init(text: String, color: Int) {
    self.text = text
    self.color = color
  }

  required init(coder: any DecodingCoder) throws {
    if coder.allowsKeyedCoding {
      text = try coder.decodeString(forKey: "text") ?? ""
      color = try coder.decodeInteger(forKey: "color")
    } else {
      let values = try coder.decodeValues(ofObjCTypes: "@i")  // the group encode(with:) wrote
      guard case .object(let text as String) = values[0] else {
        throw ArchiveError(.typeMismatch, "a sticky note without its text")
      }
      self.text = text
      color = Int(values[1].integerValue ?? 0)
    }
  }

  func encode(with coder: any EncodingCoder) {
    if coder.allowsKeyedCoding {
      coder.encode(text, forKey: "text")
      coder.encode(color, forKey: "color")
    } else {
      coder.encodeValues([.object(text), .integer(Int64(color))], ofObjCTypes: "@i")
    }
  }
}

@Suite("Documentation: reading typedstreams")
struct ReadingTypedstreamsExamples {
  @Test("DOC-032: a message body comes out as an NSAttributedString")
  func messageBody() throws {
    let message = NSAttributedString(string: "Noter test", attributes: [.init("__kIMMessagePartAttributeName"): 0])
    let blob = try TypedstreamArchiver.archivedData(withRootObject: message)
    #expect(blob.starts(with: [0x04, 0x0b] + Array("streamtyped".utf8)))

    let body = try TypedstreamUnarchiver.unarchivedObject(from: blob) as? NSAttributedString
    print(body?.string ?? "")  // Noter test

    #expect(body?.string == "Noter test")
    #expect(body?.attribute(.init("__kIMMessagePartAttributeName"), at: 0, effectiveRange: nil) as? Int == 0)
  }

  @Test("DOC-032: a colour list reads pair by pair, each NSColor as the catalog's colour")
  func colorList() throws {
    let data = try makeColorList([
      ("Solarized Base03", Color(red: 0.0159, green: 0.1265, blue: 0.1597, alpha: 1)),
      ("Solarized Yellow", Color(red: 0.7091, green: 0.5376, blue: 0, alpha: 1)),
    ])
    var names: [String] = []

    InterfaceCatalog.register()
    let list = try TypedstreamUnarchiver(data: data)
    _ = try list.decodeValue(ofObjCType: "i")  // the format's version, 1
    let count = try list.decodeValues(ofObjCTypes: "@i")[1].integerValue ?? 0
    for _ in 0..<count {
      let pair = try list.decodeValues(ofObjCTypes: "@@")  // an NSColor, then its name
      if case .object(let colour as ColorObject) = pair[0], case .object(let name as String) = pair[1] {
        print(name, colour.color)  // Solarized Base03 rgba(0.0159, 0.1265, 0.1597, 1.0)
        names.append(name)
      }
    }

    #expect(names == ["Solarized Base03", "Solarized Yellow"])
    // What the print shows for the first colour.
    #expect("\(Color(red: 0.0159, green: 0.1265, blue: 0.1597, alpha: 1))" == "rgba(0.0159, 0.1265, 0.1597, 1.0)")
  }

  @Test("DOC-032: a class of your own writes and reads its sequential form through the same init(coder:)")
  func ownClass() throws {
    ClassRegistry.shared.register(StickyNote.self, as: "StickyNote")
    let data = try TypedstreamArchiver.archivedData(withRootObject: StickyNote(text: "Buy milk", color: 3))
    let note = try TypedstreamUnarchiver.unarchivedObject(from: data) as? StickyNote

    #expect(note?.text == "Buy milk")
    #expect(note?.color == 3)
  }

  @Test("DOC-032: the stream as stored writes back byte for byte")
  func streamAsStored() throws {
    let blob = try TypedstreamArchiver.archivedData(withRootObject: NSAttributedString(string: "Noter test"))

    let stream = try TypedstreamReader.read(blob)  // classes, versions and typed groups, as stored
    let again = try TypedstreamWriter.write(stream)

    #expect(again == blob)
    #expect(stream.byteOrder == .little)
  }
}
