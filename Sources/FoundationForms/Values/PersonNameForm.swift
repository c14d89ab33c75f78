import Foundation

/// `NSPersonNameComponents` (ARC-154): each part a string object or `$null`, and a reference to the phonetic
/// representation (another `NSPersonNameComponents`).
package struct PersonNameForm {
  /// The parts present, in the order of ``FoundationKeys/personNameParts``.
  package var parts: [FoundationValue.PersonNameValue.Part]
  package var phonetic: KeyedFormPart<Int>

  /// Reads the keyed form.
  /// - Throws: ``FormMismatch`` for a part that is not a string.
  package init(keyed source: inout some KeyedFormSource) throws {
    parts = []
    for part in FoundationKeys.personNameParts {
      guard let text = try source.string(part.key) else { continue }
      parts.append(.init(name: part.name, text: text))
    }
    phonetic = try source.part { try $0.reference(FoundationKeys.nsPhoneticRepresentation) }
  }

  /// The text of the part named `name` (`givenName`, …), or `nil`.
  package func part(_ name: String) -> String? { parts.first { $0.name == name }?.text }

  /// What it means, with the phonetic representation resolved by the caller.
  package func value(phonetic: FoundationValue?) -> FoundationValue {
    .personName(.init(parts: parts, phonetic: phonetic))
  }
}

extension PersonNameForm {
  /// The parts of `PersonNameComponents` the form holds, in the order of ``FoundationKeys/personNameParts``.
  package static var partPaths: [WritableKeyPath<PersonNameComponents, String?>] {
    [\.namePrefix, \.givenName, \.middleName, \.familyName, \.nameSuffix, \.nickname]
  }

  /// The name components, with the phonetic representation its reference resolves to.
  package func nameComponents(phonetic: PersonNameComponents?) -> PersonNameComponents {
    var name = PersonNameComponents()
    for (part, path) in zip(FoundationKeys.personNameParts, Self.partPaths) {
      name[keyPath: path] = self.part(part.name)
    }
    if let phonetic { name.phoneticRepresentation = phonetic }
    return name
  }
}

extension PersonNameForm {
  /// Writes the keyed form of `name`: each part (`$null` when absent), then the phonetic representation when there
  /// is one.
  package static func write(_ name: PersonNameComponents, to sink: inout some KeyedFormSink) {
    for (part, path) in zip(FoundationKeys.personNameParts, partPaths) {
      if let text = name[keyPath: path] {
        sink.plain(.string(text), forKey: part.key)
      } else {
        sink.object(nil, forKey: part.key)
      }
    }
    if let phonetic = name.phoneticRepresentation {
      sink.object(phonetic, forKey: FoundationKeys.nsPhoneticRepresentation)
    }
  }
}
