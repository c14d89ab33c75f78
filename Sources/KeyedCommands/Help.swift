/// Help texts, in the OVERVIEW / USAGE / ARGUMENTS / OPTIONS layout (CLI-003).
enum Help {
  static let overview = """
    OVERVIEW: Read, write and inspect Apple keyed archives, property lists, XIBs and nibs.

    USAGE: keyed <command> [options] FILE

    COMMANDS:
      demo        Run the bundled example end to end.
      dump        Print a property list, keyed archive, typedstream, XIB or nib (tree, or canonical JSON).
      convert     Re-encode a property list, keyed archive or typedstream, losslessly and atomically.
      validate    Check a file fully without printing it.
      instantiate Load a XIB, storyboard or nib through the full pipeline.
      compile     Compile a XIB into a nib, or a storyboard into a .storyboardc folder.
      diff        Compare two archives, property lists, XIBs or nibs by meaning.
      render      Draw a XIB, storyboard or nib as SVG, or as HTML with its objects and connections.
      help        Show help for a command.

    Run 'keyed help <command>' or 'keyed <command> --help' for details. 'keyed --version' prints the version.

    """

  static let verbs: [String: String] = [
    "dump": """
    OVERVIEW: Print a property list, keyed archive, typedstream (NSArchiver), XIB or nib.

    USAGE: keyed dump [--json] [--raw] [--pretty] [--dot] FILE

    ARGUMENTS:
      FILE        The input file, or - for standard input.

    OPTIONS:
      --json      Print canonical JSON (one line unless --pretty).
      --raw       Print the property list itself, before any archive interpretation; for a typedstream,
                  the stream's own values (classes, typed fields, shared references).
      --pretty    Indent JSON output.
      --dot       Print a Graphviz graph of a XIB's or nib's objects: the hierarchy as solid edges, outlets,
                  actions and segues as dashed edges (render with: dot -Tpng).
      -h, --help  Show this help.

    """,
    "convert": """
    OVERVIEW: Re-encode a property list, keyed archive or typedstream without loss, or convert between
    a keyed archive and a typedstream.

    USAGE: keyed convert FILE -o OUT [--format binary|xml|typedstream]

    ARGUMENTS:
      FILE                The input file, or - for standard input.

    OPTIONS:
      -o, --output OUT    The output file, written atomically.
      --format FORMAT     binary (default) or xml; for a typedstream input, typedstream (its default,
                          in the input's byte order). Between a keyed archive and a typedstream, the
                          root object converts when its classes are Foundation's; another class
                          exits 65, named.
      -h, --help          Show this help.

    """,
    "validate": """
    OVERVIEW: Check a file fully (every object decoded) without printing it.

    USAGE: keyed validate FILE

    ARGUMENTS:
      FILE        The input file, or - for standard input.

    OPTIONS:
      -h, --help  Show this help.

    """,
    "instantiate": """
    OVERVIEW: Load a XIB, storyboard or compiled nib through the full pipeline (decode, outlets, actions, awake)
    with the built-in interface object catalog.

    USAGE: keyed instantiate [--owner CLASS] [--stats] [--json] [--trace | --trace-all] FILE

    ARGUMENTS:
      FILE            A .xib, .storyboard, .nib file or .nib directory, or - for standard input.

    OPTIONS:
      --owner CLASS   The class name of File's Owner (a generic object accepting every outlet and action).
      --stats         Print the counts of objects, placeholders, connections and awakened objects.
      --json          With --stats (or alone): the counts as one JSON object.
      --trace         Print the pipeline's events in order: decode, outlet, collection, action, awake.
      --trace-all     As --trace, with the runtime attributes set and the segues recorded as well.
      -h, --help      Show this help.

    """,
    "compile": """
    OVERVIEW: Compile a XIB into a keyed-archive nib (Apple's iOS nib keys), or each storyboard scene into
    OUT.storyboardc/ with an Info.plist.

    USAGE: keyed compile FILE -o OUT [--format binary|xml]

    ARGUMENTS:
      FILE                A .xib or .storyboard file, or - for standard input.

    OPTIONS:
      -o, --output OUT    The nib file (or storyboardc folder) to write; files are written atomically.
      --format FORMAT     binary (default) or xml.
      -h, --help          Show this help.

    """,
    "diff": """
    OVERVIEW: Compare two keyed archives, property lists, XIBs, storyboards or nibs by meaning, not bytes:
    XIB objects matched by their id, archive and compiled-nib objects by their position in the graph.
    Prints one line per difference, <path>: <what A has> -> <what B has>.

    USAGE: keyed diff [--json] [--pretty] A B

    ARGUMENTS:
      A           The first file (or .nib directory), or - for standard input.
      B           The second file (or .nib directory).

    OPTIONS:
      --json      Print the differences as a JSON array of {"path": ..., "a": ..., "b": ...}, values in
                  canonical JSON (null where a side has nothing).
      --pretty    Indent JSON output.
      -h, --help  Show this help.

    Exit status: 0 when A and B are equal, 1 when they differ, 65 when either is malformed.
    As git's difftool: git difftool -x 'keyed diff' -- FILE.xib

    """,
    "render": """
    OVERVIEW: Draw a XIB, storyboard or compiled nib as its designer would recognise it: every view at its frame,
    texts, colours, controls, placeholders beside the canvas, storyboard scenes side by side with their segues.

    USAGE: keyed render FILE -o OUT.svg|OUT.html [--scene ID]

    ARGUMENTS:
      FILE                A .xib, .storyboard or .nib file, a .nib or .storyboardc folder, or - for standard input.

    OPTIONS:
      -o, --output OUT    The picture to write: .svg (standalone), or .html (the drawing with the object tree
                          and the connection list; each entry highlights its objects in the drawing).
      --scene ID          Draw one scene: a controller's id or storyboard identifier, a window's title, a view's id.
      -h, --help          Show this help.

    """,
    "demo": """
    OVERVIEW: Run the bundled example: archive a model graph with a cycle to a file and back, load views from
    XIBs, and draw one XIB with keyed render.

    USAGE: keyed demo

    OPTIONS:
      -h, --help  Show this help.

    """,
    "help": """
    OVERVIEW: Show help for a command.

    USAGE: keyed help [COMMAND]

    ARGUMENTS:
      COMMAND     A command name.

    OPTIONS:
      -h, --help  Show this help.

    """,
  ]
}
