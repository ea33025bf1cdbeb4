"""Tests for scripts/swift-test.sh: a failed run ends with what failed, even when the failure
lies thousands of lines above the end (XCTest runs first); its exit status is swift test's.

Run: python3 -m unittest discover -s scripts/tests
"""
import os
import stat
import subprocess
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(__file__), "..", "swift-test.sh")

XCTEST_FAILURE = ("/src/Tests/StudioSessionTests.swift:42: error: -[StudioSessionTests testX] : "
                  "XCTAssertTrue failed - round 3: neither started")


class SwiftTestSummaryTests(unittest.TestCase):
    def run_with_fake_swift(self, body, status):
        """swift-test.sh with a `swift` that prints `body` and exits with `status`."""
        with tempfile.TemporaryDirectory() as folder:
            fake = os.path.join(folder, "swift")
            with open(fake, "w") as file:
                file.write("#!/bin/sh\ncat <<'OUTPUT'\n%s\nOUTPUT\nexit %d\n" % (body, status))
            os.chmod(fake, stat.S_IRWXU)
            env = dict(os.environ, SWIFT=fake, LOG=os.path.join(folder, "log"))
            done = subprocess.run(["bash", SCRIPT, "--filter", "X"], env=env, capture_output=True, text=True)
            return done.returncode, done.stdout

    def test_a_failure_far_above_the_end_is_repeated_at_the_end(self):
        lines = ["Test Case 'StudioSessionTests.testX' started", XCTEST_FAILURE,
                 "Test Case 'StudioSessionTests.testX' failed (3.1 seconds)",
                 "\t Executed 10 tests, with 1 failure (0 unexpected) in 44.9 (44.9) seconds"]
        lines += ["✔ Test t%d() passed after 0.1 seconds." % n for n in range(5000)]
        lines.append("✔ Test run with 5000 tests in 1 suite passed after 9.0 seconds.")
        status, output = self.run_with_fake_swift("\n".join(lines), 1)
        self.assertEqual(status, 1)
        summary = output.split("swift test failed (exit 1)", 1)[1]
        self.assertIn(XCTEST_FAILURE, summary)
        self.assertIn("Test Case 'StudioSessionTests.testX' failed", summary)
        self.assertIn("Executed 10 tests, with 1 failure", summary)
        self.assertLess(len(summary.splitlines()), 10, summary)

    def test_a_passing_run_prints_only_its_output(self):
        status, output = self.run_with_fake_swift("✔ Test run with 3 tests in 1 suite passed after 1 seconds.", 0)
        self.assertEqual(status, 0)
        self.assertEqual(output.strip(), "✔ Test run with 3 tests in 1 suite passed after 1 seconds.")


if __name__ == "__main__":
    unittest.main()
