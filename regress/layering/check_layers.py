#!/usr/bin/env python3
"""Fails on an #include that runs up a layer, or a library that links one above it.

The allowed arrows are read from docs/ARCHITECTURE.md (the fenced block after the heading
"## Layers"), so the page and the check cannot drift apart. A layer may include its own headers
and those of every layer it reaches along the arrows.

usage: check_layers.py [REPO_ROOT]
"""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parents[2])
doc = (root / "docs" / "ARCHITECTURE.md").read_text()
block = re.search(r"^## Layers\n.*?^```\n(.*?)^```", doc, re.S | re.M)
if not block:
    sys.exit("check_layers: no fenced block after '## Layers' in docs/ARCHITECTURE.md")

arrows = {}  # layer -> the layers it may include directly
for line in block.group(1).splitlines():
    m = re.match(r"^(\S+)\s+->\s*(.*?)\s*(#.*)?$", line)
    if m:
        arrows[m.group(1)] = [d.strip() for d in m.group(2).split(",") if d.strip() and d.strip() != "-"]
errors = []
for layer, deps in arrows.items():
    errors += [f"docs/ARCHITECTURE.md: {layer} -> {d}: no such layer" for d in deps if d not in arrows]
# The top folders stack in the order they first appear in the block (models, collectives,
# workloads, platform, sc_main): an arrow never runs from one folder to a later one.
folders = list(dict.fromkeys(layer.split("/")[0] for layer in arrows))
for layer, deps in arrows.items():
    for d in deps:
        if d in arrows and folders.index(d.split("/")[0]) > folders.index(layer.split("/")[0]):
            errors.append(f"docs/ARCHITECTURE.md: {layer} -> {d}: an arrow from "
                          f"{layer.split('/')[0]}/ up to {d.split('/')[0]}/ (the folders stack "
                          f"{', '.join(folders)})")


def below(layer, seen=()):
    """Every layer reachable from `layer`; a cycle in the table is an error."""
    out = set()
    for d in arrows.get(layer, []):
        if d in seen or d == layer:
            errors.append(f"docs/ARCHITECTURE.md: the arrows form a cycle through {layer} and {d}")
            continue
        out |= {d} | below(d, seen + (layer,))
    return out


reach = {layer: below(layer) | {layer} for layer in arrows}


def layer_of(path):
    """The longest layer that is a prefix of `path` (a repository-relative path)."""
    best = None
    for layer in arrows:
        if (path == layer or path.startswith(layer + "/")) and (best is None or len(layer) > len(best)):
            best = layer
    return best


checked = 0
for top in sorted({layer.split("/")[0] for layer in arrows}):
    for source in sorted((root / top).rglob("*")):
        if source.suffix not in (".h", ".cpp"):
            continue
        rel = source.relative_to(root).as_posix()
        src_layer = layer_of(rel)
        if src_layer is None:
            errors.append(f"{rel}: in no layer of docs/ARCHITECTURE.md")
            continue
        for number, text in enumerate(source.read_text().splitlines(), 1):
            m = re.match(r'\s*#\s*include\s+"([^"]+)"', text)
            if not m:
                continue
            checked += 1
            target = layer_of(m.group(1))
            if target is None:
                errors.append(f'{rel}:{number}: includes "{m.group(1)}", which is in no layer')
            elif target not in reach[src_layer]:
                errors.append(f'{rel}:{number}: {src_layer} includes "{m.group(1)}" of {target}, '
                              f"which is not below it (allowed: {', '.join(sorted(reach[src_layer] - {src_layer})) or 'nothing'})")
# The libraries: each angara_library() in a layer's CMakeLists.txt; what it USES must be below.
libraries = {}  # name -> (layer, [used names])
for cmake in sorted(root.rglob("CMakeLists.txt")):
    rel = cmake.parent.relative_to(root).as_posix()
    for m in re.finditer(r"angara_library\((\w+)(.*?)\)", cmake.read_text(), re.S):
        uses = re.search(r"USES\s+(.*)", m.group(2), re.S)
        libraries[m.group(1)] = (layer_of(rel), uses.group(1).split() if uses else [])
for name, (layer, uses) in libraries.items():
    if layer is None:
        errors.append(f"{name}: its CMakeLists.txt is in no layer")
        continue
    for used in uses:
        if used in libraries and libraries[used][0] not in reach[layer]:
            errors.append(f"{name} ({layer}) uses {used} ({libraries[used][0]}), which is not below it")
for e in errors:
    print(e)
print(f"check_layers: {len(arrows)} layers, {len(libraries)} libraries, {checked} includes, "
      f"{len(errors)} problems")
sys.exit(1 if errors else 0)
