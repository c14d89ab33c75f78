/// `NSLocale` (ARC-150): its identifier (`NS.identifier`).
package struct LocaleForm: Hashable, Sendable {
  package var identifier: String

  package init(identifier: String) { self.identifier = identifier }

  /// Reads the keyed form.
  /// - Throws: ``FormMismatch`` without a string `NS.identifier`.
  package init(keyed source: inout some KeyedFormSource) throws {
    identifier = try source.requiredString(FoundationKeys.nsIdentifier, of: FoundationClass.locale)
  }

  /// What it means.
  package var value: FoundationValue { .locale(identifier: identifier) }
}

extension LocaleForm {
  /// Writes the keyed form: `NS.identifier`.
  package func write(to sink: inout some KeyedFormSink) {
    sink.plain(.string(identifier), forKey: FoundationKeys.nsIdentifier)
  }
}
