import Foundation
import Testing

@testable import ArchiveCoding

@Suite("Geometry strings")
struct GeometryStringTests {
  @Test(
    "COD-101: numbers are written as %.17g writes them, as Darwin's NSStringFromCGRect does",
    arguments: [
      (0.0, "0"), (320.0, "320"), (20.5, "20.5"), (-2.0, "-2"), (0.1, "0.10000000000000001"),
      (1e300, "1.0000000000000001e+300"),
    ])
  func numbersAreWrittenLikeDarwin(value: Double, text: String) {
    #expect(GeometryString.format(value) == text)
  }

  @Test(
    "COD-101: strict shapes accept spaces and any decimal number, and nothing else",
    arguments: [
      ("{{0, 0}, {320, 480}}", GeometryString.rectShape, [0.0, 0, 320, 480]),
      ("{{0.0, 0.0}, {320.0, 480.0}}", GeometryString.rectShape, [0.0, 0, 320, 480]),
      ("{{0,0},{1e2,-4.5}}", GeometryString.rectShape, [0.0, 0, 100, -4.5]),
      ("  {10, 20}  ", GeometryString.pointShape, [10.0, 20]),
      ("[1, 0, 0, 1, 5, 6]", GeometryString.transformShape, [1.0, 0, 0, 1, 5, 6]),
    ])
  func wellFormedStringsParse(text: String, shape: String, values: [Double]) {
    #expect(GeometryString.parse(text, shape: shape) == values)
  }

  @Test(
    "COD-101: malformed geometry strings are refused",
    arguments: [
      ("", GeometryString.pointShape),  // empty
      ("{10, 20", GeometryString.pointShape),  // unclosed
      ("{10, 20}}", GeometryString.pointShape),  // trailing bracket
      ("{10; 20}", GeometryString.pointShape),  // wrong separator
      ("{10, 20, 30}", GeometryString.pointShape),  // one number too many
      ("{10}", GeometryString.pointShape),  // one number too few
      ("{0x10, 20}", GeometryString.pointShape),  // hexadecimal
      ("{--1, 2}", GeometryString.pointShape),  // not a number
      ("{{0, 0}, {320}}", GeometryString.rectShape),  // short size
      ("{1, 2, 3, 4}", GeometryString.rectShape),  // flat list for a rectangle
      ("{1, 0, 0, 1, 5, 6}", GeometryString.transformShape),  // braces for a transform
      ("{1,\t2}", GeometryString.pointShape),  // a tab
    ])
  func malformedStringsAreRefused(text: String, shape: String) {
    #expect(GeometryString.parse(text, shape: shape) == nil)
  }
}
