import ArchiveCoding

extension TableNodes {
  /// The ids the second table's objects are compared under when its objects are matched to the first's by their
  /// position in the graph (ARC-174), as compiled nibs are: an object's id is its index, which an object inserted
  /// anywhere before it shifts. Objects are paired from the top-level objects down through the fields (by key, and
  /// arrays by index) and the connections (by kind, label and paired source), then, among those left, by equal id.
  /// A paired object takes its partner's id; an unpaired one is `B<id>`.
  static func pairedIDs(_ a: ObjectTable, _ b: ObjectTable) -> [String] {
    var partnerOfB: [Int?] = Array(repeating: nil, count: b.objects.count)
    var partnerOfA: [Int?] = Array(repeating: nil, count: a.objects.count)
    var pending: [(Int, Int)] = []
    func pair(_ i: Int, _ j: Int) {
      guard a.objects.indices.contains(i), b.objects.indices.contains(j), partnerOfA[i] == nil, partnerOfB[j] == nil
      else { return }
      (partnerOfA[i], partnerOfB[j]) = (j, i)
      pending.append((i, j))
    }
    // Walked with a list, not recursion: field values nest as deep as the file makes them.
    func walk(_ x: FieldValue, _ y: FieldValue) {
      var values = [(x, y)]
      while let (x, y) = values.popLast() {
        switch (x, y) {
        case (.object(let i), .object(let j)): pair(i, j)
        case (.array(let xs), .array(let ys)): values += zip(xs, ys).reversed()
        case (.record(_, let xs), .record(_, let ys)): values += matched(xs, ys).reversed()
        default: break
        }
      }
    }
    for (i, j) in zip(a.topLevel, b.topLevel) { pair(i, j) }
    var connectionsOfB: [String: [ConnectionRecord]] = [:]
    for connection in b.connections {
      connectionsOfB["\(connection.kind.rawValue) \(connection.source) \(connection.label)", default: []].append(
        connection)
    }
    var progressed = true
    while progressed {
      progressed = false
      while let (i, j) = pending.popLast() {
        progressed = true
        for (x, y) in matched(a.objects[i].fields, b.objects[j].fields) { walk(x, y) }
      }
      var used: [String: Int] = [:]
      for connection in a.connections {
        guard let source = partnerOfA.indices.contains(connection.source) ? partnerOfA[connection.source] : nil
        else { continue }
        let key = "\(connection.kind.rawValue) \(source) \(connection.label)"
        let candidates = connectionsOfB[key] ?? []
        let k = used[key, default: 0]
        guard k < candidates.count else { continue }
        used[key] = k + 1
        if let x = connection.destination, let y = candidates[k].destination { pair(x, y) }
      }
      if pending.isEmpty {
        // What the graph does not reach: paired by equal id.
        var unpairedOfA: [String: Int] = [:]
        for (i, record) in a.objects.enumerated() where partnerOfA[i] == nil {
          unpairedOfA[record.id] = unpairedOfA[record.id] ?? i
        }
        for (j, record) in b.objects.enumerated() where partnerOfB[j] == nil {
          if let i = unpairedOfA[record.id] { pair(i, j) }
        }
      }
      progressed = progressed || !pending.isEmpty
    }
    return b.objects.indices.map { j in
      partnerOfB[j].map { a.objects[$0].id.isEmpty ? "#\($0)" : a.objects[$0].id } ?? "B\(b.objects[j].id)"
    }
  }

  /// The values of the fields both lists have, by key.
  private static func matched(_ a: [ObjectField], _ b: [ObjectField]) -> [(FieldValue, FieldValue)] {
    var second: [String: FieldValue] = [:]
    for field in b where second[field.key] == nil { second[field.key] = field.value }
    return a.compactMap { field in second[field.key].map { (field.value, $0) } }
  }
}
