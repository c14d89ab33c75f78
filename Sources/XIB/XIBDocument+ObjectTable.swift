import ArchiveCoding
import Foundation

extension XIBDocument {
  /// The document as the format-neutral object table the nib loader instantiates (XIB-130…XIB-136).
  ///
  /// - Objects keep their document ids and document order; the class is the custom class (module-qualified when
  ///   `customModule` is given and not provided by the target), with the element's class as the base class.
  /// - Fields are the element's attributes (as strings, converted on decoding) followed by its keyed children:
  ///   geometry as points, sizes and rectangles, object children and collections as references by index,
  ///   structured values (`<color>`, `<fontDescription>`, `<state>`, `<autoresizingMask>`) as records.
  /// - Connections keep document order; actions carry UIKit's event mask for their `eventType`.
  public func objectTable() -> ObjectTable {
    var indexByID: [String: Int] = [:]
    for (index, object) in objects.enumerated() { indexByID[object.id] = index }
    let file = fileName
    func location(_ line: Int, _ column: Int) -> ArchiveError.Location {
      .init(file: file, line: line > 0 ? line : nil, column: column > 0 ? column : nil)
    }
    func field(_ value: XIBValue) -> FieldValue {
      switch value {
      case .null: return .null
      case .bool(let v): return .bool(v)
      case .integer(let v): return .integer(Int64(v))
      case .real(let v): return .real(v)
      case .string(let v): return .string(v)
      case .data(let v): return .data(Data(v))
      case .rect(let x, let y, let w, let h): return .rect(x: x, y: y, width: w, height: h)
      case .point(let x, let y): return .point(x: x, y: y)
      case .size(let w, let h): return .size(width: w, height: h)
      case .object(let id): return indexByID[id].map { .object($0) } ?? .null
      case .archivedReference(let name): return .string(name)
      case .array(let members): return .array(members.map(field))
      case .element(let element):
        var fields = element.attributes.map { ObjectField(key: $0.name, value: .string($0.value)) }
        fields += element.values.map { ObjectField(key: $0.key, value: field($0.value)) }
        if !element.items.isEmpty { fields.append(ObjectField(key: "items", value: .array(element.items.map(field)))) }
        if !element.text.isEmpty { fields.append(ObjectField(key: "text", value: .string(element.text))) }
        return .record(element.name, fields)
      }
    }
    let skipped: Set<String> = ["id", "customClass", "customModule", "customModuleProvider", "key", "userLabel"]
    var records: [ObjectRecord] = []
    var runtimeAttributes: [RuntimeAttributeRecord] = []
    records.reserveCapacity(objects.count)
    for (index, object) in objects.enumerated() {
      var className = object.className
      if let custom = object.customClass {
        if let module = object.customModule, object.customModuleProvider != "target" {
          className = "\(module).\(custom)"
        } else {
          className = custom
        }
      }
      var fields = object.attributes.filter { !skipped.contains($0.name) }.map {
        ObjectField(key: $0.name, value: .string($0.value))
      }
      fields += object.values.map { ObjectField(key: $0.key, value: field($0.value)) }
      records.append(
        ObjectRecord(
          id: object.id, className: className, baseClassName: object.className, elementName: object.elementName,
          placeholder: object.placeholder.map(Self.placeholder), fields: fields,
          location: location(object.line, object.column)))
      for attribute in object.runtimeAttributes {
        runtimeAttributes.append(
          RuntimeAttributeRecord(
            object: index, keyPath: attribute.keyPath, value: Self.runtimeValue(attribute, field(attribute.value)),
            location: location(attribute.line, attribute.column)))
      }
    }
    var connections: [ConnectionRecord] = []
    var warnings = self.warnings.map(\.description)
    for connection in self.connections {
      guard let source = indexByID[connection.sourceID] else { continue }
      let destination = connection.destinationID.flatMap { indexByID[$0] }
      let at = location(connection.line, connection.column)
      switch connection.kind {
      case .outlet, .outletCollection:
        connections.append(
          ConnectionRecord(
            kind: connection.kind == .outlet ? .outlet : .outletCollection, source: source, destination: destination,
            label: connection.property ?? "", id: connection.id, location: at))
      case .action:
        connections.append(
          ConnectionRecord(
            kind: .action, source: source, destination: destination, label: connection.selector ?? "",
            eventMask: connection.eventType.flatMap { Self.eventMasks[$0] }, eventName: connection.eventType,
            id: connection.id, location: at))
      case .segue:
        connections.append(
          ConnectionRecord(
            kind: .segue, source: source, destination: destination, label: connection.identifier ?? "",
            eventName: connection.segueKind, id: connection.id, location: at, unwindAction: connection.unwindAction))
      case .binding:
        warnings.append("\(at): warning: Cocoa bindings are not connected (binding \(connection.id ?? "?"))")
      }
    }
    var topLevel: [Int] = []
    for (index, object) in objects.enumerated()
    where object.isTopLevel || (object.isPlaceholder && object.parentID == nil) {
      topLevel.append(index)
    }
    return ObjectTable(
      objects: records, topLevel: topLevel, connections: connections, runtimeAttributes: runtimeAttributes,
      visibleWindows: objects.indices.filter { objects[$0].boolAttribute("visibleAtLaunch") == true },
      platform: targetRuntime.usesUIKit ? .uiKit : .appKit, warnings: warnings)
  }

  static func placeholder(_ placeholder: XIBPlaceholder) -> Placeholder {
    switch placeholder {
    case .filesOwner: .filesOwner
    case .firstResponder: .firstResponder
    case .application: .application
    case .external(let identifier): .external(identifier)
    case .exit: .other("exit")
    case .storyboardReference(let name, let identifier): .other("storyboardReference:\(name ?? "")/\(identifier ?? "")")
    }
  }

  /// Runtime attributes typed by their `type`: booleans from `YES`/`NO`, numbers from text.
  static func runtimeValue(_ attribute: XIBRuntimeAttribute, _ value: FieldValue) -> FieldValue {
    switch (attribute.type, value) {
    case ("boolean", .string(let text)): return .bool(text == "YES" || text == "true")
    case ("number", .string(let text)): return Double(text).map(FieldValue.real) ?? value
    case ("nil", _): return .null
    default: return value
    }
  }

  /// UIKit's `UIControl.Event` bits by XIB `eventType` name.
  static let eventMasks: [String: UInt64] = [
    "touchDown": 1 << 0, "touchDownRepeat": 1 << 1, "touchDragInside": 1 << 2, "touchDragOutside": 1 << 3,
    "touchDragEnter": 1 << 4, "touchDragExit": 1 << 5, "touchUpInside": 1 << 6, "touchUpOutside": 1 << 7,
    "touchCancel": 1 << 8, "valueChanged": 1 << 12, "primaryActionTriggered": 1 << 13, "menuActionTriggered": 1 << 14,
    "editingDidBegin": 1 << 16, "editingChanged": 1 << 17, "editingDidEnd": 1 << 18, "editingDidEndOnExit": 1 << 19,
  ]
}
