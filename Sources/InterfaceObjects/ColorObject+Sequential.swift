import ArchiveCoding
import Foundation

// `NSColor` in a typedstream (COD-125): a `c` colour space, then the components of that space as reals in one
// group, or for a named colour the catalog name, the colour name and the colour it stands for.
extension ColorObject {
  /// `NSColor`'s colour spaces in its sequential form.
  enum SequentialSpace {
    static let calibratedRGB = 1
    static let deviceRGB = 2
    static let calibratedWhite = 3
    static let deviceWhite = 4
    static let deviceCMYK = 5
    static let named = 6
  }

  /// Reads a colour written by `NSColor`'s `encodeWithCoder:` to an `NSArchiver`.
  /// - Throws: ``ArchiveError`` (`unsupportedFormat`) for a pattern or another colour space; the coder's errors.
  static func sequentialColor(from coder: any DecodingCoder) throws -> Color {
    let space = try coder.decodeValue(ofObjCType: "c", as: Int.self)
    func reals(_ types: String) throws -> [Double] {
      try coder.decodeValues(ofObjCTypes: types).map { $0.realValue ?? 0 }
    }
    switch space {
    case SequentialSpace.calibratedRGB, SequentialSpace.deviceRGB:
      let v = try reals("ffff")
      return Color(red: v[0], green: v[1], blue: v[2], alpha: v[3])
    case SequentialSpace.calibratedWhite, SequentialSpace.deviceWhite:
      let v = try reals("ff")
      return Color(white: v[0], alpha: v[1])
    case SequentialSpace.deviceCMYK:
      let v = try reals("fffff")
      let black = 1 - v[3]
      return Color(red: (1 - v[0]) * black, green: (1 - v[1]) * black, blue: (1 - v[2]) * black, alpha: v[4])
    case SequentialSpace.named:
      let values = try coder.decodeValues(ofObjCTypes: "@@@")
      guard case .object(let nameObject) = values[1], let name = nameObject as? String else {
        throw ArchiveError(.corruptData, "expected a named colour's name, an NSString")
      }
      var color = Color.black
      if case .object(let fallback as ColorObject) = values[2] { color = fallback.color }
      color.name = name
      return color
    default:
      throw ArchiveError(.unsupportedFormat, "NSColor colour space \(space) (a pattern or a space not read)")
    }
  }

  /// Writes the colour as `NSColor` writes itself to an `NSArchiver`: a named colour under the `System` catalog
  /// with its components as the colour it stands for, any other as calibrated RGB.
  func encodeSequentially(with coder: any EncodingCoder) {
    if let name = color.name {
      var components = color
      components.name = nil
      coder.encodeValue(.integer(Int64(SequentialSpace.named)), ofObjCType: "c")
      coder.encodeValues([.object("System"), .object(name), .object(ColorObject(components))], ofObjCTypes: "@@@")
    } else {
      coder.encodeValue(.integer(Int64(SequentialSpace.calibratedRGB)), ofObjCType: "c")
      coder.encodeValues(
        [color.red, color.green, color.blue, color.alpha].map { .float(Float($0)) }, ofObjCTypes: "ffff")
    }
  }
}
