"""Tests of scripts/check-sizes.py: each limit fails on a planted breach and names it."""
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "check-sizes.py")


def body(lines):
    return "".join(f"        let value{i} = {i}\n" for i in range(lines))


class CheckSizesTests(unittest.TestCase):
    def run_on(self, files):
        with tempfile.TemporaryDirectory() as root:
            for path, text in files.items():
                full = os.path.join(root, path)
                os.makedirs(os.path.dirname(full), exist_ok=True)
                with open(full, "w", encoding="utf-8") as out:
                    out.write(text)
            done = subprocess.run([sys.executable, SCRIPT, root], capture_output=True, text=True)
            return done.returncode, done.stderr

    def test_short_code_passes(self):
        status, errors = self.run_on({"Sources/A/Short.swift": "struct A {\n    func f() {\n" + body(50) + "    }\n}\n"})
        self.assertEqual((status, errors), (0, ""))

    def test_a_long_function_fails_naming_it(self):
        text = "struct A {\n    private static func tooLong(_ x: Int) throws -> Int {\n" + body(60) + "        return 1\n    }\n}\n"
        status, errors = self.run_on({"Sources/A/Long.swift": text})
        self.assertEqual(status, 1)
        self.assertIn("Sources/A/Long.swift:2: func tooLong runs 63 lines (at most 60)", errors)

    def test_a_long_initializer_fails(self):
        status, errors = self.run_on({"Sources/A/Init.swift": "final class A {\n    public init() {\n" + body(70) + "    }\n}\n"})
        self.assertEqual(status, 1)
        self.assertIn("Sources/A/Init.swift:2: init runs 72 lines", errors)

    def test_braces_in_strings_and_comments_do_not_count(self):
        text = ("struct A {\n    func f() {\n        let s = \"}}}\" // }}\n        /* } */\n    }\n"
                "    func g() {\n" + body(40) + "    }\n}\n")
        self.assertEqual(self.run_on({"Sources/A/Strings.swift": text}), (0, ""))

    def test_a_long_file_fails_and_generated_code_is_skipped(self):
        long = "// line\n" * 301
        status, errors = self.run_on({"Sources/A/Big.swift": long, "Sources/A/Generated/Shaders.swift": long,
                                      "Sources/CKernels/kernels.c": long})
        self.assertEqual(status, 1)
        self.assertIn("Sources/A/Big.swift: 301 lines (at most 300)", errors)
        self.assertIn("Sources/CKernels/kernels.c: 301 lines", errors)
        self.assertNotIn("Generated", errors)


if __name__ == "__main__":
    unittest.main()
