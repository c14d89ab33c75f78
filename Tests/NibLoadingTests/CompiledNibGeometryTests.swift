import Foundation
import NibLoading
import Testing

@Suite("CompiledNibGeometry")
struct CompiledNibGeometryTests {
  static func float64(_ numbers: [Double]) -> Data {
    var data = Data([0x07])
    for number in numbers { withUnsafeBytes(of: number.bitPattern.littleEndian) { data.append(contentsOf: $0) } }
    return data
  }

  static func float32(_ numbers: [Float]) -> Data {
    var data = Data([0x06])
    for number in numbers { withUnsafeBytes(of: number.bitPattern.littleEndian) { data.append(contentsOf: $0) } }
    return data
  }

  @Test("NIBA-049: float64 and float32 geometry data give their elements")
  func data() {
    #expect(CompiledNibGeometry.numbers(from: Self.float64([0, 0, 375, 667])) == [0, 0, 375, 667])
    #expect(CompiledNibGeometry.numbers(from: Self.float64([187.5, -333.5])) == [187.5, -333.5])
    #expect(CompiledNibGeometry.numbers(from: Self.float32([1.5, 2, 3, 4, 5, 6])) == [1.5, 2, 3, 4, 5, 6])
    #expect(CompiledNibGeometry.numbers(from: Data([0x07])) == [])
    // A slice keeps working: indices do not start at 0.
    let padded = Data([0xFF]) + Self.float64([1, 2])
    #expect(CompiledNibGeometry.numbers(from: padded.dropFirst()) == [1, 2])
  }

  @Test(
    "NIBA-049: data with an unknown type byte or a partial element is not geometry",
    arguments: [Data(), Data([0x05, 0, 0, 0, 0]), Data([0x07, 0, 0, 0]), Data([0x06, 0, 0, 0, 0, 0])])
  func badData(_ data: Data) {
    #expect(CompiledNibGeometry.numbers(from: data) == nil)
  }

  @Test("NIBA-049: geometry strings give their numbers in reading order")
  func strings() {
    #expect(CompiledNibGeometry.numbers(from: "{{0, 0}, {320, 480}}") == [0, 0, 320, 480])
    #expect(CompiledNibGeometry.numbers(from: "{160, 240}") == [160, 240])
    #expect(CompiledNibGeometry.numbers(from: "{{-20.5, 1e3}, {100, 22}}") == [-20.5, 1000, 100, 22])
    #expect(CompiledNibGeometry.numbers(from: "{10000000000000, 10000000000000}") == [1e13, 1e13])
  }

  @Test(
    "NIBA-049: malformed geometry strings give no value",
    arguments: ["", "{}", "{{0, 0}, {320, 480}", "{0, 0}}", "{a, b}", "{1..2, 3}", "{nan, 1}", "{1e999, 2}"])
  func badStrings(_ text: String) {
    #expect(CompiledNibGeometry.numbers(from: text) == nil)
  }
}
