import Foundation

extension Side {
  /// An encoding side: `build` makes the twin's object graph from the input before the clock starts; `encode` is
  /// timed.
  /// - Parameters:
  ///   - label: the name in reports.
  ///   - input: the input type (`FlatInput.self`, ...).
  ///   - build: makes the model to encode from the generated input (untimed).
  ///   - encode: the measured operation; returns the archive.
  ///   - check: optionally checks one archive against the input (untimed, after the warm-up run).
  static func encoding<Input: BenchmarkInput, Model>(
    _ label: String, _ input: Input.Type, build: @escaping (Input) throws -> Model,
    encode: @escaping (Model) throws -> Data, check: ((Data, Input) -> String?)? = nil
  ) -> Side {
    Side(label: label) { n, inputs in
      let input: Input = inputs.input(count: n)
      let model = try build(input)
      let repetitions = input.repetitions
      return PreparedRun(
        objects: input.objectCount * repetitions, operations: repetitions,
        warmUp: {
          let data = try encode(model)
          if data.isEmpty { return (0, "the archive is empty") }
          return (data.count, check?(data, input))
        },
        run: {
          for _ in 0..<repetitions { Blackhole.consume(try encode(model)) }
        })
    }
  }

  /// A decoding side: `archive` makes the bytes before the clock starts; `decode` is timed.
  /// - Parameters:
  ///   - label: the name in reports.
  ///   - input: the input type (`FlatInput.self`, ...).
  ///   - archive: makes the archive this side reads from the input (untimed; counts against the time budget).
  ///   - decode: the measured operation; returns the decoded model.
  ///   - check: checks one decoded model against the input (untimed, after the warm-up run); nil when it matches.
  static func decoding<Input: BenchmarkInput, Model>(
    _ label: String, _ input: Input.Type, archive: @escaping (Input) throws -> Data,
    decode: @escaping (Data) throws -> Model, check: @escaping (Model, Input) -> String?
  ) -> Side {
    Side(
      label: label,
      prepare: { n, inputs in
        let input: Input = inputs.input(count: n)
        let data = try archive(input)
        let repetitions = input.repetitions
        return PreparedRun(
          objects: input.objectCount * repetitions, operations: repetitions,
          warmUp: { (data.count, check(try decode(data), input)) },
          run: {
            for _ in 0..<repetitions { Blackhole.consume(try decode(data)) }
          })
      },
      archive: { n, inputs in try archive(inputs.input(count: n) as Input) })
  }

  /// The floor of a decoding case: the bare walk over a binary plist (`BinaryPlistWalker`), which touches every
  /// object's marker byte and allocates nothing.
  /// - Parameters:
  ///   - source: names the bytes walked ("ours", "PropertyListEncoder").
  ///   - input: the input type, for the object count.
  ///   - archive: the bytes to walk at size `n`.
  static func bareWalk<Input: BenchmarkInput>(
    of source: String, _ input: Input.Type, archive: @escaping (_ n: Int, _ inputs: InputCache) throws -> Data
  ) -> Side {
    Side(label: "bare walk (\(source) bytes)", role: .floor) { n, inputs in
      let input: Input = inputs.input(count: n)
      let data = try archive(n, inputs)
      let repetitions = input.repetitions
      return PreparedRun(
        objects: input.objectCount * repetitions, operations: repetitions,
        warmUp: {
          guard BinaryPlistWalker.walk(data) != nil else { return (data.count, "not a binary plist") }
          return (data.count, nil)
        },
        run: {
          for _ in 0..<repetitions { Blackhole.consume(BinaryPlistWalker.walk(data)) }
        })
    }
  }
}
