"""Tests for scripts/check-imports.sh: each rule's breach, planted in a copy of the package,
fails the check naming it; the copy as it is passes.

Run: python3 -m unittest discover -s scripts/tests
"""
import os
import shutil
import subprocess
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SCRIPT = os.path.join(ROOT, "scripts", "check-imports.sh")


class CheckImportsTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if shutil.which("swift") is None:
            raise unittest.SkipTest("check-imports.sh reads the manifest with swift")

    def setUp(self):
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        self.root = folder.name
        shutil.copy(os.path.join(ROOT, "Package.swift"), self.root)
        shutil.copytree(os.path.join(ROOT, "Sources"), os.path.join(self.root, "Sources"))

    def check(self):
        """(exit status, stderr) of the check run on the copy."""
        done = subprocess.run(["bash", SCRIPT, self.root], capture_output=True, text=True, timeout=300)
        return done.returncode, done.stderr

    def replace(self, relative, old, new):
        path = os.path.join(self.root, relative)
        with open(path, encoding="utf-8") as file:
            text = file.read()
        self.assertIn(old, text, f"{relative} no longer holds the line the test plants into")
        with open(path, "w", encoding="utf-8") as file:
            file.write(text.replace(old, new, 1))

    def test_the_package_as_it_is_passes(self):
        status, errors = self.check()
        self.assertEqual(status, 0, errors)

    def test_a_plain_import_of_a_c_module_fails(self):
        self.replace("Sources/VRenderScale/ChunkHash.swift", "internal import CCrypto", "import CCrypto")
        status, errors = self.check()
        self.assertNotEqual(status, 0)
        self.assertIn("Sources/VRenderScale/ChunkHash.swift:1: imports the C module CCrypto as `import`", errors)

    def test_a_public_import_of_a_c_module_fails(self):
        self.replace("Sources/VRenderScale/ChunkHash.swift", "internal import CCrypto", "public import CCrypto")
        status, errors = self.check()
        self.assertNotEqual(status, 0)
        self.assertIn("imports the C module CCrypto as `public`", errors)

    def test_the_command_line_importing_the_media_layer_fails(self):
        # Declared too, so that only the new rule can object (rule 4 checks imports against it).
        self.replace("Package.swift", '"VRenderCore", "VRenderFilters", "VRenderExport",',
                     '"VRenderCore", "VRenderMedia", "VRenderFilters", "VRenderExport",')
        self.replace("Sources/vrender/Terminal/TakesTable.swift", "import Foundation\n",
                     "import Foundation\nimport VRenderMedia\n")
        status, errors = self.check()
        self.assertNotEqual(status, 0)
        self.assertIn("Sources/vrender/Terminal/TakesTable.swift:2: the command line imports VRenderMedia", errors)
        self.assertEqual(errors.count("check-imports: "), 1, errors)


if __name__ == "__main__":
    unittest.main()
