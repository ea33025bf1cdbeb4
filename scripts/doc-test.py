#!/usr/bin/env python3
"""Runs the runnable examples in README.md and docs/*.md and compares their output with the doc.

usage: scripts/doc-test.py [--bin PATH] [--keep] [--only TEXT] [--list] [--update] [FILE.md ...]

  --bin PATH   the vrender binary (default $VRENDER, else .build/release/vrender): its folder is
               put first on PATH and VRENDER is set to it for every command
  --keep       keep the scratch folders (their paths are printed)
  --only TEXT  run only the files whose path contains TEXT
  --list       list the runnable blocks and their commands, run nothing
  --update     write what a command printed into the doc where it differs from what the doc
               shows (for writing docs: review the change with git diff); commands that match
               keep their lines, "..." included
  FILE.md      the docs to test (default: README.md and docs/*.md)

A runnable example is a ```console block whose previous line is the marker

    <!-- doc-test -->                      or, with settings,
    <!-- doc-test setup="vrender capture ... >/dev/null" cwd=sub exit=1 timeout=300 mask=numbers -->

Inside the block, a line starting with "$ " is a command (a line ending in "\\" continues it on
the next line); the lines up to the next command are the output it must print (standard output
and standard error together). A line that is exactly "..." stands for any number of lines.
Every command of a file runs with bash, one after the other, in one scratch folder made for that
file, so a later block may use what an earlier one made. Standard input is /dev/null, TZ=UTC,
the Vulkan loader is offered lavapipe alone when it is installed (CI's only device, so a line
naming where filters ran reads the same on a machine with a GPU),
and REPO names the repository's root (a setup may copy testdata/ from there). Standard output
is line-buffered (coreutils' stdbuf -oL), so its lines and standard error's come in the order a
terminal shows them. Commands run on two processors (the first two this process may use), as on
CI's 2-core machines: x264's and x265's bits depend on their thread count, which vrender takes
from the processors it may run on, and the docs show the PSNR of lossy exports.

Settings (all optional):
  setup="CMD"   run CMD (bash) before the block's commands; its output is not compared
  cwd=DIR       run the block's commands in DIR below the scratch folder (made if missing)
  exit=N        the block's last command must exit N (default 0); every other command must exit 0
  exit=N,M,...  one exit status per command of the block, in order
  timeout=S     seconds each command may take (default 300)
  mask=numbers  also mask every number (timing reports: only their shape is compared)

Masks, applied to the doc's lines and to the output before they are compared, in this order (so
that a doc may show any real run's output and still pass on another run or machine):
  UUIDs                          0A1B...-...  -> <UUID>
  dates and times (UTC, ISO 8601 or 20261126-101500)  -> <DATE>
  hashes (32 or more hex digits)  -> <HASH>
  the folders of an absolute path (/tmp/x/demo/export.mov -> <DIR>/export.mov): scratch and temp paths
  sizes and byte counts (1.5 MB, 412 MiB, 23114 bytes, "bytes" : 1573533)  -> <SIZE>
  JSON seconds ("wallSeconds" : 0.61)  -> <TIME>
  speeds with a fraction (57.3 fps, 1.91x, 0.81× real time)  -> <SPEED> (30 fps stays)
  times and durations (7.93 s, 120 ms, 2s)  -> <TIME>
  a host name after a time at the end of a line (chunk 0: ... 0.6 s on render-07)  -> <HOST>
  runs of spaces -> one space, and trailing spaces dropped (tables realign when a masked value
  changes width)
Counts (frames, takes, chunks), sizes in pixels, codecs, names and messages are compared as shown.

Prints each failing block's file:line and a unified diff (doc, then output; masked), and a summary
line. Exit status: 0 every block passed, 1 a block failed, 2 usage error.
"""
import argparse
import difflib
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

MARKER = re.compile(r"^\s*<!--\s*doc-test\b(.*?)-->\s*$")
FENCE_OPEN = re.compile(r"^\s*```console\s*$")
FENCE_CLOSE = re.compile(r"^\s*```\s*$")
ANY_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
ELLIPSIS = "..."
SETTINGS = {"setup", "cwd", "exit", "timeout", "mask"}

# (pattern, replacement), applied in order: see the module's docstring.
MASKS = [
    (re.compile(r"(?<![0-9A-Fa-f])[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}(?![0-9A-Fa-f])"), "<UUID>"),
    (re.compile(r"\b\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)?"), "<DATE>"),
    (re.compile(r"\b\d{8}-\d{6}\b"), "<DATE>"),
    (re.compile(r"(?<![0-9A-Za-z])[0-9a-f]{32,}(?![0-9A-Za-z])"), "<HASH>"),
    (re.compile(r"(?<![\w.~<>-])(?:/[\w.+@-]+)+/(?=[\w.+@<>-])"), "<DIR>/"),
    (re.compile(r"\b\d+(?:\.\d+)? ?(?:[KMGT]i?B|B|bytes)\b"), "<SIZE>"),
    (re.compile(r'("bytes" ?: ?)\d+'), r"\1<SIZE>"),
    (re.compile(r'("\w*[sS]econds" ?: ?)\d+(?:\.\d+)?'), r"\1<TIME>"),
    (re.compile(r"\b\d+\.\d+ ?fps\b"), "<SPEED>"),
    (re.compile(r"\b\d+\.\d+ ?[x×](?![\w])"), "<SPEED>"),
    (re.compile(r"(?<![\w.])\d+(?:\.\d+)? ?(?:s|ms|µs)\b"), "<TIME>"),
    (re.compile(r"(<TIME> on )[\w.-]+$"), r"\1<HOST>"),
]
NUMBER = re.compile(r"(?<![\w.<])\d+(?:\.\d+)?(?![\w>])")
SPACES = re.compile(r"[ \t]+")
# A pipe makes C's stdio buffer standard output whole, so without this a command's error line
# (standard error, unbuffered) would come before the output it follows on a terminal.
LINE_BUFFERED = ["stdbuf", "-oL"] if shutil.which("stdbuf") else []


def two_processors():
    """The first two processors this process may run on (None on a machine with one)."""
    cpus = sorted(os.sched_getaffinity(0))
    return set(cpus[:2]) if len(cpus) >= 2 else None


PROCESSORS = two_processors()


def mask(line, numbers=False):
    for pattern, replacement in MASKS:
        line = pattern.sub(replacement, line)
    if numbers:
        line = NUMBER.sub("<N>", line)
    return SPACES.sub(" ", line).rstrip()


class Command:
    def __init__(self, text, line):
        self.text, self.line, self.expected = text, line, []
        self.output_start = None  # index in the doc's lines of its first output line
        self.actual = None  # what it printed, when --update needs it


class Block:
    def __init__(self, path, line, settings):
        self.path, self.line, self.settings, self.commands = path, line, settings, []

    @property
    def where(self):
        return f"{self.path}:{self.line}"


class DocError(Exception):
    pass


def parse_settings(text, where):
    settings = {}
    for word in shlex.split(text):
        key, sep, value = word.partition("=")
        if not sep or key not in SETTINGS:
            raise DocError(f"{where}: unknown doc-test setting '{word}' (known: {', '.join(sorted(SETTINGS))})")
        if key == "exit" and not all(part.isdigit() for part in value.split(",")):
            raise DocError(f"{where}: exit= needs whole numbers (N or N,M,...), not '{value}'")
        if key == "timeout" and not value.isdigit():
            raise DocError(f"{where}: {key}= needs a whole number, not '{value}'")
        if key == "mask" and value != "numbers":
            raise DocError(f"{where}: mask= knows only 'numbers', not '{value}'")
        settings[key] = value
    return settings


def parse(path, text):
    """The runnable blocks of one doc, in order."""
    lines, blocks, index = text.split("\n"), [], 0
    while index < len(lines):
        fence = ANY_FENCE.match(lines[index])
        if fence:  # an unmarked code block: a marker inside it (a doc about doc-test) is an example
            index += 1
            while index < len(lines) and lines[index].strip() != fence.group(1):
                index += 1
            index += 1
            continue
        marker = MARKER.match(lines[index])
        index += 1
        if not marker:
            continue
        where = f"{path}:{index}"
        if index >= len(lines) or not FENCE_OPEN.match(lines[index]):
            raise DocError(f"{where}: a doc-test marker must be followed by a ```console block")
        block = Block(path, index + 1, parse_settings(marker.group(1), where))
        index += 1
        command = None
        while True:
            if index >= len(lines):
                raise DocError(f"{block.where}: the ```console block is not closed")
            line = lines[index]
            index += 1
            if FENCE_CLOSE.match(line):
                break
            if line.startswith("$ "):
                command = Command(line[2:], index)
                while command.text.endswith("\\") and index < len(lines) and not FENCE_CLOSE.match(lines[index]):
                    command.text += "\n" + lines[index]
                    index += 1
                command.output_start = index
                block.commands.append(command)
            elif command is None:
                raise DocError(f"{path}:{index}: output before the block's first '$ ' command")
            else:
                command.expected.append(line)
        if not block.commands:
            raise DocError(f"{block.where}: a runnable block without a '$ ' command")
        statuses = block.settings.get("exit", "0").split(",")
        if len(statuses) > 1 and len(statuses) != len(block.commands):
            raise DocError(f"{block.where}: exit= lists {len(statuses)} statuses for {len(block.commands)} commands")
        blocks.append(block)
    return blocks


def matches(expected, actual):
    """Whether the masked lines agree, a '...' line standing for any number of lines."""
    memo = {}

    def match(i, j):
        if (i, j) not in memo:
            if i == len(expected):
                memo[i, j] = j == len(actual)
            elif expected[i] == ELLIPSIS:
                memo[i, j] = any(match(i + 1, k) for k in range(j, len(actual) + 1))
            else:
                memo[i, j] = j < len(actual) and expected[i] == actual[j] and match(i + 1, j + 1)
        return memo[i, j]

    return match(0, 0)


def run_shell(command, cwd, env, timeout):
    """(exit status, output lines) of one bash command line; status None when it timed out."""
    try:
        done = subprocess.run(LINE_BUFFERED + ["bash", "-o", "pipefail", "-c", command], cwd=cwd, env=env, timeout=timeout,
                              stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              preexec_fn=(lambda: os.sched_setaffinity(0, PROCESSORS)) if PROCESSORS else None)
    except subprocess.TimeoutExpired as expired:
        return None, (expired.stdout or b"").decode("utf-8", "replace").split("\n")
    output = done.stdout.decode("utf-8", "replace")
    if output.endswith("\n"):
        output = output[:-1]
    return done.returncode, output.split("\n") if output else []


def run_block(block, scratch, env, out, keep_going=False):
    """Runs one block's commands; prints what failed; returns whether it passed. The block stops at
    its first failing command unless keep_going (--update: every command's output is wanted)."""
    settings, numbers = block.settings, block.settings.get("mask") == "numbers"
    timeout = int(settings.get("timeout", 300))
    cwd = os.path.join(scratch, settings.get("cwd", "."))
    os.makedirs(cwd, exist_ok=True)
    if "setup" in settings:
        status, output = run_shell(settings["setup"], cwd, env, timeout)
        if status != 0:
            print(f"FAIL {block.where}: setup {settings['setup']!r} exited {status}:", *output[-20:], sep="\n  ", file=out)
            return False
    passed = True
    for number, command in enumerate(block.commands):
        status, output = run_shell(command.text, cwd, env, timeout)
        statuses = [int(part) for part in settings.get("exit", "0").split(",")]
        if len(statuses) > 1:
            wanted = statuses[number]
        else:
            wanted = statuses[0] if number == len(block.commands) - 1 else 0
        expected = [mask(line, numbers) for line in command.expected]
        actual = [mask(line, numbers) for line in output]
        problems = []
        if status is None:
            problems.append(f"timed out after {timeout} s")
        elif status != wanted:
            problems.append(f"exited {status}, the doc expects {wanted}")
        if not matches(expected, actual):
            command.actual = output
            problems.append("its output differs from the doc (masked; - doc, + output):")
        if problems:
            print(f"FAIL {block.path}:{command.line}: $ {command.text}", file=out)
            for problem in problems:
                print(f"  {problem}", file=out)
            if not matches(expected, actual):
                diff = difflib.unified_diff(expected, actual, f"{block.path}:{command.line}", "output", lineterm="", n=3)
                for line in diff:
                    print(f"  {line}", file=out)
            passed = False
            if not keep_going:
                break
    return passed


def update(path, blocks):
    """Writes each mismatching command's output into the doc in place of what it showed."""
    with open(path, encoding="utf-8") as file:
        lines = file.read().split("\n")
    commands = [c for block in blocks for c in block.commands if c.actual is not None]
    for command in sorted(commands, key=lambda c: c.output_start, reverse=True):
        start = command.output_start
        lines[start:start + len(command.expected)] = command.actual
    with open(path, "w", encoding="utf-8") as file:
        file.write("\n".join(lines))
    return len(commands)


def default_docs(root):
    return [os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "docs", "*.md")))


def shown_path(path, root):
    """A doc's path as printed: relative to the repository when it is inside it."""
    return os.path.relpath(path, root) if os.path.abspath(path).startswith(root + os.sep) else path


def run_doc(path, blocks, env, options, out, root):
    """Runs one doc's blocks in a scratch folder of its own; returns the blocks that failed."""
    scratch, start, failed = tempfile.mkdtemp(prefix="vrender-doc-test-"), time.monotonic(), []
    for block in blocks:
        if not run_block(block, scratch, env, out, keep_going=options.update):
            failed.append(block.where)
    shown = shown_path(path, root)
    print(f"doc-test: {shown}: {len(blocks)} block(s) in {time.monotonic() - start:.1f} s", file=out)
    if options.update:
        print(f"doc-test: {shown}: {update(path, blocks)} command(s)' output rewritten", file=out)
    if options.keep:
        print(f"doc-test: kept {scratch}", file=out)
    else:
        shutil.rmtree(scratch, ignore_errors=True)
    return failed



def ci_vulkan_drivers():
    """The loader's driver list narrowed to lavapipe's manifests, when lavapipe is installed."""
    manifests = sorted(glob.glob("/usr/share/vulkan/icd.d/lvp_icd*.json"))
    if not manifests:
        return {}
    return {"VK_DRIVER_FILES": os.pathsep.join(manifests), "VK_ICD_FILENAMES": os.pathsep.join(manifests)}

def main(arguments, out=sys.stdout):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(prog="doc-test.py", usage=argparse.SUPPRESS, description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=os.environ.get("VRENDER") or os.path.join(root, ".build", "release", "vrender"))
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("--only", default="")
    parser.add_argument("--list", action="store_true")
    parser.add_argument("--update", action="store_true")
    parser.add_argument("files", nargs="*")
    options = parser.parse_args(arguments)
    docs = []
    try:
        for path in [f for f in (options.files or default_docs(root)) if options.only in f]:
            with open(path, encoding="utf-8") as file:
                blocks = parse(shown_path(path, root), file.read())
            if blocks:
                docs.append((path, blocks))
    except (OSError, DocError) as error:
        print(f"doc-test: {error}", file=sys.stderr)
        return 2
    if options.list:
        for block in (block for _, blocks in docs for block in blocks):
            print(f"{block.where} {block.settings or ''}", file=out)
            for command in block.commands:
                print(f"  $ {command.text}", file=out)
        return 0
    binary = os.path.abspath(options.bin)
    if not os.access(binary, os.X_OK):
        print(f"doc-test: {binary}: no vrender binary there (make release, or pass --bin)", file=sys.stderr)
        return 2
    env = dict(os.environ, PATH=os.path.dirname(binary) + os.pathsep + os.environ.get("PATH", ""),
               VRENDER=binary, REPO=root, TZ="UTC", LC_ALL="C.UTF-8")
    env.update(ci_vulkan_drivers())
    env.pop("COLUMNS", None)
    start, failed = time.monotonic(), []
    for path, blocks in docs:
        failed += run_doc(path, blocks, env, options, out, root)
    blocks = sum(len(blocks) for _, blocks in docs)
    commands = sum(len(block.commands) for _, blocks in docs for block in blocks)
    verdict = f"{len(failed)} failed ({', '.join(failed)})" if failed else "all passed"
    print(f"doc-test: {blocks} block(s), {commands} command(s) in {len(docs)} file(s), "
          f"{time.monotonic() - start:.1f} s: {verdict}", file=out)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
