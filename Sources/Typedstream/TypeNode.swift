import ArchiveCoding

/// One type of a typedstream type encoding (TS-010).
public indirect enum TypeNode: Hashable, Sendable {
  /// A one-character type: `c C B s S i I l L q Q f d + * % : # @ !`.
  case scalar(TypeCode)
  /// `[N t]`: N values of the element type.
  case array(count: Int, element: TypeNode)
  /// `{name=t...}`: the fields in order.
  case structure(name: [UInt8], fields: [TypeNode])

  /// The type codes a typedstream stores.
  public static let scalarCodes: Set<UInt8> = Set("cCBsSiIlLqQfd+*%:#@!".utf8)

  /// The type's encoding text, as bytes.
  public var encoding: [UInt8] {
    var out: [UInt8] = []
    append(to: &out)
    return out
  }

  private func append(to out: inout [UInt8]) {
    switch self {
    case .scalar(let code): out.append(code.byte)
    case .array(let count, let element):
      out.append(UInt8(ascii: "["))
      out += Array(String(count).utf8)
      element.append(to: &out)
      out.append(UInt8(ascii: "]"))
    case .structure(let name, let fields):
      out.append(UInt8(ascii: "{"))
      out += name
      out.append(UInt8(ascii: "="))
      for field in fields { field.append(to: &out) }
      out.append(UInt8(ascii: "}"))
    }
  }

  /// `true` for `[Nc]` and `[NC]`, whose elements are stored as N raw bytes.
  public var isByteArray: Bool {
    if case .array(_, .scalar(let code)) = self {
      return code.byte == UInt8(ascii: "c") || code.byte == UInt8(ascii: "C")
    }
    return false
  }

  /// Parses a type encoding into its types (TS-010).
  /// - Parameters:
  ///   - encoding: the encoding's bytes.
  ///   - maxDepth: the deepest nesting of arrays and structures accepted.
  ///   - offset: the byte offset of the encoding in the stream, for errors.
  /// - Throws: `ArchiveError` (`corruptData` or `unsupportedFormat`) naming the offending character.
  public static func parse(_ encoding: [UInt8], maxDepth: Int = 64, offset: Int? = nil) throws -> [TypeNode] {
    var parser = Parser(bytes: encoding, maxDepth: maxDepth, offset: offset)
    guard !encoding.isEmpty else { throw parser.error(.corruptData, "expected a type encoding, found an empty one") }
    var types: [TypeNode] = []
    while parser.position < encoding.count { types.append(try parser.type(depth: 0)) }
    return types
  }

  private struct Parser {
    let bytes: [UInt8]
    let maxDepth: Int
    let offset: Int?
    var position = 0

    init(bytes: [UInt8], maxDepth: Int, offset: Int?) {
      self.bytes = bytes
      self.maxDepth = maxDepth
      self.offset = offset
    }

    func error(_ code: ArchiveError.Code, _ message: String) -> ArchiveError {
      let text = String(decoding: bytes, as: UTF8.self)
      return ArchiveError(
        code, "type encoding \"\(text)\", character \(position): \(message)", at: .init(byteOffset: offset))
    }

    func found() -> String {
      guard position < bytes.count else { return "the end of the encoding" }
      let byte = bytes[position]
      return byte >= 0x20 && byte < 0x7F ? "'\(Unicode.Scalar(byte))'" : "byte 0x\(String(byte, radix: 16))"
    }

    mutating func type(depth: Int) throws -> TypeNode {
      guard depth < maxDepth else {
        throw error(.limitExceeded, "arrays and structures nest deeper than \(maxDepth)")
      }
      guard position < bytes.count else { throw error(.corruptData, "expected a type, found \(found())") }
      let byte = bytes[position]
      switch byte {
      case UInt8(ascii: "["):
        position += 1
        var count = 0
        var digits = 0
        while position < bytes.count, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9") {
          let (times, o1) = count.multipliedReportingOverflow(by: 10)
          let (sum, o2) = times.addingReportingOverflow(Int(bytes[position] - UInt8(ascii: "0")))
          guard !o1, !o2, sum <= Int(Int32.max) else { throw error(.limitExceeded, "array length too large") }
          count = sum
          digits += 1
          position += 1
        }
        guard digits > 0 else { throw error(.corruptData, "expected an array length, found \(found())") }
        let element = try type(depth: depth + 1)
        guard position < bytes.count, bytes[position] == UInt8(ascii: "]") else {
          throw error(.corruptData, "expected ']', found \(found())")
        }
        position += 1
        return .array(count: count, element: element)
      case UInt8(ascii: "{"):
        position += 1
        let start = position
        while position < bytes.count, bytes[position] != UInt8(ascii: "=") {
          let c = bytes[position]
          guard c != UInt8(ascii: "}"), c != UInt8(ascii: "{"), c != UInt8(ascii: "["), c != UInt8(ascii: "]") else {
            throw error(.corruptData, "expected '=' after the structure name, found \(found())")
          }
          position += 1
        }
        guard position < bytes.count else { throw error(.corruptData, "expected '=', found \(found())") }
        let name = Array(bytes[start..<position])
        position += 1
        var fields: [TypeNode] = []
        while position < bytes.count, bytes[position] != UInt8(ascii: "}") {
          fields.append(try type(depth: depth + 1))
        }
        guard position < bytes.count else { throw error(.corruptData, "expected '}', found \(found())") }
        position += 1
        return .structure(name: name, fields: fields)
      default:
        guard TypeNode.scalarCodes.contains(byte) else {
          throw error(.unsupportedFormat, "expected a typedstream type code, found \(found())")
        }
        position += 1
        return .scalar(TypeCode(byte))
      }
    }
  }
}
