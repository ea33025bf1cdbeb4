"""Tests for scripts/check-imports.sh's rule 7 (system calls go through Syscall), on a copy of
this package's Package.swift and Sources/ with calls planted in it.

Run: python3 -m unittest discover -s scripts/tests -p 'test_check_syscalls.py'
(needs swift: the script reads the manifest with `swift package dump-package`)
"""
import os
import unittest

from package_copy import PackageCopyTestCase

PLANTED = os.path.join("Sources", "VRenderScale", "Planted.swift")

# Calls the rule must find (line numbers below), and look-alikes it must leave alone.
PLANTED_TEXT = """import Glibc
import VRenderCore

func planted(_ descriptor: Int32, _ demuxer: Demuxer) {
    var byte: UInt8 = 0
    _ = read(descriptor, &byte, 1)
    _ = Glibc.open("/etc/passwd", O_RDONLY)
    _ = "\\(pwrite(descriptor, &byte, 1, 0))"
    _ = openat(descriptor,
               "x", O_RDONLY)
    // read(descriptor, &byte, 1) in a comment
    _ = "write(descriptor, &byte, 1) in a string"
    /* pread(descriptor, &byte, 1, 0) in a block comment */
    _ = demuxer.read(into: nil)
    _ = try? Syscall.read(descriptor, into: UnsafeMutableRawBufferPointer(start: &byte, count: 1))
    write("one argument: a method of its own")
    _ = open(take, takeIndex: 1)
}

func open(_ path: String, flags: Int32) {}
"""
FOUND_LINES = [6, 7, 8, 9]


class CheckImportsSyscallRuleTests(PackageCopyTestCase):
    def test_a_planted_call_fails_naming_its_file_and_line(self):
        self.write(PLANTED, PLANTED_TEXT)
        status, output = self.check()
        self.assertEqual(status, 1, output)
        reported = [line for line in output.splitlines() if "system calls go through Syscall" in line]
        expected = [f"check-imports: {PLANTED}:{number}: calls {name}() directly"
                    for number, name in zip(FOUND_LINES, ["read", "open", "pwrite", "openat"])]
        self.assertEqual([line.split(";")[0] for line in reported], expected, output)


if __name__ == "__main__":
    unittest.main()
