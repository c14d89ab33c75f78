#!/usr/bin/env python3
"""Tests of structure_check.py: its PERF-007 rules, its module-graph rule and its PERF-020 sizes of the decode core
each fail on a violation planted in a copy of the tree, naming the file and what is wrong; the tree as it is passes;
look-alikes that are allowed (a package type with a pointer, a computed static property, a task-local value, a
computed property or nested type of the store's state, a struct with storage or an enum with mutating methods, an
empty struct conforming to a protocol without them) do not fail.

Usage: structure_check_test.py   (run from .ci/run; Python's standard library only)
"""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
CHECK = ROOT / "Tests" / "Scripts" / "structure_check.py"


class StructureCheckTests(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.TemporaryDirectory()
        self.tree = Path(self.directory.name)
        shutil.copy(ROOT / "Package.swift", self.tree / "Package.swift")
        shutil.copytree(ROOT / "Specs", self.tree / "Specs")
        shutil.copytree(ROOT / "Sources", self.tree / "Sources")

    def tearDown(self):
        self.directory.cleanup()

    def plant(self, relative, text):
        path = self.tree / "Sources" / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)

    def planted_failure(self, relative, text):
        """Plants `text` at `relative` under Sources and gives the check's output, which must be a failure."""
        self.plant(relative, text)
        status, output = self.check()
        self.assertEqual(status, 1, output)
        return output

    def check(self):
        result = subprocess.run([sys.executable, str(CHECK), str(self.tree)], capture_output=True, text=True)
        return result.returncode, result.stdout

    def test_the_tree_passes(self):
        status, output = self.check()
        self.assertEqual(status, 0, output)

    def test_a_declared_dependency_no_file_imports_fails(self):
        package = self.tree / "Package.swift"
        text = package.read_text()
        declaration = 'name: "XIB", dependencies: ["ArchiveCoding", "FoundationForms"]'
        self.assertIn(declaration, text)
        package.write_text(text.replace(declaration, 'name: "XIB", dependencies: ["ArchiveCoding", "FoundationForms", "ArchiveSupport"]'))
        status, output = self.check()
        self.assertEqual(status, 1, output)
        self.assertIn("Package.swift: XIB declares ArchiveSupport, which none of Sources/XIB imports", output)

    def test_archive_testing_building_the_nib_loader_fails(self):
        package = self.tree / "Package.swift"
        text = package.read_text()
        declaration = '"ArchiveCoding", "ArchiveSupport", "FoundationForms", "PropertyList", "KeyedArchive", "ArchiveComparison",'
        self.assertIn(declaration, text)
        package.write_text(text.replace(declaration, declaration + ' "NibLoading",'))
        output = self.planted_failure("ArchiveTesting/PlantedImport.swift", "import NibLoading\n")
        self.assertIn("Package.swift: ArchiveTesting builds NibLoading", output)
        self.assertIn("Package.swift: ArchiveTesting builds XIB", output)

    def test_a_public_unchecked_sendable_class_holding_an_unsafe_pointer_fails(self):
        output = self.planted_failure(
            "PropertyList/Internal/PlantedBuffer.swift",
            "public final class PlantedBuffer: @unchecked Sendable {\n"
            "  package var count: Int\n"
            "  @usableFromInline var base: UnsafeRawPointer\n"
            "  init(base: UnsafeRawPointer, count: Int) {\n"
            "    self.base = base\n"
            "    self.count = count\n"
            "  }\n"
            "}\n")
        self.assertIn("Sources/PropertyList/Internal/PlantedBuffer.swift:3: public type PlantedBuffer holds an unsafe "
                      "pointer in base", output)
        self.assertNotIn("in count", output)

    def test_an_open_class_holding_an_unmanaged_reference_fails(self):
        output = self.planted_failure(
            "InterfaceObjects/PlantedView.swift",
            "open class PlantedView {\n"
            "  private var owner: Unmanaged<AnyObject>?\n"
            "  public init() {}\n"
            "}\n")
        self.assertIn("public type PlantedView holds an unsafe pointer in owner", output)

    def test_a_static_var_memo_fails(self):
        output = self.planted_failure(
            "KeyedArchive/Internal/PlantedMemo.swift",
            "enum PlantedMemo {\n"
            "  nonisolated(unsafe) static var last: [String: Int] = [:]\n"
            "}\n")
        self.assertIn("Sources/KeyedArchive/Internal/PlantedMemo.swift:2: process-wide last holds a stored var", output)

    def test_a_static_let_behind_a_mutex_fails(self):
        output = self.planted_failure(
            "KeyedArchive/Internal/PlantedTables.swift",
            "import Synchronization\n"
            "struct PlantedTables {\n"
            "  private static let spare = Mutex<[Int]?>(nil)\n"
            "}\n")
        self.assertIn("PlantedTables.swift:3: process-wide spare holds a lock, an atomic or a cache", output)

    def test_a_global_var_fails(self):
        output = self.planted_failure(
            "PropertyList/Internal/PlantedGlobal.swift", "nonisolated(unsafe) var plantedCount = 0\n")
        self.assertIn("PlantedGlobal.swift:1: process-wide plantedCount holds a stored var", output)

    def test_an_allowlisted_entry_without_its_decision_fails(self):
        for decision in (self.tree / "Specs" / "Decisions").glob("0034-*.md"):
            decision.unlink()
        status, output = self.check()
        self.assertEqual(status, 1, output)
        self.assertIn("tables is allowlisted, but Decision 0034 does not name it", output)

    def test_allowed_look_alikes_pass(self):
        self.plant(
            "PropertyList/Internal/PlantedAllowed.swift",
            "@usableFromInline package final class PlantedStore: @unchecked Sendable {\n"
            "  @usableFromInline var base: UnsafeRawPointer\n"
            "  init(base: UnsafeRawPointer) { self.base = base }\n"
            "}\n"
            "public struct PlantedReader {\n"
            "  public var first: UnsafeRawPointer? { nil }\n"
            "  static var limit: Int { 4 }\n"
            "  @TaskLocal static var depth = 0\n"
            "  static let names = [\"a\", \"b\"]\n"
            "}\n")
        status, output = self.check()
        self.assertEqual(status, 0, output)

    def edit(self, relative, old, new):
        path = self.tree / "Sources" / relative
        text = path.read_text()
        self.assertIn(old, text)
        path.write_text(text.replace(old, new, 1))

    def test_a_thirteenth_stored_property_of_the_store_state_fails(self):
        self.edit("KeyedArchive/Internal/ObjectStore.swift", "    var linking = false\n",
                  "    var linking = false\n    var plantedMemo: [Int: Int] = [:]\n")
        status, output = self.check()
        self.assertEqual(status, 1, output)
        self.assertRegex(output, r"ObjectStore\.swift:\d+: ObjectStore\.State has 13 stored properties \(at most 12\)")
        self.assertIn("plantedMemo", output)

    def test_computed_properties_and_nested_types_of_the_store_state_do_not_count(self):
        self.edit("KeyedArchive/Internal/ObjectStore.swift", "    var linking = false\n",
                  "    var linking = false\n    var isLinking: Bool { linking }\n"
                  "    static var plantedLimit: Int { 4 }\n"
                  "    struct Planted {\n      var a = 0\n      var b = 0\n    }\n")
        status, output = self.check()
        self.assertEqual(status, 0, output)

    def test_a_decode_of_sixty_one_lines_fails(self):
        unarchiver = self.tree / "Sources" / "KeyedArchive" / "KeyedUnarchiver.swift"
        lines = unarchiver.read_text().split("\n")
        start = next(i for i, line in enumerate(lines) if line.strip() == "func decode(")
        end = next(i for i in range(start, len(lines)) if lines[i] == "  }")
        padding = 61 - (end - start + 1)
        self.assertGreater(padding, 0)
        lines[end:end] = ["    // planted"] * (padding - 1) + ["    _ = 0"]
        unarchiver.write_text("\n".join(lines))
        status, output = self.check()
        self.assertEqual(status, 1, output)
        self.assertRegex(output, r"KeyedUnarchiver\.swift:\d+: decode\(uid:\.\.\.\) is 61 lines \(at most 60\)")

    def test_the_null_visitor_without_its_byte_fails(self):
        self.edit("KeyedArchive/CanonicalWalk/NullCanonicalVisitor.swift", "  private var storage: UInt8 = 0\n", "")
        status, output = self.check()
        self.assertEqual(status, 1, output)
        self.assertRegex(output, r"NullCanonicalVisitor\.swift:\d+: struct NullCanonicalVisitor has no stored property "
                                 r"and mutating methods")

    def test_an_empty_struct_with_a_mutating_method_fails(self):
        output = self.planted_failure(
            "KeyedArchive/Internal/PlantedCounter.swift",
            "struct PlantedCounter {\n"
            "  static var limit: Int { 4 }\n"
            "  var isEmpty: Bool { true }\n"
            "  mutating func reset() {}\n"
            "}\n")
        self.assertIn("PlantedCounter.swift:1: struct PlantedCounter has no stored property and mutating methods",
                      output)

    def test_an_empty_struct_conforming_through_an_extension_and_an_inherited_protocol_fails(self):
        self.plant(
            "FoundationForms/PlantedSink.swift",
            "protocol PlantedBase {\n"
            "  mutating func take(_ value: Int)\n"
            "}\n"
            "protocol PlantedSink: AnyObject, PlantedBase {}\n")
        output = self.planted_failure(
            "KeyedArchive/Internal/PlantedDrain.swift",
            "struct PlantedDrain {}\n"
            "extension PlantedDrain: PlantedSink where Self: Sendable {\n"
            "  func take(_ value: Int) {}\n"
            "}\n")
        self.assertIn("PlantedDrain.swift:1: struct PlantedDrain has no stored property and conforms to PlantedBase, "
                      "which has a mutating requirement", output)

    def test_mutated_look_alikes_pass(self):
        self.plant(
            "KeyedArchive/Internal/PlantedShapes.swift",
            "protocol PlantedReading {\n"
            "  func read() -> Int\n"
            "}\n"
            "struct PlantedReader: PlantedReading {\n"
            "  func read() -> Int { 0 }\n"
            "}\n"
            "struct PlantedTally {\n"
            "  private var count = 0\n"
            "  mutating func add() { count += 1 }\n"
            "}\n"
            "enum PlantedState {\n"
            "  case on, off\n"
            "  mutating func flip() { self = self == .on ? .off : .on }\n"
            "}\n")
        status, output = self.check()
        self.assertEqual(status, 0, output)


if __name__ == "__main__":
    unittest.main()
