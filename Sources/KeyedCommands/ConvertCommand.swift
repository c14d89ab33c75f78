/// `keyed convert FILE -o OUT [--format binary|xml|typedstream]` (CLI-020): re-encodes without loss, atomically.
struct ConvertCommand: Command {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "convert", abstract: "Re-encode a property list, keyed archive or typedstream, losslessly and atomically.",
      overview: """
        Re-encode a property list, keyed archive or typedstream without loss, or convert between
        a keyed archive and a typedstream.
        """)
  }

  @Argument("FILE", help: "The input file, or - for standard input.")
  var path: String
  @Option("-o", "--output", value: "OUT", help: "The output file, written atomically.")
  var out: String
  @Option(
    "--format", value: "FORMAT", choices: ["binary", "xml", "typedstream"],
    help: """
      binary (default) or xml; for a typedstream input, typedstream (its default,
      in the input's byte order). Between a keyed archive and a typedstream, the
      root object converts when its classes are Foundation's; another class
      exits 65, named.
      """)
  var format: String?

  func run(_ context: inout Context) throws {
    try context.convert(path, to: out, format: format)
  }
}
