// libFuzzer target: the compiled-nib table builder (NIBArchive and keyed-archive nibs, and XIB), as the loader
// reads a file.
import ArchiveCoding
import Foundation
import NibLoading

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCompiledNib(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  let bytes = Data(UnsafeBufferPointer(start: start, count: start == nil ? 0 : count))
  _ = try? NibReader.objectTable(from: bytes, fileName: "fuzz.nib")
  return 0
}
