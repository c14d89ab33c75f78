import ArchiveCoding
import ArchiveTesting
import Foundation
import PropertyList
import Testing

@testable import KeyedArchive

/// `Measurement`, `AffineTransform` and ``ArchivedSortDescriptor`` against the toolchain's `NSKeyedArchiver` /
/// `NSKeyedUnarchiver` where it codes the class, and against Darwin's layouts where it does not.
@Suite("Measurements, affine transforms and sort descriptors")
struct UnitsAndTransformsTests {
  static let measurements: [Measurement<Unit>] = [
    Measurement(value: 3.5, unit: UnitLength.kilometers), Measurement(value: 20, unit: UnitTemperature.celsius),
    Measurement(value: -2, unit: UnitMass.pounds), Measurement(value: 0.25, unit: UnitDuration.hours),
    Measurement(value: 7, unit: Unit(symbol: "widgets")),
  ]

  @Test("ARC-155: toolchain archives of NSMeasurement decode to equal Measurement<Unit>s under secure coding")
  func measurementsFromTheToolchain() throws {
    for measurement in Self.measurements {
      let theirs = FoundationOracle.archive(NSMeasurement(doubleValue: measurement.value, unit: measurement.unit))
      let back = try #require(try KeyedUnarchiver.unarchivedObject(ofClass: Measurement<Unit>.self, from: theirs))
      #expect(back.value == measurement.value)
      #expect(back.unit.symbol == measurement.unit.symbol)
      #expect(type(of: back.unit) == type(of: measurement.unit), "\(measurement)")
      if let dimension = measurement.unit as? Dimension, let decoded = back.unit as? Dimension {
        #expect(decoded.converter.baseUnitValue(fromValue: 10) == dimension.converter.baseUnitValue(fromValue: 10))
      }
    }
  }

  @Test("ARC-155: our Measurement archives decode in the toolchain as equal NSMeasurements")
  func measurementsToTheToolchain() throws {
    for measurement in Self.measurements {
      let ours = try KeyedArchiver.archivedData(withRootObject: measurement)
      let unarchiver = try NSKeyedUnarchiver(forReadingFrom: ours)
      unarchiver.requiresSecureCoding = false
      let back = try #require(unarchiver.decodeObject(forKey: "root") as? NSMeasurement)
      unarchiver.finishDecoding()
      #expect(back.doubleValue == measurement.value)
      #expect(back.unit.symbol == measurement.unit.symbol)
      #expect(type(of: back.unit) == type(of: measurement.unit), "\(measurement)")
      if let dimension = measurement.unit as? Dimension, let decoded = back.unit as? Dimension {
        #expect(decoded.converter.baseUnitValue(fromValue: 10) == dimension.converter.baseUnitValue(fromValue: 10))
      }
    }
  }

  @Test("ARC-155: our NSMeasurement uses the toolchain's class names, $classes chains and keys")
  func measurementLayout() throws {
    let measurement = Measurement<Unit>(value: 3.5, unit: UnitLength.kilometers)
    let ours = try KeyedArchiver.archivedData(withRootObject: measurement)
    let theirs = FoundationOracle.archive(NSMeasurement(doubleValue: 3.5, unit: UnitLength.kilometers))
    #expect(try Self.layout(ours) == Self.layout(theirs))
  }

  /// Every object's class name with its chain and sorted keys, in a stable order.
  static func layout(_ archive: Data) throws -> [String] {
    let plist = try PropertyListReader.read(archive)
    let objects = try #require(plist.dictionaryValue?["$objects"]?.arrayValue)
    return try objects.compactMap { object -> String? in
      guard let fields = object.dictionaryValue, let classUID = fields["$class"]?.uidValue else { return nil }
      let description = try #require(objects[Int(classUID)].dictionaryValue)
      let chain = description["$classes"]?.arrayValue?.compactMap(\.stringValue) ?? []
      let keys = fields.entries.compactMap(\.key.stringValue).sorted()
      return "\(chain) \(keys)"
    }.sorted()
  }

  static let transforms: [AffineTransform] = [
    .identity, AffineTransform(translationByX: 3, byY: -4), AffineTransform(scaleByX: 2, byY: 0.5),
    AffineTransform(m11: 2, m12: 0, m21: 0, m22: 5, tX: 6, tY: 20),
    AffineTransform(m11: 0, m12: 1, m21: -1, m22: 0, tX: 1.5, tY: 2.25),
  ]

  @Test("ARC-161: toolchain archives of NSAffineTransform (its unkeyed array of reals) decode to AffineTransform")
  func transformsFromTheToolchain() throws {
    for transform in Self.transforms {
      let theirs = FoundationOracle.archive(NSAffineTransform(transform: transform))
      #expect(try KeyedUnarchiver.unarchivedObject(ofClass: AffineTransform.self, from: theirs) == transform)
    }
  }

  @Test("ARC-161: our AffineTransform archives decode in the toolchain as equal NSAffineTransforms")
  func transformsToTheToolchain() throws {
    for transform in Self.transforms {
      let ours = try KeyedArchiver.archivedData(withRootObject: transform)
      let back = try #require(try FoundationOracle.unarchive(ours) as? NSAffineTransform)
      #expect(back as AffineTransform == transform, "\(transform)")
    }
  }

  @Test("ARC-161: AffineTransform archives as NSAffineTransform with Darwin's NSTransformStruct and round-trips")
  func transformsRoundTrip() throws {
    for transform in Self.transforms {
      let ours = try KeyedArchiver.archivedData(withRootObject: transform)
      let (fields, className, _) = try rootObject(ours)
      #expect(className == "NSAffineTransform")
      guard case .data(let bytes)? = fields["NSTransformStruct"] else {
        Issue.record("NSTransformStruct is not data")
        continue
      }
      #expect(bytes.count == 24)
      #expect(try KeyedUnarchiver.unarchivedObject(ofClass: AffineTransform.self, from: ours) == transform)
    }
  }

  /// Darwin's compact `NSTransformStruct` forms: big-endian 32-bit reals (the layout of Darwin's
  /// `-[NSAffineTransform encodeWithCoder:]`, as public disassembly and Cocotron's reader describe it): six reals;
  /// four for a scale with a translation; a tag byte 1 and a translation; a tag byte 2 and a scale.
  static let darwinForms: [(words: [UInt32], tag: UInt8?, expected: AffineTransform)] = [
    (
      [0x3F80_0000, 0x4000_0000, 0xC000_0000, 0x3F80_0000, 0x4040_0000, 0x4080_0000], nil,
      AffineTransform(m11: 1, m12: 2, m21: -2, m22: 1, tX: 3, tY: 4)
    ),
    (
      [0x4000_0000, 0x3F00_0000, 0x4040_0000, 0x4080_0000], nil,
      AffineTransform(m11: 2, m12: 0, m21: 0, m22: 0.5, tX: 3, tY: 4)
    ),
    ([0x4040_0000, 0xC080_0000], 1, AffineTransform(translationByX: 3, byY: -4)),
    ([0x4000_0000, 0x4040_0000], 2, AffineTransform(scaleByX: 2, byY: 3)),
  ]

  @Test("ARC-161: each of Darwin's NSTransformStruct forms decodes")
  func darwinTransformForms() throws {
    for (words, tag, expected) in Self.darwinForms {
      var bytes = Data(tag.map { [$0] } ?? [])
      for word in words { withUnsafeBytes(of: word.bigEndian) { bytes.append(contentsOf: $0) } }
      let data = try handMadeArchive(className: "NSAffineTransform", fields: [("NSTransformStruct", .data(bytes))])
      #expect(try KeyedUnarchiver.unarchivedObject(ofClass: AffineTransform.self, from: data) == expected)
    }
  }

  /// Darwin's `-[NSSortDescriptor encodeWithCoder:]` writes `NSKey` (string), `NSAscending` (boolean) and
  /// `NSSelector` (the selector's name), as Interface Builder's archived table columns show
  /// (`NSSortDescriptorPrototype`); the toolchain has no `NSSortDescriptor` coding.
  @Test("ARC-162: a Darwin-layout NSSortDescriptor decodes as ArchivedSortDescriptor and round-trips")
  func sortDescriptors() throws {
    let data = try handMadeArchive(
      className: "NSSortDescriptor",
      fields: [("NSKey", .uid(2)), ("NSAscending", false), ("NSSelector", .uid(3))],
      extra: ["name", "localizedStandardCompare:"])
    let decoded = try #require(try KeyedUnarchiver.unarchivedObject(ofClass: ArchivedSortDescriptor.self, from: data))
    #expect(decoded == ArchivedSortDescriptor(key: "name", ascending: false, selector: "localizedStandardCompare:"))
    let ours = try KeyedArchiver.archivedData(withRootObject: [decoded, ArchivedSortDescriptor(key: "age")])
    let back = try #require(
      try KeyedUnarchiver.unarchivedArrayOfObjects(ofClass: ArchivedSortDescriptor.self, from: ours))
    #expect(back == [decoded, ArchivedSortDescriptor(key: "age", ascending: true, selector: "compare:")])
    let (fields, _, objects) = try rootObject(try KeyedArchiver.archivedData(withRootObject: decoded))
    #expect(Set(fields.entries.compactMap(\.key.stringValue)) == ["NSKey", "NSAscending", "NSSelector", "$class"])
    #expect(fields["NSKey"]?.uidValue.map { objects[Int($0)] } == "name")
  }

  @Test("ARC-155, ARC-161, ARC-162: under secure coding each value is refused when the call asked for another type")
  func secureCodingRefusesOthers() throws {
    let values: [Any] = [
      Measurement<Unit>(value: 1, unit: UnitLength.meters), AffineTransform.identity,
      ArchivedSortDescriptor(key: "k"),
    ]
    for value in values {
      let archive = try KeyedArchiver.archivedData(withRootObject: value)
      #expect(throws: ArchiveError.self) {
        _ = try KeyedUnarchiver.unarchivedObject(ofClass: String.self, from: archive)
      }
    }
  }
}

/// Hand-made measurement, unit, transform and sort descriptor objects with fields of the wrong type, truncated or
/// absurd: each is an `ArchiveError` naming the object and the key.
@Suite("Hostile measurements, transforms and sort descriptors")
struct HostileUnitsAndTransformsTests {
  @Test("ARC-155: corrupt NSMeasurement fields")
  func measurements() throws {
    try HostileFoundationValueTests.expectError(
      Measurement<Unit>.self, "NSMeasurement", [("NS.value", "3")], key: "NS.value")
    try HostileFoundationValueTests.expectError(
      Measurement<Unit>.self, "NSMeasurement", [("NS.value", 3)], key: "NS.unit")
    try Self.expectNestedRefusal(
      Measurement<Unit>.self, "NSMeasurement", [("NS.value", 3), ("NS.unit", .uid(2))], extra: ["km"], key: "NS.unit")
    // A unit without its symbol or converter, and a converter that is not finite.
    let unitClass: PropertyListValue = [
      "$classname": "NSUnitLength", "$classes": ["NSUnitLength", "NSDimension", "NSUnit", "NSObject"],
    ]
    let converterClass: PropertyListValue = [
      "$classname": "NSUnitConverterLinear", "$classes": ["NSUnitConverterLinear", "NSUnitConverter", "NSObject"],
    ]
    for (unit, converter, key) in [
      (["NS.converter": .uid(4), "$class": .uid(3)], ["NS.coefficient": 1.0, "$class": .uid(5)], "NS.symbol"),
      (["NS.symbol": "km", "$class": .uid(3)], ["NS.coefficient": 1.0, "$class": .uid(5)], "NS.converter"),
      (
        ["NS.symbol": "km", "NS.converter": .uid(4), "$class": .uid(3)],
        ["NS.coefficient": .real(.infinity), "$class": .uid(5)], "NS.coefficient"
      ),
      (
        ["NS.symbol": "km", "NS.converter": .uid(4), "$class": .uid(3)],
        ["NS.coefficient": "1000", "$class": .uid(5)], "NS.coefficient"
      ),
    ] as [(PropertyListValue, PropertyListValue, String)] {
      let data = try handMadeArchive(
        className: "NSMeasurement", fields: [("NS.value", 3), ("NS.unit", .uid(2))],
        extra: [unit, unitClass, converter, converterClass])
      #expect {
        _ = try KeyedUnarchiver.unarchivedObject(ofClass: Measurement<Unit>.self, from: data)
      } throws: { error in
        let location = (error as? ArchiveError)?.location
        return location?.keyPath?.hasSuffix(key) == true && location?.objectIndex != nil
      }
    }
  }

  /// An object of another class where a nested object is expected: refused by secure coding, naming the key and the
  /// object found.
  static func expectNestedRefusal<T>(
    _ type: T.Type, _ className: String, _ fields: [(String, PropertyListValue)], extra: [PropertyListValue],
    key: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let data = try handMadeArchive(className: className, fields: fields, extra: extra)
    #expect(sourceLocation: sourceLocation) {
      _ = try KeyedUnarchiver.unarchivedObject(ofClass: type, from: data)
    } throws: { error in
      let error = error as? ArchiveError
      return error?.code == .classNotAllowed && error?.location.keyPath?.hasSuffix(key) == true
        && error?.location.objectIndex == 2
    }
  }

  @Test("ARC-161: NSTransformStruct of another length or type, and a bad unkeyed array, are errors naming the key")
  func transforms() throws {
    try HostileFoundationValueTests.expectError(
      AffineTransform.self, "NSAffineTransform", [("NSTransformStruct", .data(Data([1, 2, 3])))],
      key: "NSTransformStruct")
    try HostileFoundationValueTests.expectError(
      AffineTransform.self, "NSAffineTransform", [("NSTransformStruct", .data(Data(count: 9)))],
      key: "NSTransformStruct")
    try HostileFoundationValueTests.expectError(
      AffineTransform.self, "NSAffineTransform", [("NSTransformStruct", "identity")], key: "NSTransformStruct")
    try Self.expectNestedRefusal(
      AffineTransform.self, "NSAffineTransform", [("$0", .uid(2))], extra: ["six"], key: "$0")
  }

  @Test("ARC-161: the toolchain's unkeyed array with an absurd count or a missing element is refused")
  func oldStyleArrays() throws {
    for (fields, key) in [
      ([("NS.count", PropertyListValue.integer(1 << 40)), ("NS.type", 102), ("NS.size", 4)], "NS.count"),
      ([("NS.count", 2), ("NS.type", 102), ("NS.size", 4), ("$0", 1.0)], "$1"),
      ([("NS.count", 1), ("NS.type", 64), ("NS.size", 4), ("$0", 1.0)], "NS.type"),
      ([("NS.count", 1), ("NS.type", 102), ("NS.size", 4), ("$0", "one")], "$0"),
    ] as [([(String, PropertyListValue)], String)] {
      let arrayUID = PropertyListValue.uid(2)
      var array = PropertyListDictionary(fields.map { (PropertyListValue.string($0.0), $0.1) })
      array["$class"] = .uid(3)
      let data = try handMadeArchive(
        className: "NSAffineTransform", fields: [("$0", arrayUID)],
        extra: [
          .dictionary(array),
          ["$classname": "_NSKeyedCoderOldStyleArray", "$classes": ["_NSKeyedCoderOldStyleArray", "NSObject"]],
        ])
      #expect {
        _ = try KeyedUnarchiver.unarchivedObject(ofClass: AffineTransform.self, from: data)
      } throws: { error in
        (error as? ArchiveError)?.location.keyPath?.hasSuffix(key) == true
      }
    }
  }

  @Test(
    "ARC-155, ARC-161, ARC-162: every truncation and bit flip of each archive decodes or fails with an ArchiveError")
  func truncationsAndBitFlips() throws {
    let archives: [(Data, [Any.Type])] = [
      (
        FoundationOracle.archive(NSMeasurement(doubleValue: 3.5, unit: UnitLength.kilometers)),
        [Measurement<Unit>.self]
      ),
      (
        FoundationOracle.archive(
          NSAffineTransform(transform: AffineTransform(m11: 0, m12: 1, m21: -1, m22: 0, tX: 2, tY: 3))),
        [AffineTransform.self]
      ),
      (
        try KeyedArchiver.archivedData(withRootObject: ArchivedSortDescriptor(key: "name")),
        [ArchivedSortDescriptor.self]
      ),
    ]
    for (data, types) in archives {
      var variants = (0..<data.count).map { data.prefix($0) }
      for index in data.indices {
        var flipped = data
        flipped[index] ^= 0x5A
        variants.append(flipped)
      }
      for variant in variants {
        do { _ = try KeyedUnarchiver.unarchivedObject(ofClasses: types, from: Data(variant)) } catch is ArchiveError {
        } catch {
          Issue.record("\(types): \(error)")
        }
      }
    }
  }

  @Test("ARC-162: corrupt NSSortDescriptor fields")
  func sortDescriptors() throws {
    try HostileFoundationValueTests.expectError(
      ArchivedSortDescriptor.self, "NSSortDescriptor", [("NSKey", 5)], key: "NSKey")
    try HostileFoundationValueTests.expectError(
      ArchivedSortDescriptor.self, "NSSortDescriptor", [("NSAscending", "yes")], key: "NSAscending")
    try HostileFoundationValueTests.expectError(
      ArchivedSortDescriptor.self, "NSSortDescriptor", [("NSSelector", .real(1))], key: "NSSelector")
  }
}
