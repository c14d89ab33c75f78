// libFuzzer target: a binary property list opened as `keyed dump --json` opens it (CheckedPropertyList, CLI-190),
// once with the reader's checks and the walk's checking pass side by side and once one after the other. Both must
// end, with the same error or the same canonical JSON; a difference stops the run.
import Foundation
import FoundationForms
import KeyedArchive
import PropertyList

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCheckedList(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  var bytes = Data(UnsafeBufferPointer(start: start, count: start == nil ? 0 : count))
  // Every input goes to the binary reader: inputs without the magic get it prepended.
  if !bytes.starts(with: Array("bplist0".utf8)) { bytes = Data("bplist00".utf8) + bytes }
  let sideBySide = outcome(bytes, sideBySideFrom: 0)
  let oneAfterTheOther = outcome(bytes, sideBySideFrom: .max)
  guard sideBySide == oneAfterTheOther else {
    fatalError("side by side: \(sideBySide)\none after the other: \(oneAfterTheOther)")
  }
  return 0
}

/// What opening and writing `data` gives: its canonical JSON, or its error.
func outcome(_ data: Data, sideBySideFrom threshold: Int) -> String {
  data.withUnsafeBytes { bytes in
    do {
      let checked = try CheckedPropertyList(store: ByteStore(borrowing: bytes), sideBySideFrom: threshold)
      guard var walk = checked.walk else { return "not a keyed archive" }
      var writer = CanonicalJSONWriter()
      try walk.write(to: &writer)
      return writer.text
    } catch {
      return "error: \(error)"
    }
  }
}
