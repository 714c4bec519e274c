#!/usr/bin/env python3
"""Fails on a source file over its size budget, naming the file, its lines and the budget.

A timing shell (a file named for its mode, *_at.h/.cpp or *_lt.h/.cpp: the SystemC adapter over a
functional core) has at most 200 lines; any other C++ source at most 500. A file past its budget
is asking to be split by concern (STYLE: one class per file, a timing shell thin over its core).

usage: check_sizes.py [REPO_ROOT]
"""
import pathlib
import re
import sys

SHELL_LINES = 200
SOURCE_LINES = 500
FOLDERS = ("models", "collectives", "workloads", "platform", "sc_main", "regress")
SHELL = re.compile(r"_(at|lt)\.(h|cpp)$")


def budget(path: pathlib.Path) -> int:
    return SHELL_LINES if SHELL.search(path.name) else SOURCE_LINES


def main() -> int:
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parents[2])
    over, checked = [], 0
    for folder in FOLDERS:
        for source in sorted((root / folder).rglob("*")):
            if source.suffix not in (".h", ".cpp") or not source.is_file():
                continue
            checked += 1
            lines = len(source.read_text(errors="replace").splitlines())
            if lines > budget(source):
                kind = "timing shell" if SHELL.search(source.name) else "source file"
                over.append(f"{source.relative_to(root)}: {lines} lines, over the {budget(source)} "
                            f"of a {kind}; split it by concern")
    for line in over:
        print(line)
    print(f"check_sizes: {checked} files, {len(over)} over budget")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
