"""Tests for scripts/check-imports.sh: breaches planted in a copy of the package must fail it.

Run: python3 -m unittest discover -s scripts/tests -p 'test_check_worker_closure.py'   (needs swift)
"""
import unittest

from package_copy import PackageCopyTestCase


class CheckWorkerClosureTests(PackageCopyTestCase):
    def test_a_worker_command_reaching_the_capture_stack_fails(self):
        # The shared commands made to depend on the microphone's module (and import it, so
        # that only the worker's closure is wrong).
        self.replace("Package.swift", 'dependencies: ["VRenderCore", "VRenderExport", "VRenderFilters", "VRenderScale",',
                     'dependencies: ["VRenderCore", "VRenderExport", "VRenderFilters", "VRenderScale", "VRenderCapture",')
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
