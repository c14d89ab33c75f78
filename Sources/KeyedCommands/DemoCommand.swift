/// `keyed demo` (CLI-050): the bundled example, end to end.
struct DemoCommand: Command {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "demo", abstract: "Run the bundled example end to end.",
      overview: """
        Run the bundled example: archive a model graph with a cycle to a file and back, load views from
        XIBs, and draw one XIB with keyed render.
        """)
  }

  func run(_ context: inout Context) throws {
    try context.demo()
  }
}
