// libFuzzer target: the NIBArchive front end, parsing then deriving the nib structure.
import ArchiveCoding
import CompiledNib

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNIBArchive(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  var bytes = [UInt8](UnsafeBufferPointer(start: start, count: start == nil ? 0 : count))
  // Inputs without the magic get it prepended so that mutations reach past the header check.
  let magic = Array("NIBArchive".utf8)
  if !bytes.starts(with: magic) { bytes = magic + bytes }
  guard let document = try? NIBArchiveDocument(bytes: bytes) else { return 0 }
  _ = try? document.nibStructure()
  return 0
}
