import ArchiveCoding
import Foundation
import FoundationForms
import KeyedArchive
import Testing

/// A model holding a distance, as an app would write it (issue #40's example).
final class Route: SecureCoding {
  static var supportsSecureCoding: Bool { true }
  var distance: Measurement<UnitLength>?
  var duration: Measurement<UnitDuration>?

  init(distance: Measurement<UnitLength>?, duration: Measurement<UnitDuration>?) {
    self.distance = distance
    self.duration = duration
  }

  required init(coder: any DecodingCoder) throws {
    distance = try coder.decodeObject(of: Measurement<UnitLength>.self, forKey: "distance")
    duration = try coder.decodeObject(of: Measurement<UnitDuration>.self, forKey: "duration")
  }

  func encode(with coder: any EncodingCoder) {
    coder.encodeObject(distance, forKey: "distance")
    coder.encodeObject(duration, forKey: "duration")
  }
}

/// Typed decoding of Foundation's generic values (FORM-040): every `Measurement` decodes from `NSMeasurement`.
@Suite("Measurements of every unit type")
struct MeasurementDecodingTests {
  init() { ClassRegistry.shared.register(Route.self, as: "Route") }

  @Test("FORM-040: decodeObject(of: Measurement<UnitLength>.self, forKey:) decodes under secure coding")
  func routeDecodes() throws {
    let route = Route(
      distance: Measurement(value: 42.195, unit: .kilometers), duration: Measurement(value: 2, unit: .hours))
    let data = try KeyedArchiver.archivedData(withRootObject: route)
    let back = try #require(try KeyedUnarchiver.unarchivedObject(ofClass: Route.self, from: data))
    #expect(back.distance == route.distance && back.distance?.unit.symbol == "km")
    #expect(back.duration == route.duration)
  }

  @Test(
    "FORM-040: a measurement of each Dimension type decodes as its own Measurement type, and as Measurement<Unit>",
    arguments: [
      Measurement(value: 1.5, unit: UnitLength.miles) as any Sendable, Measurement(value: 3, unit: UnitMass.grams),
      Measurement(value: 20, unit: UnitTemperature.celsius), Measurement(value: 5, unit: UnitSpeed.knots),
      Measurement(value: 9, unit: UnitVolume.liters), Measurement(value: 90, unit: UnitAngle.degrees),
      Measurement(value: 2, unit: UnitDuration.minutes), Measurement(value: 4, unit: UnitEnergy.joules),
    ])
  func everyDimension(value: any Sendable) throws {
    let data = try KeyedArchiver.archivedData(withRootObject: value)
    func decoded<T>(_ type: T.Type) throws -> T? { try KeyedUnarchiver.unarchivedObject(ofClass: type, from: data) }
    switch value {
    case let m as Measurement<UnitLength>: #expect(try decoded(Measurement<UnitLength>.self) == m)
    case let m as Measurement<UnitMass>: #expect(try decoded(Measurement<UnitMass>.self) == m)
    case let m as Measurement<UnitTemperature>: #expect(try decoded(Measurement<UnitTemperature>.self) == m)
    case let m as Measurement<UnitSpeed>: #expect(try decoded(Measurement<UnitSpeed>.self) == m)
    case let m as Measurement<UnitVolume>: #expect(try decoded(Measurement<UnitVolume>.self) == m)
    case let m as Measurement<UnitAngle>: #expect(try decoded(Measurement<UnitAngle>.self) == m)
    case let m as Measurement<UnitDuration>: #expect(try decoded(Measurement<UnitDuration>.self) == m)
    case let m as Measurement<UnitEnergy>: #expect(try decoded(Measurement<UnitEnergy>.self) == m)
    default: Issue.record("unexpected value \(value)")
    }
    let general = try #require(try decoded(Measurement<Unit>.self))
    #expect(general.unit is Dimension && !general.unit.symbol.isEmpty)
    let dimension = try #require(try decoded(Measurement<Dimension>.self))
    #expect(dimension.value == general.value && dimension.unit.symbol == general.unit.symbol)
  }

  @Test("FORM-040: a measurement of another dimension is a type mismatch naming the type asked for")
  func otherDimensionRefused() throws {
    let data = try KeyedArchiver.archivedData(withRootObject: Measurement(value: 3, unit: UnitLength.meters))
    #expect {
      _ = try KeyedUnarchiver.unarchivedObject(ofClass: Measurement<UnitMass>.self, from: data)
    } throws: { error in
      let error = error as? ArchiveError
      return error?.code == .typeMismatch && error?.message.contains("UnitMass") == true
    }
  }

  @Test("FORM-040: an allowed-classes message never lists nothing")
  func allowedClassesNeverEmpty() throws {
    struct Nothing {}
    let data = try KeyedArchiver.archivedData(withRootObject: "text")
    #expect {
      _ = try KeyedUnarchiver.unarchivedObject(ofClass: Nothing.self, from: data)
    } throws: { error in
      let message = (error as? ArchiveError)?.message ?? ""
      return message.contains("not among the allowed classes") && !message.hasSuffix("classes ")
        && message.contains("has no archived class")
    }
  }
}
