"""The picture size of a video's first stream, as ffprobe reads it: the one home of that query
for the comparison scripts' numpy checks (hdr_reference.py, stabilize_residual.py), which must
size their raw frames without asking vrender."""
import json
import subprocess


def probe_size(ffprobe, path):
    """(width, height) of the first video stream of `path`."""
    out = subprocess.run([ffprobe, "-v", "error", "-select_streams", "v:0", "-show_entries",
                          "stream=width,height", "-of", "json", path],
                         check=True, capture_output=True, text=True).stdout
    stream = json.loads(out)["streams"][0]
    return stream["width"], stream["height"]
