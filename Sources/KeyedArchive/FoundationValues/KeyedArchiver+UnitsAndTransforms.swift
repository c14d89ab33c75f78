import Foundation
import FoundationForms
import PropertyList

// `Measurement` (ARC-155), `AffineTransform` (ARC-161) and ``ArchivedSortDescriptor`` (ARC-162) archived as the
// Foundation classes Apple writes for them.

extension Measurement: KeyedArchiveValue {
  func archiveReference(in archiver: KeyedArchiver) -> Int {
    let unitUID = archiver.unitReference(unit)
    return archiver.foundationObject(className: FoundationClass.measurement) { fields in
      fields.append(ArchiveField(key: FoundationKeys.nsValue, value: .inline(.real(value))))
      fields.append(ArchiveField(key: FoundationKeys.nsUnit, value: .uid(unitUID)))
    }
  }
}

extension AffineTransform: KeyedArchiveValue {
  /// Darwin's `NSTransformStruct`, and the toolchain's unkeyed array of the six reals under `$0`, so that both
  /// unarchivers read it (each ignores the other's key).
  func archiveReference(in archiver: KeyedArchiver) -> Int {
    let reals = [m11, m12, m21, m22, tX, tY].map { Double(Float($0)) }
    let arrayUID = archiver.foundationObject(
      className: FoundationClass.oldStyleArray, chain: [FoundationClass.oldStyleArray, FoundationClass.object]
    ) { fields in
      fields.append(ArchiveField(key: FoundationKeys.oldStyleArrayCount, value: .inline(.integer(Int64(reals.count)))))
      fields.append(
        ArchiveField(key: FoundationKeys.oldStyleArrayType, value: .inline(.integer(Int64(UInt8(ascii: "f"))))))
      fields.append(ArchiveField(key: FoundationKeys.oldStyleArraySize, value: .inline(.integer(4))))
      for (index, real) in reals.enumerated() {
        fields.append(ArchiveField(key: ArchiveKeys.unkeyedKey(index), value: .inline(.real(real))))
      }
    }
    return archiver.foundationObject(className: FoundationClass.affineTransform) { fields in
      fields.append(ArchiveField(key: FoundationKeys.nsTransformStruct, value: .inline(.data(Self.structBytes(self)))))
      fields.append(ArchiveField(key: ArchiveKeys.unkeyedKey(0), value: .uid(arrayUID)))
    }
  }

  /// Darwin's six-real form of `NSTransformStruct`: `m11 m12 m21 m22 tX tY` as big-endian 32-bit reals.
  static func structBytes(_ transform: AffineTransform) -> Data {
    var bytes = Data(capacity: 24)
    for value in [transform.m11, transform.m12, transform.m21, transform.m22, transform.tX, transform.tY] {
      withUnsafeBytes(of: Float(value).bitPattern.bigEndian) { bytes.append(contentsOf: $0) }
    }
    return bytes
  }
}

extension ArchivedSortDescriptor: KeyedArchiveValue {
  func archiveReference(in archiver: KeyedArchiver) -> Int {
    let keyUID = key.map { archiver.stringReference($0) } ?? 0
    let selectorUID = selector.map { archiver.stringReference($0) } ?? 0
    return archiver.foundationObject(className: FoundationClass.sortDescriptor) { fields in
      fields.append(ArchiveField(key: FoundationKeys.nsSortKey, value: .uid(keyUID)))
      fields.append(ArchiveField(key: FoundationKeys.nsAscending, value: .inline(.bool(ascending))))
      fields.append(ArchiveField(key: FoundationKeys.nsSelector, value: .uid(selectorUID)))
    }
  }
}

extension KeyedArchiver {
  /// An `NSUnit` or `NSDimension` subclass for `unit` (its symbol, and a dimension's converter to the base unit as an
  /// `NSUnitConverterLinear`), shared by identity.
  func unitReference(_ unit: Unit) -> Int {
    let dimension = unit as? Dimension
    let className = FoundationClass.archivedName(ofUnit: unit)
    let chain =
      dimension == nil
      ? [FoundationClass.unit, FoundationClass.object]
      : className == FoundationClass.dimension
        ? [className, FoundationClass.unit, FoundationClass.object]
        : [className, FoundationClass.dimension, FoundationClass.unit, FoundationClass.object]
    let converterUID = dimension.map { linearConverterReference($0.converter) }
    let symbolUID = stringReference(unit.symbol)
    return foundationObject(className: className, chain: chain, identity: unit) { fields in
      fields.append(ArchiveField(key: FoundationKeys.nsSymbol, value: .uid(symbolUID)))
      if let converterUID { fields.append(ArchiveField(key: FoundationKeys.nsConverter, value: .uid(converterUID))) }
    }
  }

  /// An `NSUnitConverterLinear` for `converter`; another converter is written as the line through its values at 0 and
  /// 1 (every converter Foundation defines is linear).
  private func linearConverterReference(_ converter: UnitConverter) -> Int {
    let constant = converter.baseUnitValue(fromValue: 0)
    let coefficient = converter.baseUnitValue(fromValue: 1) - constant
    return foundationObject(
      className: FoundationClass.unitConverterLinear,
      chain: [FoundationClass.unitConverterLinear, FoundationClass.unitConverter, FoundationClass.object]
    ) { fields in
      fields.append(ArchiveField(key: FoundationKeys.nsCoefficient, value: .inline(.real(coefficient))))
      fields.append(ArchiveField(key: FoundationKeys.nsConstant, value: .inline(.real(constant))))
    }
  }
}
