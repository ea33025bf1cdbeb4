"""Tests for scripts/check-imports.sh: each rule's breach, planted in a copy of the package,
fails the check naming it; the copy as it is passes.

Run: python3 -m unittest discover -s scripts/tests
"""
import unittest

from package_copy import PackageCopyTestCase


class CheckImportsTests(PackageCopyTestCase):
    def test_the_package_as_it_is_passes(self):
        status, output = self.check()
        self.assertEqual(status, 0, output)
        for rule in ("vrender-worker off the studio", "C modules imported internally",
                     "the CLI imports only the libraries it calls", "system calls go through Syscall"):
            self.assertIn(rule, output)

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
