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
      case laidOut(KeyedArchiveGraph.Header, ObjectLayout)
    }

    var className: String
    var storage: Storage

    /// The value stored under `key` (the last one when it is stored twice).
    func value(forKey key: String, in archive: KeyedArchiveGraph) -> PropertyListValue? {
      switch storage {
      case .fields(let fields, _): return fields.last { $0.key == key }?.value
      case .laidOut(let header, let layout):
        guard let position = layout.stored.last(where: { $0.key == key })?.position else { return nil }
        return archive.fieldValue(ofObject: archive.valueObject(header, position))
      }
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
      case .laidOut(let header, let layout):
        let member = layout.sorted[index]
        return (member.name, archive.fieldValue(ofObject: archive.valueObject(header, member.position)) ?? .null)
      }
    }
  }

  /// How the dictionaries of a class's objects are laid out when they store the same keys in the same order, as
  /// one archiver writes them: the key objects, where `$class` is, and the fields in the order of their names. An
  /// object laid out so is read by position, without reading its keys again.
  struct ObjectLayout {
    /// The key object at each position of the dictionary.
    var keyObjects: [Int]
    var classPosition: Int
    var classIndex: Int
    var description: KeyedArchiveClassDescription
    /// The string keys but `$class`, in stored order, by position.
    var stored: [(position: Int, key: String)]
    /// The fields in the order of their names, by position.
    var sorted: [(position: Int, name: String)]
    var keyBytes: Int

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
    var classPosition: Int?
    for position in 0..<header.count {
      let object = archive.keyObject(header, position)
      keyObjects.append(object)
      guard let key = try? archive.keyString(object) else { return nil }
      if KeyedArchiveGraph.isClassKey(key) {
        guard classPosition == nil else { return nil }
        classPosition = position
      } else {
        guard !stored.contains(where: { $0.key == key }) else { return nil }
        stored.append((position, key))
      }
    }
    guard let classPosition, let classIndex = archive.reference(ofObject: archive.valueObject(header, classPosition)),
      classIndex > 0, classIndex != uid, let description = try? archive.classDescription(classIndex, of: uid)
    else { return nil }
    let layout = ObjectLayout(
      keyObjects: keyObjects, classPosition: classPosition, classIndex: classIndex, description: description,
      stored: stored,
      sorted: stored.map { (position: $0.position, name: Self.fieldName($0.key)) }
        .sorted { CanonicalText.precedes($0.name, $1.name) },
      keyBytes: stored.reduce(0) { $0 + $1.key.utf8.count })
    if layouts.count == 8 { layouts.removeFirst() }
    layouts.append(layout)
    return layout
  }

  /// `true` when every field of an object laid out by `layout` can be read (what reading its fields into a list
  /// checks first).
  func fieldsReadable(_ header: KeyedArchiveGraph.Header, _ layout: ObjectLayout) -> Bool {
    layout.stored.allSatisfy { archive.fieldValue(ofObject: archive.valueObject(header, $0.position)) != nil }
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
