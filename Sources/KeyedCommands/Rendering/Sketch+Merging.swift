import InterfaceObjects

extension Sketch {
  /// Adds the scenes of `other` to the right of this sketch's and its placeholders below these, with every id
  /// prefixed `<prefix>:` so that ids from different nibs (compiled nibs number their objects from 0) stay apart:
  /// a compiled storyboard is drawn one scene nib at a time, then merged.
  mutating func append(_ other: Sketch, prefix: String) {
    func named(_ id: String) -> String { id.isEmpty ? id : "\(prefix):\(id)" }
    let gap = SketchBuilder.sceneGap
    let right = scenes.map { $0.frame.minX + $0.frame.width }.max()
    let dx = right.map { $0 + gap - (other.scenes.map(\.frame.minX).min() ?? $0 + gap) } ?? 0
    let placeholderBottom = placeholders.map { $0.frame.minY + $0.frame.height + 8 }.max()
    let dy = placeholderBottom.map { $0 - (other.placeholders.map(\.frame.minY).min() ?? $0) } ?? 0

    func moved(_ node: Node) -> Node {
      var node = node
      node.id = named(node.id)
      node.frame.origin.x += dx
      node.children = node.children.map(moved)
      return node
    }
    for var scene in other.scenes {
      scene.id = named(scene.id)
      scene.frame.origin.x += dx
      scene.root = scene.root.map(moved)
      scenes.append(scene)
    }
    for var placeholder in other.placeholders {
      placeholder.id = named(placeholder.id)
      placeholder.frame.origin.y += dy
      placeholders.append(placeholder)
    }
    others += other.others.map { Other(id: named($0.id), className: $0.className) }
    for var connection in other.connections {
      connection.id = connection.id.map(named)
      connection.sourceID = named(connection.sourceID)
      connection.destinationID = connection.destinationID.map(named)
      connections.append(connection)
    }
    isAppKit = other.isAppKit
    let width = scenes.map { $0.frame.minX + $0.frame.width }.max() ?? 0
    let height =
      (scenes.map { $0.frame.minY + $0.frame.height } + placeholders.map { $0.frame.minY + $0.frame.height })
      .max() ?? 0
    size = Size(width: max(width + SketchBuilder.margin, 200), height: height + SketchBuilder.margin)
  }
}
