import ArchiveCoding
import ArchiveComparison
import Foundation
import FoundationForms
import KeyedArchive
import PropertyList

/// The toolchain's own `NSKeyedArchiver` / `NSKeyedUnarchiver` as an independent second opinion.
///
/// On Linux these are swift-corelibs-foundation's, which crash (rather than report an error) on some inputs: a
/// reference cycle overflows the stack, an unknown class inside a dictionary or a `$class` that is not a class
/// description traps, an `NSNotification` without an object traps. ``unarchive(_:classes:forKey:)`` therefore checks
/// the archive with this package's validating reader first and refuses those inputs with an
/// ``/ArchiveCoding/ArchiveError`` (code ``ArchiveCoding/ArchiveError/Code/oracleFailed``) instead of handing them
/// over.
public enum FoundationOracle {
  /// Decodes an archive with Foundation's `NSKeyedUnarchiver` (secure coding off, failures reported as errors).
  /// - Parameters:
  ///   - data: the archive, binary or XML.
  ///   - classes: Foundation classes for archived class names (`NSKeyedUnarchiver.setClass(_:forClassName:)`);
  ///     names not listed must be found by `NSClassFromString`.
  ///   - key: the top-level key. Default `root`.
  /// - Returns: what Foundation decoded.
  /// - Throws: ``/ArchiveCoding/ArchiveError``: `oracleFailed` when the archive is refused (see the type's description)
  ///   or Foundation reports an error and decodes nothing; the reader's error when the archive is malformed.
  public static func unarchive(
    _ data: Data, classes: [String: AnyClass] = [:], forKey key: String = "root"
  ) throws
    -> Any?
  {
    try checkSafe(data, classes: classes, key: key)
    let unarchiver: NSKeyedUnarchiver
    do {
      unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
    } catch {
      throw ArchiveError(.oracleFailed, "NSKeyedUnarchiver refused the archive: \(error.localizedDescription)")
    }
    unarchiver.requiresSecureCoding = false
    unarchiver.decodingFailurePolicy = .setErrorAndReturn
    for entry in classes { unarchiver.setClass(entry.value, forClassName: entry.key) }
    let value = unarchiver.decodeObject(forKey: key)
    unarchiver.finishDecoding()
    // corelibs sets "no value found for key" errors for absent optional keys even when the decode succeeded, so
    // an error only counts when nothing was decoded.
    if value == nil, let error = unarchiver.error {
      throw ArchiveError(.oracleFailed, "NSKeyedUnarchiver failed: \(error.localizedDescription)")
    }
    return value
  }

  /// Archives `root` under `root` with Foundation's `NSKeyedArchiver`.
  ///
  /// Foundation traps on values it cannot archive (a Swift struct, a class that is not `NSCoding`); pass
  /// Foundation values and `NSCoding` classes only. swift-corelibs-foundation also traps ("Duplicate keys of type
  /// 'AnyHashable'") on a graph holding two distinct `NSNull` instances: they compare equal but hash apart, so
  /// use one `NSNull` per graph.
  /// - Parameters:
  ///   - root: the root object.
  ///   - format: binary (default) or XML.
  /// - Returns: the archive.
  public static func archive(_ root: Any?, format: PropertyListFormat = .binary) -> Data {
    archive(root, format: format, classNames: [:])
  }

  /// Archives `root` with Foundation's `NSKeyedArchiver`, each class of `classNames` under its name there.
  static func archive(_ root: Any?, format: PropertyListFormat, classNames: [String: AnyClass]) -> Data {
    let archiver = NSKeyedArchiver(requiringSecureCoding: false)
    archiver.outputFormat = format == .xml ? .xml : .binary
    for (name, type) in classNames { archiver.setClassName(name, for: type) }
    archiver.encode(root, forKey: "root")
    archiver.finishEncoding()
    return archiver.encodedData
  }

  /// Archives `value` with ``/KeyedArchive/KeyedArchiver``, decodes it with Foundation's `NSKeyedUnarchiver`,
  /// archives what Foundation decoded with Foundation's `NSKeyedArchiver`, and compares the two archives by
  /// meaning with the one comparison of ``/ArchiveComparison/ArchiveComparison`` (ARC-300, ARC-313): Foundation
  /// values by what they mean (a time zone by its name, a measurement by value and unit, date components by the
  /// fields that are set), never by the private classes that hold them on either side.
  /// - Parameters:
  ///   - value: the root object.
  ///   - formats: the container formats to try.
  ///   - classes: Foundation classes for archived class names (each an `NSCoding` twin of a class of `value`).
  ///   - describe: not used by the comparison, which reads archives; accepted so that callers that describe
  ///     their classes for ``ValueSnapshot`` compile unchanged.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` (``ArchiveCoding/ArchiveError/Code/roundTripMismatch``) with the first
  ///   difference and a listing of the others, or the archiving or oracle error.
  public static func check(
    _ value: Any?, formats: [PropertyListFormat] = PropertyListFormat.allCases, classes: [String: AnyClass] = [:],
    describe: ValueSnapshot.ObjectDescriber? = nil
  ) throws {
    for format in formats {
      let archive = try KeyedArchiver.archivedData(withRootObject: value, format: format)
      let decoded = try unarchive(archive, classes: classes)
      let theirs = Self.archive(decoded, format: format, classNames: classes)
      let differences = try ArchiveComparison.differences(between: archive, and: theirs)
      if let first = differences.first {
        throw ArchiveError(
          .roundTripMismatch,
          "\(format): Foundation decoded a value that differs from the original at \(first)"
            + ArchiveDifference.listing(differences))
      }
    }
  }

  /// NSValue kinds corelibs decodes (points, sizes, rectangles, ranges, edge insets).
  static let decodableValueKinds: Set<Int64> = [1, 2, 3, 4, 12]

  /// Refuses archives that would crash corelibs' `NSKeyedUnarchiver`.
  static func checkSafe(_ data: Data, classes: [String: AnyClass], key: String) throws {
    func refuse(_ message: String, uid: Int? = nil) -> ArchiveError {
      ArchiveError(.oracleFailed, "not handed to NSKeyedUnarchiver: \(message)", at: .init(objectIndex: uid))
    }
    var graph = try KeyedArchiveGraph(data: data)
    let topLevel: [KeyedArchiveGraph.Field]
    do {
      topLevel = try graph.topLevelFields()
    } catch let error as ArchiveError {
      throw refuse(error.description)
    }
    guard let start = topLevel.first(where: { $0.key == key })?.value else { return }
    // Depth-first walk over references; a reference to an object on the current path is a cycle.
    enum Mark { case onPath, done }
    var marks: [Int: Mark] = [:]
    var stack: [(uid: Int, children: [Int], next: Int)] = []
    func references(in value: PropertyListValue) -> [Int] {
      switch value {
      case .uid(let u): [Int(clamping: u)]
      case .array(let elements): elements.flatMap(references)
      default: []
      }
    }
    func enter(_ uid: Int) throws {
      guard uid != 0 else { return }
      switch marks[uid] {
      case .onPath?:
        throw refuse("reference cycle through object #\(uid) (corelibs would overflow its stack)", uid: uid)
      case .done?: return
      case nil: break
      }
      let object: KeyedArchiveGraph.Object
      let entry: KeyedArchiveGraph.Entry
      do {
        entry = try graph.entry(uid)
      } catch let error as ArchiveError {
        throw refuse(error.description, uid: uid)
      }
      switch entry {
      case .object(let found): object = found
      case .dictionary: throw refuse("object #\(uid) is a dictionary without a class", uid: uid)
      default:
        marks[uid] = .done
        return
      }
      let name = object.className
      guard classes[name] != nil || NSClassFromString(name) != nil else {
        throw refuse("class \(name) is unknown to Foundation", uid: uid)
      }
      let fields = object.fields
      if name == FoundationClass.dictionary || name == FoundationClass.mutableDictionary {
        guard fields[FoundationKeys.nsKeys]?.arrayValue?.count == fields[FoundationKeys.nsObjects]?.arrayValue?.count
        else {
          throw refuse("\(FoundationKeys.nsKeys) and \(FoundationKeys.nsObjects) differ in length", uid: uid)
        }
      }
      if name == FoundationClass.notification,
        fields[FoundationKeys.nsObject] == nil || fields[FoundationKeys.nsObject] == .uid(0)
      {
        throw refuse("an NSNotification without an object", uid: uid)
      }
      if name == FoundationClass.value,
        !decodableValueKinds.contains(fields[FoundationKeys.nsSpecial]?.integerValue ?? 0)
      {
        throw refuse("an NSValue of a kind corelibs cannot decode", uid: uid)
      }
      marks[uid] = .onPath
      let children = fields.entries.flatMap { references(in: $0.value) }
      stack.append((uid, children, 0))
    }
    for uid in references(in: start) {
      try enter(uid)
      while let top = stack.last {
        if top.next < top.children.count {
          stack[stack.count - 1].next += 1
          try enter(top.children[top.next])
        } else {
          marks[top.uid] = .done
          stack.removeLast()
        }
      }
    }
  }
}
