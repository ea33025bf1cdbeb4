#!/usr/bin/env python3
"""Drives `vrender capture` the way a person does: on a terminal (a pseudo-terminal here),
with keys. Records one take with space ... space, jumps lens, toggles the torch, quits with q,
and checks takes.json. Prints "N passed, N failed".   usage: interactive-capture.py VRENDER DIR"""
import json, os, pty, select, sys, time

vrender, out = sys.argv[1], sys.argv[2]
pid, fd = pty.fork()
if pid == 0:
    os.execv(vrender, [vrender, "capture", "--device", "synthetic", "--out", out, "--realtime",
                       "--size", "320x240", "--codec", "h264"])

screen = b""
def read_until(token, limit=20.0):
    """Reads the terminal until `token` shows up (bounded), returning whether it did."""
    global screen
    deadline = time.monotonic() + limit
    while token not in screen and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                screen += os.read(fd, 4096)
            except OSError:
                break
    return token in screen

passed = failed = 0
def check(name, ok):
    global passed, failed
    passed, failed = passed + ok, failed + (not ok)
    print(("ok   " if ok else "FAIL ") + name)

check("shows the key help", read_until(b"space starts/stops a take"))
os.write(fd, b" ")                       # start a take
check("status line shows recording", read_until(b"REC take 1"))
os.write(fd, b"2")                       # lens 2x
os.write(fd, b"t")                       # torch on
check("status line shows the tele lens and the torch", read_until(b"lens 2x") and read_until(b"torch 100%"))
read_until(b"1.0", 5)                    # let the take run about a second
os.write(fd, b" ")                       # stop the take
check("the take is reported", read_until(b"take: segment_"))
os.write(fd, b"q")
check("q quits", read_until(b"captured 1 take(s)"))
_, status = os.waitpid(pid, 0)
check("exit status 0", os.WEXITSTATUS(status) == 0)
takes = json.load(open(os.path.join(out, "takes.json")))["takes"]
check("one take in takes.json", len(takes) == 1)
causes = [event["cause"] for event in takes[0]["timeline"]]
check("the timeline records the keys (%s)" % causes, "key 2" in causes and "key t" in causes)
print("interactive capture: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
