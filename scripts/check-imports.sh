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
# 5. C modules stay inside the module that imports them: every import of one in Sources/ is
#    `internal`, `fileprivate` or `private`, so no C type shows in a public or package declaration
#    and no client of a library product needs the C headers.
# 6. The command line only parses and calls the libraries: Sources/vrender imports nothing but
#    the modules in `cli_allowed` (not VRenderMedia, VRenderImaging or a C module; what it needs
#    from them comes through the library it calls).
# 7. System calls go through `Syscall` (Sources/VRenderCore/Syscall.swift): no other Swift file
#    calls Glibc's read, write, open, openat, pread or pwrite itself (`Glibc.read(...)`, or a bare
#    call with the C function's unlabelled arguments), so every one retries EINTR and reads and
#    writes to the end. Code only: comments and string literals are left out; Sources/C* (C
#    modules) and DocC catalogs are not read.
# 8. docs/how-it-works.md's module table is the manifest's graph (scripts/check-module-table.py),
#    where the checked folder has that doc.
#
# Reads the manifest with `swift package dump-package` (seconds; nothing is built) and the sources
# with python3. Run by `make test` before the tests.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=${1:-"$here/.."}
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

def swift_imports(folder):
    """(path, line number, access word or "", module) of every import in folder's Swift files."""
    found = []
    for directory, subfolders, files in os.walk(folder):
        subfolders[:] = sorted(d for d in subfolders if not d.endswith(".docc"))
        for file in sorted(f for f in files if f.endswith(".swift")):
            path = os.path.join(directory, file)
            for number, line in enumerate(open(path, encoding="utf-8"), 1):
                match = re.match(r"^\s*(?:@\w+\s+)*(?:(public|package|internal|fileprivate|private)\s+)?"
                                 r"import\s+(?:(?:struct|class|enum|protocol|typealias|func|var|let)\s+)?([A-Za-z0-9_]+)", line)
                if match:
                    found.append((path, number, match.group(1) or "", match.group(2)))
    return found

# 5. Imports of C modules are internal (or narrower).
def check_c_imports():
    def is_c(name):
        """A system library, or a target whose folder holds no Swift file (C sources)."""
        t = targets[name]
        if t["type"] == "system":
            return True
        folder = t.get("path") or os.path.join("Sources", name)
        return t["type"] == "regular" and os.path.isdir(folder) and not any(
            f.endswith(".swift") for _, _, files in os.walk(folder) for f in files)
    c_modules = {n for n in targets if is_c(n)}
    for path, number, access, module in swift_imports("Sources"):
        if module in c_modules and access not in ("internal", "fileprivate", "private"):
            failures.append(f"{path}:{number}: imports the C module {module} as `{access or 'import'}`; "
                            f"write `internal import {module}` so no C type leaks into the module's API")

# 6. The command line imports only the libraries it calls.
def check_cli_imports():
    cli_allowed = {"Foundation", "Glibc", "Darwin", "Dispatch", "Synchronization", "ArgumentParser",
                   "VRenderCore", "VRenderFilters", "VRenderPrompter", "VRenderTakes", "VRenderCapture",
                   "VRenderRecording", "VRenderAlignment", "VRenderExport", "VRenderVerify", "VRenderVulkan", "VRenderScale",
                   "VRenderDemo", "VRenderBench", "VRenderDoctor", "VRenderStudio", "VRenderStudioServer",
                   "VRenderWorkerCommands"}
    for path, number, _, module in swift_imports(os.path.join("Sources", "vrender")):
        if module not in cli_allowed:
            failures.append(f"{path}:{number}: the command line imports {module}; it only parses and calls one "
                            "library entry point, so what it needs from that module comes through the library "
                            "(or add the module to cli_allowed in scripts/check-imports.sh, saying why)")

check_c_imports()
check_cli_imports()

# 7. System calls through Syscall.
SYSCALL_HOME = os.path.join("Sources", "VRenderCore", "Syscall.swift")
# The C functions and how many arguments each takes (open and openat: the mode is optional).
SYSCALL_ARITY = {"read": {3}, "write": {3}, "pread": {4}, "pwrite": {4}, "open": {2, 3}, "openat": {3, 4}}
SYSCALL_CALL = re.compile(r"(?<![\w.])(Glibc\s*\.\s*)?(read|write|pread|pwrite|openat|open)\s*\(")

def swift_code(text):
    """`text` with comments and string literals' contents left out (an interpolation's code
    kept), newlines kept so that offsets still give line numbers."""
    out, i, n = [], 0, len(text)
    # What is open: "code" (with its parenthesis depth, for an interpolation) or a string
    # (its closing delimiter).
    stack = [["code", 0]]
    while i < n:
        state = stack[-1]
        if state[0] == "code":
            if text.startswith("//", i):
                end = text.find("\n", i)
                i = n if end < 0 else end
            elif text.startswith("/*", i):
                depth, j = 1, i + 2
                while j < n and depth:
                    if text.startswith("/*", j): depth, j = depth + 1, j + 2
                    elif text.startswith("*/", j): depth, j = depth - 1, j + 2
                    else: j += 1
                out.append("\n" * text.count("\n", i, j))
                i = j
            elif (m := re.match(r'(#*)("""|")', text[i:])) and (m.group(1) or text[i] == '"'):
                stack.append(["string", m.group(2) + m.group(1), len(m.group(1))])
                out.append('"')
                i += m.end()
            else:
                if text[i] == "(": state[1] += 1
                elif text[i] == ")":
                    if state[1] == 0 and len(stack) > 1:   # the end of an interpolation
                        stack.pop()
                        i += 1
                        continue
                    state[1] -= 1
                out.append(text[i])
                i += 1
        else:
            closing, hashes = state[1], state[2]
            if text.startswith(closing, i):
                stack.pop()
                out.append('"')
                i += len(closing)
            elif text.startswith("\\" + "#" * hashes + "(", i):
                stack.append(["code", 0])
                i += 2 + hashes
            elif text[i] == "\\" and not hashes:
                i += 2
            else:
                if text[i] == "\n": out.append("\n")
                i += 1
    return "".join(out)

def call_arguments(code, start):
    """The top-level arguments of the call whose "(" is at `start`; None when it never closes."""
    depth, args, begin = 0, [], start + 1
    for j in range(start, len(code)):
        c = code[j]
        if c in "([{": depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                args.append(code[begin:j])
                return [a for a in args if a.strip()] if any(a.strip() for a in args) else []
        elif c == "," and depth == 1:
            args.append(code[begin:j])
            begin = j + 1
    return None

def direct_syscalls(path):
    """file:line of each call of a Glibc read/write/open/openat/pread/pwrite in `path`."""
    code = swift_code(open(path, encoding="utf-8").read())
    found = []
    for match in SYSCALL_CALL.finditer(code):
        args = call_arguments(code, match.end() - 1)
        if args is None or re.search(r"\bfunc\s*$", code[max(0, match.start() - 12):match.start()]):
            continue   # unclosed, or a declaration ("func open(_ path: String)")
        labelled = any(re.match(r"\s*[A-Za-z_]\w*\s*:(?!:)", a) for a in args)
        if match.group(1) or (not labelled and len(args) in SYSCALL_ARITY[match.group(2)]):
            found.append(f"{path}:{code.count(chr(10), 0, match.start()) + 1}: calls {match.group(2)}() directly")
    return found

for directory, subfolders, files in os.walk("Sources"):
    subfolders[:] = sorted(d for d in subfolders if not d.endswith(".docc")
                           and not (directory == "Sources" and d.startswith("C")))
    for file in sorted(files):
        path = os.path.join(directory, file)
        if file.endswith(".swift") and path != SYSCALL_HOME:
            failures.extend(f"{place}; system calls go through Syscall (Sources/VRenderCore/Syscall.swift)"
                            for place in direct_syscalls(path))

for failure in failures:
    print("check-imports: " + failure, file=sys.stderr)
if failures:
    sys.exit(1)
print(f"check-imports: {len(modules)} modules; exports and chunk workers stay off the capture stack, "
      "vrender-worker off the studio and its server; C modules imported internally; the CLI imports only "
      "the libraries it calls; system calls go through Syscall")
EOF

# 8. The architecture's drawing against the manifest (a copy with no docs, as the tests make, skips it).
if [ -f docs/how-it-works.md ]; then
  python3 "$here/check-module-table.py" "$work/dump.json" .
fi
