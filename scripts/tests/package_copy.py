"""A copy of this package's Package.swift and Sources/ for the tests of scripts/check-imports.sh
to plant breaches in: each test edits its own copy and runs the check on it."""
import os
import shutil
import subprocess
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SCRIPT = os.path.join(ROOT, "scripts", "check-imports.sh")


class PackageCopyTestCase(unittest.TestCase):
    """`self.root` is the copy; `check()` runs check-imports.sh on it; `replace` and `write`
    plant a breach."""

    @classmethod
    def setUpClass(cls):
        if shutil.which("swift") is None:
            raise unittest.SkipTest("check-imports.sh reads the manifest with swift")

    def setUp(self):
        folder = tempfile.TemporaryDirectory(prefix="check-imports-")
        self.addCleanup(folder.cleanup)
        self.root = folder.name
        shutil.copy(os.path.join(ROOT, "Package.swift"), self.root)
        shutil.copytree(os.path.join(ROOT, "Sources"), os.path.join(self.root, "Sources"),
                        ignore=shutil.ignore_patterns(".*"))

    def check(self):
        """(exit status, stdout and stderr) of the check run on the copy."""
        done = subprocess.run(["bash", SCRIPT, self.root], capture_output=True, text=True, timeout=600)
        return done.returncode, done.stdout + done.stderr

    def replace(self, relative, old, new):
        """Edits the copy's `relative`, which must hold `old`."""
        path = os.path.join(self.root, relative)
        with open(path, encoding="utf-8") as file:
            text = file.read()
        self.assertIn(old, text, f"{relative} no longer holds the text the test plants into")
        with open(path, "w", encoding="utf-8") as file:
            file.write(text.replace(old, new, 1))

    def write(self, relative, text):
        with open(os.path.join(self.root, relative), "w", encoding="utf-8") as file:
            file.write(text)
