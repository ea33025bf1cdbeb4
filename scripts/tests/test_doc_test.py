"""Tests for scripts/doc-test.py on small docs written here, run with a stand-in vrender.

Run: python3 -m unittest discover -s scripts/tests
"""
import contextlib
import importlib.util
import io
import os
import stat
import tempfile
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SPEC = importlib.util.spec_from_file_location("doc_test", os.path.join(HERE, "..", "doc-test.py"))
doc_test = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(doc_test)

# What the stand-in binary prints: a take line with a fresh UUID, time, size and speed each run,
# and its absolute folder, as vrender's own lines have them.
FAKE_VRENDER = """#!/usr/bin/env bash
set -euo pipefail
case "${1:-}" in
  take) echo "take: segment_0001_$(cat /proc/sys/kernel/random/uuid | tr a-f A-F).mov  2.00 s, 60 frames, 0 dropped, 640x360 libx264"
        echo "export.mov: 6.00 s, 180 frames, 640x360 libx264+aac, $((RANDOM % 9)).$((RANDOM % 9)) MB in 0.$((RANDOM % 90 + 10)) s (transcode), $((RANDOM % 90 + 10)).5 fps, 1.$((RANDOM % 9))x"
        echo "created $(date -u +%Y-%m-%dT%H:%M:%SZ) in $PWD/takes/list.txt" ;;
  env) echo "VRENDER=$(basename "$VRENDER")" ;;
  *) echo "vrender: error: unknown command '${1:-}'" >&2; exit 2 ;;
esac
"""


class DocTestTests(unittest.TestCase):
    def setUp(self):
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        self.folder = folder.name
        self.binary = os.path.join(self.folder, "bin", "vrender")
        os.makedirs(os.path.dirname(self.binary))
        with open(self.binary, "w") as file:
            file.write(FAKE_VRENDER)
        os.chmod(self.binary, stat.S_IRWXU)

    def run_doc(self, text, name="doc.md"):
        """(exit status, what doc-test printed) for a doc holding `text`."""
        path = os.path.join(self.folder, name)
        with open(path, "w") as file:
            file.write(textwrap.dedent(text))
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stderr(err):
            status = doc_test.main(["--bin", self.binary, path], out=out)
        return status, out.getvalue() + err.getvalue()

    def test_a_doc_showing_the_real_output_passes(self):
        status, printed = self.run_doc("""
            Some text.

            <!-- doc-test -->
            ```console
            $ echo hello; echo world >&2
            hello
            world
            ```
            """)
        self.assertEqual(status, 0, printed)
        self.assertIn("1 block(s), 1 command(s) in 1 file(s)", printed)
        self.assertIn("all passed", printed)

    def test_a_planted_change_of_output_fails_with_the_line_and_a_diff(self):
        status, printed = self.run_doc("""
            <!-- doc-test -->
            ```console
            $ echo hello
            hello
            $ printf 'one\\ntwo\\n'
            one
            three
            ```
            """)
        self.assertEqual(status, 1)
        self.assertIn("FAIL", printed)
        self.assertIn("doc.md:6: $ printf", printed)  # the line of the command in the doc
        self.assertIn("-three", printed)
        self.assertIn("+two", printed)
        self.assertIn("1 failed (", printed)

    def test_a_changed_line_of_the_binary_fails(self):
        status, printed = self.run_doc("""
            <!-- doc-test -->
            ```console
            $ vrender take
            take: segment_0001_0A1B2C3D-0000-4000-8000-00000000000A.mov  2.00 s, 61 frames, 0 dropped, 640x360 libx264
            ...
            ```
            """)
        self.assertEqual(status, 1)
        self.assertIn("+take: segment_0001_<UUID>.mov <TIME>, 60 frames", printed)

    def test_masks_hide_uuids_times_sizes_speeds_dates_and_folders(self):
        status, printed = self.run_doc("""
            <!-- doc-test -->
            ```console
            $ vrender take
            take: segment_0001_CE4123E6-5284-4AC1-A97D-6CB7929E971A.mov  3.00 s, 60 frames, 0 dropped, 640x360 libx264
            export.mov: 9.00 s, 180 frames, 640x360 libx264+aac, 1.5 MB in 7.93 s (transcode), 57.3 fps, 1.91x
            created 2026-11-22T00:23:05Z in /home/someone/work/takes/list.txt
            ```
            """)
        self.assertEqual(status, 0, printed)

    def test_masks_keep_counts_and_relative_paths(self):
        self.assertEqual(doc_test.mask("out/demo/export.mov: 270 frames, 1280x720 at 30 fps"),
                         "out/demo/export.mov: 270 frames, 1280x720 at 30 fps")
        self.assertEqual(doc_test.mask("prompter: 24 pt/s, chunk 2/5, bt709/bt709"), "prompter: 24 pt/s, chunk 2/5, bt709/bt709")
        self.assertEqual(doc_test.mask("a   b  "), "a b")
        self.assertEqual(doc_test.mask("  chunk 0: 60 frames, 0.6 s on render-07"), " chunk 0: 60 frames, <TIME> on <HOST>")
        self.assertEqual(doc_test.mask('"bytes" : 1573533, 412 MiB, 23114 bytes'), '"bytes" : <SIZE>, <SIZE>, <SIZE>')
        self.assertEqual(doc_test.mask('"wallSeconds" : 0.690347398, "frames" : 120'), '"wallSeconds" : <TIME>, "frames" : 120')
        self.assertEqual(doc_test.mask("encode 450 39.95 96%", numbers=True), "encode <N> <N> <N>%")

    def test_an_ellipsis_line_stands_for_any_lines_but_the_rest_must_match(self):
        doc = """
            <!-- doc-test -->
            ```console
            $ seq 1 5
            1
            ...
            {last}
            ```
            """
        self.assertEqual(self.run_doc(doc.format(last=5))[0], 0)
        self.assertEqual(self.run_doc(doc.format(last=4))[0], 1)

    def test_blocks_of_one_file_share_a_scratch_folder_and_the_binary_is_first_on_path(self):
        status, printed = self.run_doc("""
            <!-- doc-test -->
            ```console
            $ echo made > note.txt
            ```

            <!-- doc-test setup="mkdir -p sub && cp ../note.txt ." cwd=sub -->
            ```console
            $ cat note.txt && vrender env && command -v vrender | xargs basename
            made
            VRENDER=vrender
            vrender
            ```
            """)
        self.assertEqual(status, 0, printed)

    def test_a_command_continues_over_lines_ending_in_a_backslash(self):
        status, printed = self.run_doc("""
            <!-- doc-test -->
            ```console
            $ echo one \\
                two
            one two
            ```
            """)
        self.assertEqual(status, 0, printed)

    def test_exit_statuses_are_checked(self):
        failing = """
            <!-- doc-test{settings} -->
            ```console
            $ vrender nonsense
            vrender: error: unknown command 'nonsense'
            ```
            """
        self.assertEqual(self.run_doc(failing.format(settings=""))[0], 1)
        self.assertEqual(self.run_doc(failing.format(settings=" exit=2"))[0], 0)
        self.assertEqual(self.run_doc(failing.format(settings=" exit=1"))[0], 1)
        two = """
            <!-- doc-test exit={statuses} -->
            ```console
            $ vrender nonsense
            vrender: error: unknown command 'nonsense'
            $ true
            ```
            """
        self.assertEqual(self.run_doc(two.format(statuses="2,0"))[0], 0)
        self.assertEqual(self.run_doc(two.format(statuses="0,2"))[0], 1)
        self.assertEqual(self.run_doc(two.format(statuses="2,0,0"))[0], 2)

    def test_commands_run_on_two_processors_where_there_are_two(self):
        status, printed = self.run_doc("""
            <!-- doc-test -->
            ```console
            $ nproc
            {}
            ```
            """.format(min(2, len(os.sched_getaffinity(0)))))
        self.assertEqual(status, 0, printed)

    def test_unmarked_blocks_are_not_run(self):
        status, printed = self.run_doc("""
            ```console
            $ false
            nothing like this
            ```
            """)
        self.assertEqual(status, 0, printed)
        self.assertIn("0 block(s), 0 command(s)", printed)

    def test_a_marker_shown_inside_another_code_block_is_not_run(self):
        status, printed = self.run_doc("""
            ````markdown
            <!-- doc-test -->
            ```console
            $ false
            ```
            ````
            """)
        self.assertEqual(status, 0, printed)
        self.assertIn("0 block(s), 0 command(s)", printed)

    def test_a_malformed_marker_is_a_usage_error_naming_the_line(self):
        status, printed = self.run_doc("""
            <!-- doc-test colour=blue -->
            ```console
            $ true
            ```
            """)
        self.assertEqual(status, 2)
        self.assertIn("doc.md:2: unknown doc-test setting 'colour=blue'", printed)
        status, printed = self.run_doc("<!-- doc-test -->\n```sh\n$ true\n```\n")
        self.assertEqual(status, 2)
        self.assertIn("must be followed by a ```console block", printed)


if __name__ == "__main__":
    unittest.main()
