extension DecodingCoder {
  /// Runs the initialiser: a coder that decodes each object once has nothing to keep.
  public func decodePlainFields<Fields: PlainFields>(_ type: Fields.Type) throws -> Fields {
    try Fields(coder: self)
  }
}
