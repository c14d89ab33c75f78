// libFuzzer target: the XML property list reader, then the writers on whatever it accepts.
import Foundation
import PropertyList

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXMLPropertyList(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  let bytes = Data(UnsafeBufferPointer(start: start, count: start == nil ? 0 : count))
  // Only inputs the dispatcher sends to the XML reader are interesting here.
  guard PropertyListReader.format(of: bytes) == .xml else { return 0 }
  guard let value = try? PropertyListReader.read(bytes, fileName: "fuzz.plist") else { return 0 }
  for format in [PropertyListFormat.binary, .xml] {
    if let written = try? PropertyListWriter.write(value, format: format) {
      _ = try? PropertyListReader.read(written)
    }
  }
  return 0
}
