"""Tests for scripts/clap_sync.py on files made with ffmpeg where the true offset is known.

Run: python3 -m unittest discover -s scripts/tests   (needs ffmpeg and ffprobe)
"""
import contextlib
import importlib.util
import io
import json
import os
import subprocess
import tempfile
import unittest
import wave

HERE = os.path.dirname(os.path.abspath(__file__))
SPEC = importlib.util.spec_from_file_location("clap_sync", os.path.join(HERE, "..", "clap_sync.py"))
clap_sync = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(clap_sync)


def ffmpeg(*args):
    subprocess.run(["ffmpeg", "-v", "error", "-y", *args], check=True)


class ClapSyncTests(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.addCleanup(self.folder.cleanup)

    def path(self, name):
        return os.path.join(self.folder.name, name)

    def track(self, name, first, seconds=3.0, every=1.0, rate=48000, channels=2):
        out = self.path(name)
        clap_sync.make_track(out, seconds, rate, channels, first, every)
        return out

    def movie(self, name, wav, flash_frame=0, seconds=3, audio=("-c:a", "pcm_s16le"), size="192x108"):
        """A 30 fps picture whose top-left sixth flashes white at frame `flash_frame` of every second."""
        side = 108 // 6
        box = (f"color=c=gray:s={size}:r=30:d={seconds},drawbox=x=0:y=0:w={side}:h={side}:color=white:t=fill:"
               f"enable='eq(mod(n,30),{flash_frame})'")
        out = self.path(name)
        ffmpeg("-f", "lavfi", "-i", box, "-i", wav, "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
               *audio, "-t", str(seconds), out)
        return out

    def main(self, *argv):
        stdout = io.StringIO()
        with contextlib.redirect_stdout(stdout):
            code = clap_sync.main(list(argv))
        return code, stdout.getvalue()

    def test_make_track_puts_each_click_onset_on_its_sample(self):
        out = self.track("t.wav", first=0.25, seconds=2.5, rate=44100, channels=2)
        with wave.open(out) as handle:
            self.assertEqual((handle.getnchannels(), handle.getframerate()), (2, 44100))
            self.assertEqual(handle.getnframes(), round(2.5 * 44100))
            import array
            samples = array.array("h")
            samples.frombytes(handle.readframes(handle.getnframes()))
        left = samples[0::2]
        onsets = clap_sync.click_onsets(left, 44100, 0.0)
        self.assertEqual([round(o * 44100) for o in onsets], [round(t * 44100) for t in (0.25, 1.25, 2.25)])
        self.assertEqual(max(abs(v) for v in left), round(clap_sync.CLICK_PEAK * 32767))
        self.assertEqual(samples[0::2], samples[1::2])

    def test_measure_finds_a_known_late_sound(self):
        movie = self.movie("late.mov", self.track("late.wav", first=0.012))
        code, _ = self.main("measure", movie)
        self.assertEqual(code, 1)
        report = clap_sync.measure(movie, 5)
        self.assertEqual((report["flashes"], report["clicks"], len(report["pairs"])), (3, 3, 3))
        for pair in report["pairs"]:
            self.assertAlmostEqual(pair["offset_ms"], 12.0, delta=0.05)
        self.assertFalse(report["ok"])

    def test_measure_passes_an_early_sound_within_the_limit(self):
        # Flash at frame 3 (0.1 s) of each second, click 3 ms before it.
        movie = self.movie("early.mov", self.track("early.wav", first=0.097), flash_frame=3)
        code, out = self.main("measure", movie, "--json")
        self.assertEqual(code, 0)
        report = json.loads(out)
        self.assertAlmostEqual(report["start_ms"], -3.0, delta=0.05)
        self.assertAlmostEqual(report["end_ms"], -3.0, delta=0.05)
        self.assertAlmostEqual(report["max_abs_offset_ms"], 3.0, delta=0.05)
        self.assertTrue(report["ok"])

    def test_measure_applies_aac_priming_as_a_player_does(self):
        movie = self.movie("aac.mp4", self.track("aac.wav", first=0.002), audio=("-c:a", "aac", "-b:a", "128k"))
        report = clap_sync.measure(movie, 5)
        self.assertEqual(len(report["pairs"]), 3)
        for pair in report["pairs"]:
            self.assertAlmostEqual(pair["offset_ms"], 2.0, delta=0.25)
        self.assertTrue(report["ok"])

    def test_a_flash_without_a_click_fails(self):
        # Clicks every 2 s: the flash at 1 s has none within half a second.
        movie = self.movie("missing.mov", self.track("missing.wav", first=0.0, every=2.0))
        report = clap_sync.measure(movie, 5)
        self.assertEqual(report["unpaired_flashes"], [1.0])
        self.assertEqual(report["max_abs_offset_ms"], 0.0)
        self.assertFalse(report["ok"])
        self.assertEqual(self.main("measure", movie)[0], 1)

    def test_clicks_reports_spacing_and_equal_lengths(self):
        movie = self.movie("clicks.mov", self.track("clicks.wav", first=0.5))
        code, out = self.main("clicks", movie, "--json")
        report = json.loads(out)
        self.assertEqual(code, 0)
        self.assertEqual((report["clicks"], report["missing_clicks"]), (3, 0))
        self.assertLess(report["max_abs_spacing_error_ms_per_s"], 0.05)
        self.assertTrue(report["lengths_ok"])

    def test_clicks_fails_a_drifting_track_a_missing_click_and_short_sound(self):
        drifting = self.track("drift.wav", first=0.1, seconds=4, every=1.002)
        report = clap_sync.clicks_command(self.movie("drift.mov", drifting, seconds=4), 1.0, 1.0)
        self.assertAlmostEqual(report["mean_spacing_error_ms_per_s"], 2.0, delta=0.05)
        self.assertFalse(report["ok"])

        gappy = self.track("gap.wav", first=0.1, seconds=4, every=2.0)
        report = clap_sync.spacing_report(clap_sync.click_onsets(self.samples(gappy), 48000, 0.0), 1.0, 1.0)
        self.assertEqual(report["missing_clicks"], 1)
        self.assertFalse(report["spacing_ok"])

        short = self.track("short.wav", first=0.1, seconds=2)
        report = clap_sync.clicks_command(self.movie("short.mov", short, seconds=3), 1.0, 1.0)
        self.assertTrue(report["spacing_ok"])
        self.assertAlmostEqual(report["video_seconds"] - report["audio_seconds"], 1.0, delta=0.01)
        self.assertFalse(report["lengths_ok"])

    def samples(self, wav):
        import array
        with wave.open(wav) as handle:
            samples = array.array("h")
            samples.frombytes(handle.readframes(handle.getnframes()))
        return samples[0::handle.getnchannels()]


if __name__ == "__main__":
    unittest.main()
