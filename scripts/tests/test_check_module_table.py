"""Tests of scripts/check-module-table.py: a row that drifts from the manifest fails, naming it."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "check-module-table.py")


def target(name, *dependencies, kind="regular", path=None):
    return {"name": name, "type": kind, "path": path,
            "dependencies": [{"byName": [d, None]} if not d.startswith("product:")
                             else {"product": [d[8:], "other", None, None]} for d in dependencies]}


MANIFEST = {"targets": [target("CFFmpeg", kind="system"), target("VRenderCore"),
                        target("VRenderMedia", "VRenderCore", "CFFmpeg"),
                        target("vrender", "VRenderMedia", "product:ArgumentParser", kind="executable"),
                        target("VRenderTestSupport", path="Tests/Support"),
                        target("VRenderCoreTests", "VRenderCore", kind="test")]}
TABLE = """| module | owns | imports |
| --- | --- | --- |
| `CFFmpeg` | FFmpeg | C libraries |
| `VRenderCore` | errors | Foundation |
| `VRenderMedia` | FFmpeg only | Core, CFFmpeg |
| `vrender` | the command line | Media, ArgumentParser |
"""


class CheckModuleTableTests(unittest.TestCase):
    def run_on(self, table, manifest=MANIFEST):
        with tempfile.TemporaryDirectory() as root:
            os.makedirs(os.path.join(root, "docs"))
            with open(os.path.join(root, "docs", "how-it-works.md"), "w") as out:
                out.write(table)
            dump = os.path.join(root, "dump.json")
            with open(dump, "w") as out:
                json.dump(manifest, out)
            done = subprocess.run([sys.executable, SCRIPT, dump, root], capture_output=True, text=True)
            return done.returncode, done.stderr

    def test_a_table_that_matches_passes(self):
        self.assertEqual(self.run_on(TABLE), (0, ""))

    def test_a_wrong_imports_column_fails_naming_the_row(self):
        status, errors = self.run_on(TABLE.replace("| Core, CFFmpeg |", "| Core, Imaging |"))
        self.assertEqual(status, 1)
        self.assertIn("docs/how-it-works.md:5: `VRenderMedia`'s imports column lacks CFFmpeg and names Imaging that Package.swift does not declare", errors)

    def test_a_missing_row_and_an_unknown_module_fail(self):
        status, errors = self.run_on(TABLE.replace("`vrender`", "`vrender-worker`"))
        self.assertEqual(status, 1)
        self.assertIn("`vrender-worker` is not a target in Package.swift", errors)
        self.assertIn("no row for the target `vrender`", errors)


if __name__ == "__main__":
    unittest.main()
