import ArchiveCoding
import FoundationForms
import PropertyList

/// The fields of the Foundation object the archiver is writing, as Foundation's forms write them (FORM-050): typed
/// encoding writes each value class through the form it is read with. Each field is written at once, its value
/// archived first (``ArchiveFieldSink``).
struct ArchiverFormSink: KeyedFormSink {
  let archiver: KeyedArchiver
  let fields: ArchiveFieldSink

  mutating func inline(_ value: CodedValue, forKey key: String) {
    fields.append(ArchiveField(key: key, value: .inline(Self.plainValue(value))))
  }

  mutating func plain(_ value: CodedValue, forKey key: String) {
    fields.append(ArchiveField(key: key, value: .uid(archiver.plainReference(Self.plainValue(value)))))
  }

  mutating func object(_ value: Any?, forKey key: String) {
    fields.append(ArchiveField(key: key, value: .uid(archiver.reference(for: value))))
  }

  /// A coded value as the property-list value it is written as.
  static func plainValue(_ value: CodedValue) -> PropertyListValue {
    switch value {
    case .bool(let v): .bool(v)
    case .integer(let v): .integer(v)
    case .unsignedInteger(let v): .integer(unsigned: v)
    case .float(let v): .float(v)
    case .double(let v): .real(v)
    case .bytes(let v): .data(v)
    case .string(let v): .string(v)
    }
  }
}

extension KeyedArchiver {
  /// Writes a Foundation object of class `className` whose fields `write` writes through its form.
  func formObject(className: String, _ write: (inout ArchiverFormSink) -> Void) -> Int {
    foundationObject(className: className) { fields in
      var sink = ArchiverFormSink(archiver: self, fields: fields)
      write(&sink)
    }
  }
}
