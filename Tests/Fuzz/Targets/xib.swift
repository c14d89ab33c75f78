// libFuzzer target: the XIB/storyboard front end, parsing then building the object table.
import ArchiveCoding
import XIB

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXIB(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  let bytes = [UInt8](UnsafeBufferPointer(start: start, count: start == nil ? 0 : count))
  guard let document = try? XIBDocument(parsing: bytes, fileName: "fuzz.xib") else { return 0 }
  _ = document.objectTable()
  return 0
}
