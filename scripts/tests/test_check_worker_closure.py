"""Tests for scripts/check-imports.sh: breaches planted in a copy of the package must fail it.

Run: python3 -m unittest discover -s scripts/tests -p 'test_check_worker_closure.py'   (needs swift)
"""
import os
import shutil
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
SCRIPT = os.path.join(ROOT, "scripts", "check-imports.sh")


class CheckImportsTests(unittest.TestCase):
    def setUp(self):
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        # The manifest and the sources are all the check reads.
        self.copy = os.path.join(folder.name, "vrender")
        shutil.copytree(os.path.join(ROOT, "Sources"), os.path.join(self.copy, "Sources"))
        shutil.copy(os.path.join(ROOT, "Package.swift"), self.copy)

    def check(self):
        run = subprocess.run([SCRIPT, self.copy], capture_output=True, text=True)
        return run.returncode, run.stdout + run.stderr

    def replace(self, path, old, new):
        """Edits the copy's `path`, which must hold `old`."""
        full = os.path.join(self.copy, path)
        with open(full, encoding="utf-8") as file:
            text = file.read()
        self.assertIn(old, text, f"{path} no longer holds the text this test edits")
        with open(full, "w", encoding="utf-8") as file:
            file.write(text.replace(old, new, 1))

    def test_the_package_as_it_is_passes(self):
        status, output = self.check()
        self.assertEqual(status, 0, output)
        self.assertIn("vrender-worker off the studio", output)

    def test_a_worker_command_reaching_the_capture_stack_fails(self):
        # The shared commands made to depend on the microphone's module (and import it, so
        # that only the worker's closure is wrong).
        self.replace("Package.swift", 'dependencies: ["VRenderCore", "VRenderExport", "VRenderScale",',
                     'dependencies: ["VRenderCore", "VRenderExport", "VRenderScale", "VRenderCapture",')
        self.replace("Sources/VRenderWorkerCommands/ExportOutput.swift", "import VRenderExport\n",
                     "import VRenderCapture\nimport VRenderExport\n")
        status, output = self.check()
        self.assertEqual(status, 1, output)
        self.assertIn("the vrender-worker executable links VRenderCapture "
                      "(VRenderWorker -> VRenderWorkerCommands -> VRenderCapture)", output)
        self.assertIn("the vrender-worker executable links CV4L2", output)
        self.assertNotIn("imports VRenderCapture", output)

    def test_a_worker_linking_the_web_server_fails(self):
        # A product of another package counts too: Hummingbird, declared (even unimported).
        self.replace("Package.swift",
                     'dependencies: ["VRenderWorkerCommands", .product(name: "ArgumentParser", package: "swift-argument-parser")]',
                     'dependencies: ["VRenderWorkerCommands", .product(name: "ArgumentParser", package: "swift-argument-parser"),'
                     ' .product(name: "Hummingbird", package: "hummingbird")]')
        status, output = self.check()
        self.assertEqual(status, 1, output)
        self.assertIn("the vrender-worker executable links hummingbird:Hummingbird "
                      "(VRenderWorker -> hummingbird:Hummingbird)", output)

    def test_a_worker_reaching_the_studio_fails(self):
        self.replace("Package.swift",
                     '.executableTarget(name: "VRenderWorker",\n                          dependencies: ["VRenderWorkerCommands",',
                     '.executableTarget(name: "VRenderWorker",\n                          dependencies: ["VRenderWorkerCommands", "VRenderStudio",')
        self.replace("Sources/VRenderWorker/Worker.swift", "import ArgumentParser\n",
                     "import ArgumentParser\nimport VRenderStudio\n")
        status, output = self.check()
        self.assertEqual(status, 1, output)
        self.assertIn("the vrender-worker executable links VRenderStudio (VRenderWorker -> VRenderStudio)", output)
        self.assertIn("the vrender-worker executable links VRenderRecording", output)


if __name__ == "__main__":
    unittest.main()
