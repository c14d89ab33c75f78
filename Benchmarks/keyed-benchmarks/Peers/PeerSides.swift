import Foundation

/// The peer sides, built from the twins: the toolchain's NSKeyedArchiver / NSKeyedUnarchiver on the NSCoding twin,
/// PropertyListEncoder (binary) / PropertyListDecoder and JSONEncoder / JSONDecoder on the Codable twin.
enum PeerSides {
  /// NSKeyedArchiver archiving the graph `build` makes.
  static func keyedArchiver<Input: BenchmarkInput>(_ input: Input.Type, build: @escaping (Input) -> Any) -> Side {
    .encoding("NSKeyedArchiver", input, build: build, encode: FoundationArchiving.archive)
  }

  /// NSKeyedUnarchiver reading what NSKeyedArchiver wrote of the graph `build` makes (that archiving is part of the
  /// side's setup, so it counts against the budget).
  static func keyedUnarchiver<Input: BenchmarkInput>(
    _ input: Input.Type, build: @escaping (Input) -> Any, check: @escaping (Any?, Input) -> String?
  ) -> Side {
    .decoding(
      "NSKeyedUnarchiver", input, archive: { try FoundationArchiving.archive(build($0)) },
      decode: FoundationArchiving.unarchive, check: check)
  }

  /// PropertyListEncoder (binary) and JSONEncoder encoding the Codable value `build` makes.
  static func codableEncoders<Input: BenchmarkInput, Model: Encodable>(
    _ input: Input.Type, suffix: String = "", build: @escaping (Input) -> Model
  ) -> [Side] {
    let plist = binaryEncoder()
    let json = JSONEncoder()
    return [
      .encoding("PropertyListEncoder\(suffix)", input, build: build, encode: { try plist.encode($0) }),
      .encoding("JSONEncoder\(suffix)", input, build: build, encode: { try json.encode($0) }),
    ]
  }

  /// PropertyListDecoder and JSONDecoder decoding what their encoders wrote of the value `build` makes.
  static func codableDecoders<Input: BenchmarkInput, Model: Codable>(
    _ input: Input.Type, _ model: Model.Type, suffix: String = "", build: @escaping (Input) -> Model,
    check: @escaping (Model, Input) -> String?
  ) -> [Side] {
    let plistEncoder = binaryEncoder()
    let plistDecoder = PropertyListDecoder()
    let jsonEncoder = JSONEncoder()
    let jsonDecoder = JSONDecoder()
    return [
      .decoding(
        "PropertyListDecoder\(suffix)", input, archive: { try plistEncoder.encode(build($0)) },
        decode: { try plistDecoder.decode(Model.self, from: $0) }, check: check),
      .decoding(
        "JSONDecoder\(suffix)", input, archive: { try jsonEncoder.encode(build($0)) },
        decode: { try jsonDecoder.decode(Model.self, from: $0) }, check: check),
    ]
  }

  /// The binary plist PropertyListEncoder writes of the value `build` makes: the bytes the bare walk reads while
  /// ours is pending.
  static func binaryPlist<Input: BenchmarkInput, Model: Encodable>(
    _ input: Input.Type, build: @escaping (Input) -> Model
  ) -> (source: String, archive: (Input) throws -> Data) {
    let encoder = binaryEncoder()
    return ("PropertyListEncoder", { try encoder.encode(build($0)) })
  }

  private static func binaryEncoder() -> PropertyListEncoder {
    let encoder = PropertyListEncoder()
    encoder.outputFormat = .binary
    return encoder
  }
}
