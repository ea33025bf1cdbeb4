#!/usr/bin/env python3
"""Checks docs/how-it-works.md's module table against Package.swift: every target of the package
(tests aside) has a row, and each row's "imports" column names exactly the dependencies the
manifest declares for it, so the drawing of the architecture cannot drift from the build.

    scripts/check-module-table.py DUMP.json [ROOT]

DUMP.json is `swift package dump-package`'s output (scripts/check-imports.sh makes it and runs
this). In the table, a module of the package is written without its `VRender` prefix ("Core",
"Media"), a C module or an executable by its name, another package's product by its name;
"Foundation" and "C libraries" are not dependencies. A row may name several C modules at once.
"""
import json
import os
import re
import sys

NOT_DEPENDENCIES = {"Foundation", "C libraries"}


def declared(target):
    names = set()
    for dependency in target["dependencies"]:
        kind, value = next(iter(dependency.items()))
        names.add(value[0])
    return names


def full_name(short, targets):
    for candidate in (short, "VRender" + short):
        if candidate in targets:
            return candidate
    return short        # another package's product, as the manifest names it


def rows(text):
    """(line number, [module names], [import names]) of the table's rows."""
    found = []
    for number, line in enumerate(text.split("\n"), 1):
        if not line.startswith("| `"):
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        modules = re.findall(r"`([^`]+)`", cells[0])
        imports = [name.strip() for name in cells[-1].split(",") if name.strip()]
        found.append((number, modules, imports))
    return found


def check(dump_path, root):
    manifest = json.load(open(dump_path))
    # Test targets and their support library (under Tests/) are not part of the architecture.
    targets = {t["name"]: t for t in manifest["targets"]
               if t["type"] != "test" and not (t.get("path") or "").startswith("Tests")}
    doc = os.path.join(root, "docs", "how-it-works.md")
    failures, seen = [], set()
    for number, modules, imports in rows(open(doc, encoding="utf-8").read()):
        where = f"docs/how-it-works.md:{number}"
        for module in modules:
            if module not in targets:
                failures.append(f"{where}: `{module}` is not a target in Package.swift")
        seen.update(modules)
        if len(modules) != 1 or modules[0] not in targets:
            continue
        module = modules[0]
        written = {full_name(name, targets) for name in imports if name not in NOT_DEPENDENCIES}
        actual = declared(targets[module])
        if written != actual:
            missing = ", ".join(sorted(actual - written)) or "nothing"
            extra = ", ".join(sorted(written - actual)) or "nothing"
            failures.append(f"{where}: `{module}`'s imports column lacks {missing} and names {extra} that "
                            "Package.swift does not declare")
    for name in sorted(set(targets) - seen):
        failures.append(f"docs/how-it-works.md: no row for the target `{name}`")
    return failures


def main(argv):
    if len(argv) < 2:
        print("usage: scripts/check-module-table.py DUMP.json [ROOT]", file=sys.stderr)
        return 2
    root = argv[2] if len(argv) > 2 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    failures = check(argv[1], root)
    for failure in failures:
        print(f"check-module-table: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
