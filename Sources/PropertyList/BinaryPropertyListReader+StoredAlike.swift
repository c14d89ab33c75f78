import Foundation

extension BinaryPropertyListReader {
  /// `true` when `other` stores the value this list stores, and stores it alike (ARC-315): from the two top
  /// objects, every object reached is paired with one object of the other list, one to one, and each pair has the
  /// same marker and the same payload bytes (a number its width and bits, a string its encoding and code units),
  /// a container the same number of references, which pair their objects in turn, in order.
  ///
  /// The two values are then one graph, sharing included, whatever the objects' numbers, their order in the file or
  /// the width of the references: everything that reads a list's value from its top object (materialising it,
  /// ``checkValue(of:)``, a keyed archive's canonical walk) finds in one what it finds in the other. What lies outside
  /// the value (objects no container reaches, the offset table, the trailer) is not compared: the full checks of
  /// each list see that.
  ///
  /// Safe on lists checked only on access (``Validation/onAccess``): every read is checked, a read that fails
  /// ends the comparison with `false`, each object is paired once and its references read once, so the time is
  /// linear in the two lists' sizes; besides them, it keeps a bit per object of each list (and 4 bytes per object of
  /// this list once two objects of different numbers pair) and the pairs whose objects it has still to compare.
  package func storesAlike(_ other: BinaryPropertyListReader) -> Bool {
    // An object number fits in 32 bits in every list this reader accepts; past that, no conclusion.
    guard objectCount <= Int(Int32.max), other.objectCount <= Int(Int32.max),
      topObject >= 0, topObject < objectCount, other.topObject >= 0, other.topObject < other.objectCount
    else { return false }
    var paired = ObjectBits(count: objectCount)
    var taken = ObjectBits(count: other.objectCount)
    // Each object's partner, once one object is paired with another number: until then every pair is an object
    // and the object of the same number (two copies of a file), which the bits alone record.
    var partner: [Int32] = []
    if topObject != other.topObject {
      partner = [Int32](repeating: -1, count: objectCount)
      partner[topObject] = Int32(other.topObject)
    }
    paired[topObject] = true
    taken[other.topObject] = true
    // The pairs made whose objects are still to compare.
    var pending = [(Int32(topObject), Int32(other.topObject))]
    while let (x, y) = pending.popLast() {
      guard let offsetX = checkedOffset(of: Int(x)), let offsetY = other.checkedOffset(of: Int(y)),
        bytes[offsetX] == other.bytes[offsetY], let headerX = try? parsedHeader(of: Int(x), at: offsetX),
        let headerY = try? other.parsedHeader(of: Int(y), at: offsetY), headerX.count == headerY.count
      else { return false }
      guard headerX.kind.isContainer else {
        let (payloadX, payloadY) = (
          bytes[headerX.start..<payloadEnd(headerX)], other.bytes[headerY.start..<other.payloadEnd(headerY)]
        )
        guard payloadX.count == payloadY.count else { return false }
        if let baseX = payloadX.baseAddress, let baseY = payloadY.baseAddress,
          memcmp(baseX, baseY, payloadX.count) != 0
        {
          return false
        }
        continue
      }
      // Pair the references in order; an object paired before must be paired with the same object again.
      for index in 0..<(headerX.kind == .dictionary ? 2 * headerX.count : headerX.count) {
        let refX = ref(at: headerX.start + index * objectRefSize)
        let refY = other.ref(at: headerY.start + index * other.objectRefSize)
        guard refX >= 0, refX < objectCount, refY >= 0, refY < other.objectCount else { return false }
        if paired[refX] {
          guard partner.isEmpty ? refX == refY : Int(partner[refX]) == refY else { return false }
          continue
        }
        guard !taken[refY] else { return false }
        if refX != refY, partner.isEmpty {
          partner = (0..<Int32(objectCount)).map { paired[Int($0)] ? $0 : -1 }
        }
        if !partner.isEmpty { partner[refX] = Int32(refY) }
        paired[refX] = true
        taken[refY] = true
        pending.append((Int32(refX), Int32(refY)))
      }
    }
    return true
  }
}
