#!/usr/bin/env bash
# Checks the module graph against the rules the layout depends on; fails naming each breach.
#
#   scripts/check-imports.sh           check this clone (Package.swift and Sources/)
#   scripts/check-imports.sh ROOT      check the package at ROOT instead
#
# 1. Exports and chunk workers stay off the capture stack: VRenderTakes, VRenderExport and
#    VRenderScale (what `vrender chunk` runs) must not reach, through Package.swift's target
#    dependencies at any depth, VRenderCapture, VRenderRecording, VRenderDemo or the device
#    libraries (CV4L2, CALSA, CPulse). SwiftPM links every dependency a target declares, imported
#    or not, so the manifest's graph is what a library product links.
# 2. `vrender-worker` links only what a chunk needs: the closure of the executable product's
#    targets, other packages' products included, reaches none of VRenderCapture, VRenderRecording,
#    VRenderStudio, VRenderStudioServer, VRenderDemo, CV4L2, CALSA, CPulse, nor any product of the
#    hummingbird packages (the studio's web server, SwiftNIO below it).
# 3. Package.swift's header table is current: every module appears in it, and each module's
#    dependencies appear before it ("each module imports only modules listed before it").
# 4. Imports and dependencies agree: every `import` of one of the package's modules in
#    Sources/T/ is a dependency T declares, and every module T declares is imported there
#    (a dependency nothing imports still links; test targets and Tests/Support are not checked).
#
# Reads the manifest with `swift package dump-package` (seconds; nothing is built) and the sources
# with python3. Run by `make test` before the tests.
set -euo pipefail
root=${1:-"$(dirname "$0")/.."}
cd "$root"

command -v python3 >/dev/null || { echo "check-imports: python3 not found (scripts/install-deps.sh installs it)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# VRENDER_SANITIZE would drop targets from the manifest; the check is of the whole package. A
# scratch folder of its own: it need not wait for a build holding .build's lock.
env -u VRENDER_SANITIZE swift package --scratch-path "$work/build" dump-package >"$work/dump.json"

python3 - "$work/dump.json" <<'EOF'
import json, os, re, sys

manifest = json.load(open(sys.argv[1]))
targets = {t["name"]: t for t in manifest["targets"]}

def declared(name):
    """The package's own targets `name` lists as dependencies (products of other packages aside)."""
    deps = []
    for dep in targets[name]["dependencies"]:
        kind, value = next(iter(dep.items()))
        if kind in ("byName", "target") and value[0] in targets:
            deps.append(value[0])
    return deps

def linked(name):
    """What `name` lists that is linked with it: the package's targets, and other packages'
    products as "package:Product" (SwiftPM links a declared dependency, imported or not)."""
    if name not in targets:
        return []
    deps = []
    for dep in targets[name]["dependencies"]:
        kind, value = next(iter(dep.items()))
        if kind in ("byName", "target") and value[0] in targets:
            deps.append(value[0])
        elif kind == "product":
            deps.append(f"{value[1]}:{value[0]}")
    return deps

def closure(name, edges=declared):
    seen, stack = set(), list(edges(name))
    while stack:
        dep = stack.pop()
        if dep not in seen:
            seen.add(dep)
            stack.extend(edges(dep))
    return seen

def path_to(start, goal, edges=declared):
    """One chain of dependencies from start to goal, for the message."""
    queue, parent = [start], {start: None}
    while queue:
        name = queue.pop(0)
        if name == goal:
            chain = []
            while name is not None:
                chain.append(name)
                name = parent[name]
            return " -> ".join(reversed(chain))
        for dep in edges(name):
            if dep not in parent:
                parent[dep] = name
                queue.append(dep)
    return start

failures = []

# 1. Exports and chunk workers without the capture stack.
kept_off = ["VRenderCapture", "VRenderRecording", "VRenderDemo", "CV4L2", "CALSA", "CPulse"]
for name in ["VRenderTakes", "VRenderExport", "VRenderScale"]:
    if name not in targets:
        failures.append(f"Package.swift: no target {name}")
        continue
    reached = closure(name)
    for banned in kept_off:
        if banned in reached:
            failures.append(f"Package.swift: {name} depends on {banned} ({path_to(name, banned)}); "
                            "exports and chunk workers must not link the capture stack")

# 2. The chunk worker's executable links no capture, studio or web server code.
worker_kept_off = kept_off + ["VRenderStudio", "VRenderStudioServer"]
worker_kept_off_packages = ["hummingbird", "hummingbird-websocket"]
products = {p["name"]: p for p in manifest["products"]}
worker = products.get("vrender-worker")
if worker is None or "executable" not in worker["type"]:
    failures.append("Package.swift: no executable product vrender-worker")
else:
    for target in worker["targets"]:
        reached = closure(target, linked) | {target}
        banned = [name for name in sorted(reached)
                  if name in worker_kept_off or name.split(":")[0] in worker_kept_off_packages]
        for name in banned:
            failures.append(f"Package.swift: the vrender-worker executable links {name} "
                            f"({path_to(target, name, linked)}); chunk workers link VRenderScale and below only")

# 3. The header table: module order.
modules = [n for n, t in targets.items() if t["type"] in ("regular", "system", "executable")
           and n != "VRenderTestSupport"]
order = []
for line in open("Package.swift"):
    if not line.startswith("//"):
        if order:
            break
        continue
    match = re.match(r"//\s+([A-Za-z0-9_]+(?:,\s*[A-Za-z0-9_]+)*)\s", line + " ")
    if match:
        order.extend(n for n in re.split(r",\s*", match.group(1)) if n in targets and n not in order)
for name in modules:
    if name not in order:
        failures.append(f"Package.swift: {name} is missing from the header's module table")
        continue
    for dep in declared(name):
        if dep in order and order.index(dep) > order.index(name):
            failures.append(f"Package.swift: the header's module table lists {name} before {dep}, which it depends on")

# 4. Imports against declared dependencies, for the package's source modules.
import_line = re.compile(r"^\s*(?:@\w+\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?"
                         r"import\s+(?:(?:struct|class|enum|protocol|typealias|func|var|let)\s+)?([A-Za-z0-9_]+)")
for name in modules:
    t = targets[name]
    if t["type"] == "system":
        continue
    folder = t.get("path") or os.path.join("Sources", name)
    imported = {}
    for directory, subfolders, files in os.walk(folder):
        # A DocC catalog's Swift files are a tutorial's code listings, not the module's sources.
        subfolders[:] = [d for d in subfolders if not d.endswith(".docc")]
        for file in sorted(files):
            if not file.endswith(".swift"):
                continue
            path = os.path.join(directory, file)
            for line in open(path, encoding="utf-8"):
                found = import_line.match(line)
                if found and found.group(1) in targets:
                    imported.setdefault(found.group(1), path)
    deps = declared(name)
    for module, path in sorted(imported.items()):
        if module != name and module not in deps:
            failures.append(f"{path}: imports {module}, which Package.swift does not list for {name}")
    for dep in deps:
        if dep not in imported and targets[dep]["type"] != "system":
            failures.append(f"Package.swift: {name} depends on {dep}, which nothing in {folder} imports")

for failure in failures:
    print("check-imports: " + failure, file=sys.stderr)
if failures:
    sys.exit(1)
print(f"check-imports: {len(modules)} modules; exports and chunk workers stay off the capture stack, "
      "vrender-worker off the studio and its server")
EOF
