import ArchiveCoding
import Foundation
import FoundationForms
import PropertyList

extension KeyedArchiver {
  /// `NSDecimalNumber` in Darwin's layout: inline `NS.exponent`, `NS.length`, `NS.negative`, `NS.compact`,
  /// `NS.mantissa` (16 bytes) and `NS.mantissa.bo` (1: little-endian words).
  func encodeDecimal(_ value: Decimal) -> Int {
    guard let form = DecimalWireForm(value) else {
      failWithError(ArchiveError(.invalidValue, "cannot archive the decimal \(value): its significand is unreadable"))
      return 0
    }
    return foundationObject(className: FoundationClass.decimalNumber) { fields in
      fields.append(ArchiveField(key: FoundationKeys.nsExponent, value: .inline(.integer(form.exponent))))
      fields.append(ArchiveField(key: FoundationKeys.nsLength, value: .inline(.integer(form.length))))
      fields.append(ArchiveField(key: FoundationKeys.nsNegative, value: .inline(.bool(form.negative))))
      fields.append(ArchiveField(key: FoundationKeys.nsCompact, value: .inline(.bool(form.compact))))
      fields.append(ArchiveField(key: FoundationKeys.nsMantissa, value: .inline(.data(form.mantissaBytes))))
      fields.append(
        ArchiveField(key: FoundationKeys.nsMantissaByteOrder, value: .inline(.integer(DecimalWireForm.littleEndian))))
    }
  }

  /// `NSNotification`: `NS.name` string, `NS.object` and `NS.userinfo` objects (`nil` when absent).
  func encodeNotification(_ value: Notification) -> Int {
    foundationObject(className: FoundationClass.notification) { fields in
      fields.append(
        ArchiveField(key: FoundationKeys.nsName, value: .uid(self.plainReference(.string(value.name.rawValue)))))
      fields.append(ArchiveField(key: FoundationKeys.nsObject, value: .uid(self.reference(for: value.object))))
      fields.append(ArchiveField(key: FoundationKeys.nsUserInfoLower, value: .uid(self.reference(for: value.userInfo))))
    }
  }

  /// `NSAttributedString`: `NSString`, then for a non-empty string `NSAttributes` (a dictionary when one run covers
  /// the string, else an array of the distinct dictionaries plus `NSAttributeInfo` data naming each run's length
  /// and dictionary).
  func encodeAttributedString(_ value: NSAttributedString) -> Int {
    let name =
      value is NSMutableAttributedString ? FoundationClass.mutableAttributedString : FoundationClass.attributedString
    return foundationObject(className: name, identity: value) { fields in
      fields.append(
        ArchiveField(key: FoundationKeys.attributedString, value: .uid(self.plainReference(.string(value.string)))))
      let length = value.length
      guard length > 0 else { return }
      var runs: [(length: Int, attributes: [String: Any])] = []
      value.enumerateAttributes(in: NSRange(location: 0, length: length), options: []) { attributes, range, _ in
        var plain: [String: Any] = [:]
        for (key, value) in attributes { plain[key.rawValue] = value }
        runs.append((range.length, plain))
      }
      if runs.count == 1, let only = runs.first {
        fields.append(ArchiveField(key: FoundationKeys.attributes, value: .uid(self.reference(for: only.attributes))))
        return
      }
      var distinct: [[String: Any]] = []
      var infos: [AttributeRunInfo.Run] = []
      for run in runs {
        let index =
          distinct.firstIndex { NSDictionary(dictionary: $0).isEqual(to: run.attributes) }
          ?? {
            distinct.append(run.attributes)
            return distinct.count - 1
          }()
        infos.append(AttributeRunInfo.Run(length: run.length, index: index))
      }
      fields.append(ArchiveField(key: FoundationKeys.attributes, value: .uid(self.reference(for: distinct))))
      fields.append(
        ArchiveField(
          key: FoundationKeys.attributeInfo, value: .uid(self.plainReference(.data(AttributeRunInfo.encode(infos))))))
    }
  }
}
