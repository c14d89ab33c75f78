import ArchiveCoding
import Foundation

// `NSColor` in a typedstream (COD-125): a `c` colour space, then the components of that space as reals in one
// group, or for a named colour the catalog name, the colour name and the colour it stands for.
extension ColorObject {
  /// `NSColor`'s colour spaces in its sequential form.
  enum SequentialSpace: Int {
    case calibratedRGB = 1, deviceRGB, calibratedWhite, deviceWhite, deviceCMYK, named
  }

  /// Reads a colour written by `NSColor`'s `encodeWithCoder:` to an `NSArchiver`.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` (`unsupportedFormat`) for a pattern or another colour space; the coder's errors.
  static func sequentialColor(from coder: any DecodingCoder) throws -> Color {
    let code = try coder.decodeValue(ofObjCType: "c", as: Int.self)
    guard let space = SequentialSpace(rawValue: code) else {
      throw ArchiveError(.unsupportedFormat, "NSColor colour space \(code) (a pattern or a space not read)")
    }
    func reals(_ types: String) throws -> [Double] {
      let values = try coder.decodeValues(ofObjCTypes: types).map { $0.realValue ?? 0 }
      guard values.count == types.utf8.count else { throw ArchiveError(.corruptData, "expected \(types) components") }
      return values
    }
    switch space {
    case .calibratedRGB, .deviceRGB:
      let v = try reals("ffff")
      return Color(red: v[0], green: v[1], blue: v[2], alpha: v[3])
    case .calibratedWhite, .deviceWhite:
      let v = try reals("ff")
      return Color(white: v[0], alpha: v[1])
    case .deviceCMYK:
      let v = try reals("fffff")
      let black = 1 - v[3]
      return Color(red: (1 - v[0]) * black, green: (1 - v[1]) * black, blue: (1 - v[2]) * black, alpha: v[4])
    case .named:
      let values = try coder.decodeValues(ofObjCTypes: "@@@")
      guard values.count == 3, case .object(let nameObject) = values[1], let name = nameObject as? String else {
        throw ArchiveError(.corruptData, "expected a named colour's name, an NSString")
      }
      var color = Color.black
      if case .object(let fallback as ColorObject) = values[2] { color = fallback.color }
      color.name = name
      return color
    }
  }

  /// Writes the colour as `NSColor` writes itself to an `NSArchiver`: a named colour under the `System` catalog
  /// with its components as the colour it stands for, any other as calibrated RGB.
  func encodeSequentially(with coder: any EncodingCoder) {
    if let name = color.name {
      var components = color
      components.name = nil
      coder.encodeValue(.integer(Int64(SequentialSpace.named.rawValue)), ofObjCType: "c")
      coder.encodeValues([.object("System"), .object(name), .object(ColorObject(components))], ofObjCTypes: "@@@")
    } else {
      coder.encodeValue(.integer(Int64(SequentialSpace.calibratedRGB.rawValue)), ofObjCType: "c")
      coder.encodeValues(
        [color.red, color.green, color.blue, color.alpha].map { .float(Float($0)) }, ofObjCTypes: "ffff")
    }
  }
}
