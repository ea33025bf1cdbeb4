#!/usr/bin/env python3
"""Checks that hand-written sources stay readable: no file over 300 lines, no function,
initializer or computed property whose body runs over 60 lines. Fails naming each breach.

    scripts/check-sizes.py           check this clone's Sources/
    scripts/check-sizes.py ROOT      check ROOT/Sources instead

Generated code (a folder named Generated) is not hand-written and is skipped. A function's
length is counted from its declaration's first line to its closing brace; a nested function
counts within its outer one. The Swift reading is lexical (strings, comments and multi-line
string literals are blanked before braces are counted), which is enough for this code base's
style. Run by `make test` with scripts/check-imports.sh.
"""
import os
import re
import sys

MAX_FILE_LINES = 300
MAX_FUNCTION_LINES = 60
SOURCE_EXTENSIONS = (".swift", ".c", ".h")

MODIFIERS = r"(?:(?:public|package|private|fileprivate|internal|open|static|class|final|override|mutating|nonmutating|" \
            r"nonisolated|convenience|required|dynamic|lazy|weak|unowned|consuming|borrowing)(?:\([^)]*\))?\s+)*"
ATTRIBUTES = r"(?:@\w+(?:\([^)]*\))?\s+)*"
DECLARATION = re.compile(r"^\s*" + ATTRIBUTES + MODIFIERS +
                         r"(func\s+[^\s(<]+|init[?!]?|deinit|subscript|(?:var|let)\s+\w+[^=]*\{\s*(?:get\b.*)?$)")


def code_lines(text):
    """The file's lines with string literals and comments blanked, so that only code braces count."""
    out, in_block_comment, in_multiline_string = [], False, False
    for line in text.split("\n"):
        code, i = [], 0
        while i < len(line):
            if in_block_comment:
                end = line.find("*/", i)
                if end < 0:
                    i = len(line)
                else:
                    in_block_comment, i = False, end + 2
            elif in_multiline_string:
                end = line.find('"""', i)
                if end < 0:
                    i = len(line)
                else:
                    in_multiline_string, i = False, end + 3
            elif line.startswith("//", i):
                break
            elif line.startswith("/*", i):
                in_block_comment, i = True, i + 2
            elif line.startswith('"""', i):
                in_multiline_string, i = True, i + 3
            elif line[i] == '"':
                i += 1
                while i < len(line) and line[i] != '"':
                    i += 2 if line[i] == "\\" else 1
                i += 1
            else:
                code.append(line[i])
                i += 1
        out.append("".join(code))
    return out


def long_functions(lines):
    """(first line number, lines, name) of each Swift body over the limit."""
    found = []
    for start, line in enumerate(lines):
        match = DECLARATION.match(line)
        if not match:
            continue
        depth, opened = 0, False
        for end in range(start, len(lines)):
            if not opened and end > start + 10:
                break                    # a protocol requirement or a stored property: no body
            depth += lines[end].count("{") - lines[end].count("}")
            opened = opened or "{" in lines[end]
            if opened and depth <= 0:
                length = end - start + 1
                if length > MAX_FUNCTION_LINES:
                    found.append((start + 1, length, match.group(1).strip()))
                break
    return found


def check(root):
    failures = []
    sources = os.path.join(root, "Sources")
    for folder, _, files in sorted(os.walk(sources)):
        if "Generated" in folder.split(os.sep):
            continue
        for name in sorted(files):
            if not name.endswith(SOURCE_EXTENSIONS):
                continue
            path = os.path.join(folder, name)
            shown = os.path.relpath(path, root)
            text = open(path, encoding="utf-8").read()
            count = text.count("\n") + (0 if text.endswith("\n") else 1)
            if count > MAX_FILE_LINES:
                failures.append(f"{shown}: {count} lines (at most {MAX_FILE_LINES}): split it by concern")
            if name.endswith(".swift"):
                for line, length, what in long_functions(code_lines(text)):
                    failures.append(f"{shown}:{line}: {what} runs {length} lines (at most {MAX_FUNCTION_LINES})")
    return failures


def main(argv):
    root = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    failures = check(root)
    for failure in failures:
        print(f"check-sizes: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
