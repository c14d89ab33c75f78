import ArchiveCoding

extension ObjectTable {
  /// The prefix of the placeholders through which a scene's view nib reaches the objects of its controller's nib,
  /// as Apple's compiled storyboards name them (`UpstreamPlaceholder-<id>`).
  static let upstreamPlaceholderPrefix = "UpstreamPlaceholder-"

  /// A storyboard scene cut in two, as Apple's storyboard compiler cuts it (NIB-311): the controller's nib, without
  /// its view, and the view's nib, whose File's Owner is the controller. `nil` when the controller has no `view`
  /// field (a navigation or tab bar controller: UIKit makes its view).
  ///
  /// The view's part is the view and what it reaches: the objects its fields refer to, and the destinations of the
  /// outlets and outlet collections those objects connect (a gesture recognizer a view lists), except the objects
  /// the controller reaches through its other fields (its navigation item and bar items), which the view's nib reaches
  /// through upstream placeholders (`UpstreamPlaceholder-<id>`), and the scene's placeholders, which it copies. Every
  /// connection whose source or destination is in the view's part moves to the view's nib, the controller's end
  /// becoming File's Owner; the view's nib connects File's Owner's `view` outlet to the view. The controller keeps a
  /// copy of each identified segue its view's controls trigger, but an embed.
  /// - Parameter controller: the index of the scene's controller.
  /// - Returns: the two tables, and the document id of the object of the controller's nib each upstream placeholder
  ///   of the view's nib stands for, by the placeholder's name.
  func splittingView(of controller: Int) -> (controller: ObjectTable, view: ObjectTable, upstream: [String: String])? {
    guard objects.indices.contains(controller),
      case .object(let view)? = objects[controller].field("view"), objects.indices.contains(view),
      objects[view].placeholder == nil, view != controller
    else { return nil }
    // The controller's own part: what its other fields reach.
    var controllerPart: Set<Int> = [controller]
    var queue = objects[controller].fields.filter { $0.key != "view" }.flatMap { Self.references(in: $0.value) }
    while let next = queue.popLast() {
      guard objects.indices.contains(next), objects[next].placeholder == nil, next != view,
        controllerPart.insert(next).inserted
      else { continue }
      queue += objects[next].fields.flatMap { Self.references(in: $0.value) }
    }
    // The view's part: what the view reaches through fields and through its objects' outlets.
    var outletsBySource: [Int: [Int]] = [:]
    for connection in connections where connection.kind == .outlet || connection.kind == .outletCollection {
      if let destination = connection.destination {
        outletsBySource[connection.source, default: []].append(destination)
      }
    }
    var viewPart: [Int] = []
    var inView: Set<Int> = []
    queue = [view]
    while let next = queue.popLast() {
      guard objects.indices.contains(next), objects[next].placeholder == nil, !controllerPart.contains(next),
        inView.insert(next).inserted
      else { continue }
      viewPart.append(next)
      queue += objects[next].fields.flatMap { Self.references(in: $0.value) }.reversed()
      queue += (outletsBySource[next] ?? []).reversed()
    }
    viewPart.sort()
    // The view's nib: File's Owner, then the placeholders and upstream objects it needs, then its objects.
    var records: [ObjectRecord] = [
      ObjectRecord(
        id: objects[controller].id, className: objects[controller].className,
        baseClassName: objects[controller].baseClassName, elementName: objects[controller].elementName,
        placeholder: .filesOwner, location: objects[controller].location)
    ]
    var local: [Int: Int] = [controller: 0]
    var upstream: [String: String] = [:]
    func outside(_ index: Int) -> Int? {
      if let mapped = local[index] { return mapped }
      guard objects.indices.contains(index), !inView.contains(index) else { return nil }
      var record = objects[index]
      if record.placeholder == nil {
        let name = Self.upstreamPlaceholderPrefix + record.id
        upstream[name] = record.id
        record.placeholder = .other(name)
      }
      record.fields = []
      local[index] = records.count
      records.append(record)
      return records.count - 1
    }
    for index in viewPart {
      local[index] = records.count
      records.append(objects[index])
    }
    func remap(_ value: FieldValue) -> FieldValue {
      switch value {
      case .object(let index): (local[index] ?? outside(index)).map(FieldValue.object) ?? .null
      case .array(let elements): .array(elements.map(remap))
      case .record(let name, let fields): .record(name, fields.map { ObjectField(key: $0.key, value: remap($0.value)) })
      default: value
      }
    }
    for index in viewPart {
      guard let position = local[index] else { continue }
      records[position].fields = objects[index].fields.map { ObjectField(key: $0.key, value: remap($0.value)) }
    }
    var viewConnections: [ConnectionRecord] = []
    var controllerConnections: [ConnectionRecord] = []
    var connectsView = false
    for connection in connections {
      let fromView = inView.contains(connection.source)
      let toView = connection.destination.map(inView.contains) ?? false
      guard fromView || toView else {
        controllerConnections.append(connection)
        continue
      }
      var moved = connection
      guard let source = local[connection.source] ?? outside(connection.source) else { continue }
      moved.source = source
      if let destination = connection.destination {
        moved.destination = local[destination] ?? outside(destination)
        if moved.destination == nil, connection.kind != .segue { continue }
      }
      if connection.kind == .outlet, connection.source == controller, connection.label == "view" { connectsView = true }
      viewConnections.append(moved)
      // As Apple's compiler keeps the segue templates of a scene on its controller, the controller knows the
      // identified segues its view's controls trigger (`performSegue(withIdentifier:sender:)` finds them before the
      // view loads); an embed segue stays with its container view, which performs it as the view loads (NIB-313).
      if connection.kind == .segue, fromView, !connection.label.isEmpty, connection.eventName != SegueTemplate.embedKind
      {
        var template = connection
        template.source = controller
        controllerConnections.append(template)
      }
    }
    if !connectsView, let position = local[view] {
      viewConnections.insert(
        ConnectionRecord(
          kind: .outlet, source: 0, destination: position, label: "view", location: objects[controller].location),
        at: 0)
    }
    let viewAttributes = runtimeAttributes.compactMap { attribute -> RuntimeAttributeRecord? in
      guard inView.contains(attribute.object), let object = local[attribute.object] else { return nil }
      var moved = attribute
      moved.object = object
      moved.value = remap(attribute.value)
      return moved
    }
    let viewTopLevel =
      [local[view]].compactMap { $0 }
      + topLevel.compactMap { index in
        index != view && inView.contains(index) ? local[index] : nil
      }
    let viewTable = ObjectTable(
      objects: records, topLevel: viewTopLevel, connections: viewConnections, runtimeAttributes: viewAttributes,
      visibleWindows: [], platform: platform, warnings: [])
    // The controller's nib: everything else, its connections into the view moved out.
    let kept = objects.indices.filter { !inView.contains($0) }
    var controllerTable = self
    controllerTable.connections = controllerConnections
    controllerTable.runtimeAttributes = runtimeAttributes.filter { !inView.contains($0.object) }
    controllerTable = controllerTable.restricted(to: kept)
    return (controllerTable, viewTable, upstream)
  }

  /// The indexes of the objects a value refers to.
  private static func references(in value: FieldValue) -> [Int] {
    switch value {
    case .object(let index): [index]
    case .array(let elements): elements.flatMap(references)
    case .record(_, let fields): fields.flatMap { references(in: $0.value) }
    default: []
    }
  }
}
