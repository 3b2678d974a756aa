#!/usr/bin/env python3
"""The library products' public API, read from the symbol graphs `swift package
dump-symbol-graph` writes.

  api.py coverage GRAPHS           every public symbol has a /// comment (lists those without)
  api.py check GRAPHS BASELINE     the public API is the checked-in baseline (prints the diff)
  api.py update GRAPHS BASELINE    writes the baseline anew
  api.py snippets OUT FILE...      each ```swift block of FILE (a DocC article, the README's
                                   "Use it from Swift") as OUT/<n>/main.swift, for type-checking

GRAPHS is the symbol graph directory, BASELINE the directory holding one <Module>.api file
per library product. A baseline line is a symbol's kind, its path and its declaration as
the compiler prints it, or a relationship (a conformance, a superclass, a default
implementation) between two public symbols: what a client can call and rely on, without
the comments and source locations that change without changing the API.
"""
import difflib
import json
import os
import re
import sys

MODULES = ["Geodesy", "NMEA", "LocationKit", "MotionKit", "TrackExport"]


def graphs(directory, module):
    """The module's own graph and its extensions of other modules' types (Module@Other)."""
    names = sorted(n for n in os.listdir(directory) if n == f"{module}.symbols.json" or n.startswith(f"{module}@"))
    if f"{module}.symbols.json" not in names:
        sys.exit(f"api: no symbol graph for {module} in {directory}")
    return [json.load(open(os.path.join(directory, n))) for n in names]


def declaration(symbol):
    return "".join(f["spelling"] for f in symbol.get("declarationFragments", [])).replace("\n", " ")


def lines(directory, module):
    out = set()
    for graph in graphs(directory, module):
        paths = {}
        for symbol in graph["symbols"]:
            path = ".".join(symbol["pathComponents"])
            paths[symbol["identifier"]["precise"]] = path
            out.add(f"{symbol['kind']['identifier']} {path}: {declaration(symbol)}")
        for relation in graph.get("relationships", []):
            source = paths.get(relation["source"])
            if source is None:
                continue
            target = paths.get(relation["target"]) or relation.get("targetFallback") or relation["target"]
            out.add(f"relationship {source} {relation['kind']} {target}")
    return sorted(out)


def coverage(directory):
    missing = []
    for module in MODULES:
        for graph in graphs(directory, module):
            for symbol in graph["symbols"]:
                # Inherited (sourceOrigin) and compiler-synthesized (no location) members carry
                # the documentation of what they implement.
                if "docComment" in symbol or "sourceOrigin" in symbol or "location" not in symbol:
                    continue
                where = symbol["location"]
                file = re.sub(r"^file://", "", where["uri"])
                file = os.path.relpath(file)
                missing.append(
                    f"{file}:{where['position']['line'] + 1}: {module}.{'.'.join(symbol['pathComponents'])}")
    if missing:
        print("api: public symbols without a /// comment:", file=sys.stderr)
        for entry in sorted(missing):
            print("  " + entry, file=sys.stderr)
        sys.exit(1)
    print("api: every public symbol of " + ", ".join(MODULES) + " is documented", file=sys.stderr)


def check(directory, baseline, update):
    changed = False
    for module in MODULES:
        current = lines(directory, module)
        path = os.path.join(baseline, f"{module}.api")
        if update:
            os.makedirs(baseline, exist_ok=True)
            with open(path, "w") as file:
                file.write("".join(line + "\n" for line in current))
            continue
        recorded = open(path).read().splitlines() if os.path.exists(path) else []
        if recorded != current:
            changed = True
            print(f"api: the public API of {module} differs from {path}:", file=sys.stderr)
            sys.stderr.writelines(
                line + "\n" for line in difflib.unified_diff(recorded, current, f"{path} (baseline)", f"{module} (built)", n=0, lineterm=""))
    if update:
        print(f"api: baseline written to {baseline}", file=sys.stderr)
    elif changed:
        print("api: if the change is meant, run `scripts/docs --update-api` and commit the baseline with it",
              file=sys.stderr)
        sys.exit(1)
    else:
        print(f"api: the public API matches the baseline in {baseline}", file=sys.stderr)


def snippets(out, files):
    count = 0
    for name in files:
        text = open(name).read()
        for match in re.finditer(r"^```swift\n(.*?)^```", text, re.S | re.M):
            code = match.group(1)
            if code.startswith("// swift-tools-version"):
                continue  # a manifest, checked by building the example package
            count += 1
            line = text.count("\n", 0, match.start()) + 2
            folder = os.path.join(out, str(count))
            os.makedirs(folder, exist_ok=True)
            with open(os.path.join(folder, "main.swift"), "w") as file:
                file.write(f'#sourceLocation(file: "{name}", line: {line})\n' + code)
    print(count)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    command = sys.argv[1]
    if command == "coverage":
        coverage(sys.argv[2])
    elif command in ("check", "update") and len(sys.argv) == 4:
        check(sys.argv[2], sys.argv[3], command == "update")
    elif command == "snippets":
        snippets(sys.argv[2], sys.argv[3:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
