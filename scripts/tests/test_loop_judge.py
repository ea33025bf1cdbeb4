"""loop_judge.py's verdicts on made-up framemd5 lists (no device needed)."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import loop_judge  # noqa: E402


def frames(n):
    return [f"sum{i:04d}" for i in range(n)]


class LoopJudgeTests(unittest.TestCase):
    def test_repeats_and_skips_are_counted_not_failed(self):
        reference = frames(100)
        captured = ["noise1", "noise2"] + [reference[i] for i in [3, 3, 4, 4, 6, 7, 7, 9]] + [reference[i] for i in range(10, 20)]
        line, problems = loop_judge.judge(reference, captured, min_distinct=10, max_lead=5)
        self.assertEqual(problems, [])
        self.assertIn("2 before the writer", line)
        self.assertIn("3 repeats", line)
        self.assertIn("2 skipped", line)

    def test_a_torn_frame_after_the_first_match_fails(self):
        reference = frames(50)
        captured = reference[:20] + ["torn"] + reference[20:30]
        _, problems = loop_judge.judge(reference, captured, min_distinct=10, max_lead=5)
        self.assertEqual(problems, ["1 frames match no camera frame"])

    def test_frames_out_of_order_fail(self):
        reference = frames(50)
        captured = reference[:15] + [reference[5]] + reference[15:20]
        _, problems = loop_judge.judge(reference, captured, min_distinct=10, max_lead=5)
        self.assertEqual(problems, ["1 frames went back in time"])

    def test_too_few_camera_frames_or_a_long_lead_fail(self):
        reference = frames(50)
        _, problems = loop_judge.judge(reference, ["x"] * 8 + reference[:3], min_distinct=10, max_lead=5)
        self.assertEqual(len(problems), 2)


if __name__ == "__main__":
    unittest.main()
