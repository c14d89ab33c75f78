// libFuzzer target: the binary property list reader (`bplist00`), then the writers on whatever it accepts.
import Foundation
import PropertyList

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBinaryPropertyList(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  var bytes = Data(UnsafeBufferPointer(start: start, count: start == nil ? 0 : count))
  // Every input goes to the binary reader: inputs without the magic get it prepended.
  if !bytes.starts(with: Array("bplist0".utf8)) { bytes = Data("bplist00".utf8) + bytes }
  guard let value = try? PropertyListReader.read(bytes, fileName: "fuzz.plist") else { return 0 }
  // An accepted value must be writable in both forms and read back.
  for format in [PropertyListFormat.binary, .xml] {
    if let written = try? PropertyListWriter.write(value, format: format) {
      _ = try? PropertyListReader.read(written)
    }
  }
  return 0
}
