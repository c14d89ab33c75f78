// libFuzzer target: the typedstream reader; a stream it accepts is also decoded into Foundation forms, unarchived
// through the sequential coder (COD-127), read as a nib (NIB-203) and written back, and the written stream must
// read back to the same tree (TS-053).
import ArchiveCoding
import Foundation
import NibLoading
import Typedstream

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTypedstream(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  let bytes = Data(UnsafeBufferPointer(start: start, count: start == nil ? 0 : count))
  guard let archive = try? TypedstreamReader.read(bytes) else { return 0 }
  if let decoder = try? TypedstreamDecoder(archive) {
    for ordinal in 0..<decoder.objectCount { _ = try? decoder.form(of: ordinal) }
  }
  _ = try? TypedstreamNib(data: bytes)
  if let unarchiver = try? TypedstreamUnarchiver(archive: archive, registry: ClassRegistry()) {
    while let encoding = unarchiver.nextEncoding {
      guard (try? unarchiver.decodeValues(ofObjCTypes: encoding)) != nil else { break }
    }
  }
  guard let written = try? TypedstreamWriter.write(archive) else {
    fatalError("a tree the reader built does not write")
  }
  guard let reread = try? TypedstreamReader.read(written), reread == archive else {
    fatalError("the written stream does not read back to the same tree")
  }
  return 0
}
