import ArchiveCoding
import FoundationForms
import PropertyList

extension KeyedArchiveWalk {
  /// An archived object as the walk reads it: its class, and its fields, either read into a list (a key stored
  /// twice taken once, as a property-list dictionary takes it) or read in place through the layout its class's
  /// objects share (``ObjectLayout``).
  struct WalkedObject {
    enum Storage {
      case fields([KeyedArchiveGraph.Field], FieldPlan)
      /// The values read by position, as ``ObjectLayout/stored`` lists them.
      case laidOut([PropertyListValue], ObjectLayout)
    }

    var className: String
    var storage: Storage

    /// The value stored under `key` (the last one when it is stored twice).
    func value(forKey key: String, in archive: KeyedArchiveGraph) -> PropertyListValue? {
      switch storage {
      case .fields(let fields, _): return fields.last { $0.key == key }?.value
      case .laidOut(let values, let layout):
        guard let index = layout.stored.lastIndex(where: { $0.key == key }) else { return nil }
        return values[index]
      }
    }

    /// The values of the keys `prefix` + `0`, `1`, … up to the first one missing (an old-style collection's
    /// `NS.object.i`), found in one pass over the keys: looking each index up by name would cost time quadratic in
    /// their number.
    func numberedValues(_ prefix: String, in archive: KeyedArchiveGraph) -> [PropertyListValue] {
      var found: [Int: PropertyListValue] = [:]
      func add(_ key: String, _ value: @autoclosure () -> PropertyListValue?) {
        guard key.hasPrefix(prefix), let index = Int(key.dropFirst(prefix.count)), index >= 0,
          String(index) == key.dropFirst(prefix.count), let value = value()
        else { return }
        found[index] = value
      }
      switch storage {
      case .fields(let fields, _): for field in fields { add(field.key, field.value) }
      case .laidOut(let values, let layout):
        for (index, field) in layout.stored.enumerated() { add(field.key, values[index]) }
      }
      var values: [PropertyListValue] = []
      while let value = found[values.count] { values.append(value) }
      return values
    }

    /// The bytes of the keys the object stores (`$class` apart), which its view writes.
    var keyBytes: Int {
      switch storage {
      case .fields(let fields, _): fields.reduce(0) { $0 + $1.key.utf8.count }
      case .laidOut(_, let layout): layout.keyBytes
      }
    }

    /// The fields in the order of their names as written (``KeyedArchiveWalk/fieldName(_:)``).
    var memberCount: Int {
      switch storage {
      case .fields(_, let plan): plan.sorted.count
      case .laidOut(_, let layout): layout.sorted.count
      }
    }

    /// Member `index` in that order: its name and value.
    func member(_ index: Int, in archive: KeyedArchiveGraph) -> (name: String, value: PropertyListValue) {
      switch storage {
      case .fields(let fields, let plan):
        let member = plan.sorted[index]
        return (member.name, fields[member.position].value)
      case .laidOut(let values, let layout):
        let member = layout.sorted[index]
        return (member.name, values[member.position])
      }
    }
  }

  /// How the dictionaries of a class's objects are laid out when they store the same keys in the same order, as
  /// one archiver writes them: the key objects, where `$class` is, and the fields in the order of their names. An
  /// object laid out so is read by position, without reading its keys again.
  final class ObjectLayout {
    /// The key object at each position of the dictionary.
    let keyObjects: [Int]
    let classPosition: Int
    let classIndex: Int
    let description: KeyedArchiveClassDescription
    /// The string keys but `$class`, in stored order, by position.
    let stored: [(position: Int, key: String)]
    /// The fields in the order of their names: each one's place in ``stored`` and its name as written.
    let sorted: [(position: Int, name: String)]
    let keyBytes: Int

    init(
      keyObjects: [Int], classPosition: Int, classIndex: Int, description: KeyedArchiveClassDescription,
      stored: [(position: Int, key: String)]
    ) {
      self.keyObjects = keyObjects
      self.classPosition = classPosition
      self.classIndex = classIndex
      self.description = description
      self.stored = stored
      sorted = stored.indices.map { (position: $0, name: KeyedArchiveWalk.fieldName(stored[$0].key)) }
        .sorted { CanonicalText.precedes($0.name, $1.name) }
      keyBytes = stored.reduce(0) { $0 + $1.key.utf8.count }
    }

    /// The values of an object laid out so, in the order of ``stored``; `nil` when one cannot be read.
    func values(_ header: KeyedArchiveGraph.Header, _ archive: KeyedArchiveGraph) -> [PropertyListValue]? {
      var values: [PropertyListValue] = []
      values.reserveCapacity(stored.count)
      for field in stored {
        guard let value = archive.fieldValue(ofObject: archive.valueObject(header, field.position)) else {
          return nil
        }
        values.append(value)
      }
      return values
    }

    func matches(_ header: KeyedArchiveGraph.Header, _ archive: KeyedArchiveGraph) -> Bool {
      guard header.count == keyObjects.count else { return false }
      for position in 0..<header.count where archive.keyObject(header, position) != keyObjects[position] {
        return false
      }
      return archive.reference(ofObject: archive.valueObject(header, classPosition)) == classIndex
    }
  }

  /// The layout of object `uid`'s dictionary: one of the last met, or a new one; `nil` for an object whose
  /// dictionary is out of the ordinary (a key that is not a string or cannot be read, a key stored twice, `$class`
  /// missing or stored twice, a class description that cannot be read), which is then read field by field.
  mutating func layout(of uid: Int, _ header: KeyedArchiveGraph.Header) -> ObjectLayout? {
    for index in layouts.indices.reversed() where layouts[index].matches(header, archive) {
      return layouts[index]
    }
    var keyObjects: [Int] = []
    var stored: [(position: Int, key: String)] = []
    var seen: Set<String> = []
    var classPosition: Int?
    for position in 0..<header.count {
      let object = archive.keyObject(header, position)
      keyObjects.append(object)
      guard let key = try? archive.keyString(object) else { return nil }
      if KeyedArchiveGraph.isClassKey(key) {
        guard classPosition == nil else { return nil }
        classPosition = position
      } else {
        guard seen.insert(key).inserted else { return nil }
        stored.append((position, key))
      }
    }
    guard let classPosition, let classIndex = archive.reference(ofObject: archive.valueObject(header, classPosition)),
      classIndex > 0, classIndex != uid, let description = try? archive.classDescription(classIndex, of: uid)
    else { return nil }
    let layout = ObjectLayout(
      keyObjects: keyObjects, classPosition: classPosition, classIndex: classIndex, description: description,
      stored: stored)
    if layouts.count == 8 { layouts.removeFirst() }
    layouts.append(layout)
    return layout
  }

  /// Class object `index` read field by field, as the walk reads an object that is out of the ordinary.
  mutating func walkedObject(
    _ index: Int, description: KeyedArchiveClassDescription? = nil
  ) throws -> WalkedObject {
    let description = try description ?? archive.classDescription(ofObject: index)
    let stored = try archive.fields(of: index, className: description.name)
    let plan = fieldPlan(description.index, stored)
    return WalkedObject(
      className: description.name, storage: .fields(plan.hasDuplicates ? Self.deduplicated(stored) : stored, plan))
  }
}
