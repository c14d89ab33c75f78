import Foundation
import KeyedCommands
import PropertyList

let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()

/// A keyed archive whose root is one object of `className` with `fields`, and `extra` entries after it; the class
/// description comes last.
func formArchive(
  className: String, fields: [(String, PropertyListValue)], extra: [PropertyListValue] = [],
  classes: [String]? = nil
) throws -> Data {
  let classUID = PropertyListValue.uid(UInt64(2 + extra.count))
  var object = PropertyListDictionary(fields.map { (PropertyListValue.string($0.0), $0.1) })
  object["$class"] = classUID
  let chain = (classes ?? [className, "NSObject"]).map { PropertyListValue.string($0) }
  let classDescription: PropertyListValue = ["$classname": .string(className), "$classes": .array(chain)]
  let archive: PropertyListValue = [
    "$archiver": "NSKeyedArchiver", "$version": 100_000, "$top": ["root": .uid(1)],
    "$objects": .array(["$null", .dictionary(object)] + extra + [classDescription]),
  ]
  return try PropertyListWriter.write(archive)
}

/// `keyed dump --json` of `data`, in-process: the status and the output line.
func dumpJSON(_ data: Data) -> (status: Int32, output: String, errors: String) {
  let result = KeyedTool.run(["dump", "--json", "-"], standardInput: { data })
  return (result.status, result.output.trimmingCharacters(in: .newlines), result.errors)
}
