#!/usr/bin/env python3
"""Runs the bad-input table (cases.txt beside this file) against angara-sim and angara-sweep.

Each case runs in a directory of its own holding a FIFO (standing for a device such as
/dev/null), a directory, a regular file, a config and a compute table (the inputs a run must not
replace). A case passes when the program exits with the status the table gives, within the time
limit (a hang fails), its message names the key or flag the table gives, and it leaves no
results, no temporary file, every one of those as it was, and no file named pwn* (what a case's
injected command would make).

usage: run_bad_input.py --sim ANGARA_SIM --sweep ANGARA_SWEEP [--table cases.txt] [--only TEXT]
"""

import argparse
import os
import shlex
import stat
import subprocess
import sys
import tempfile

TIMEOUT_SECONDS = 60


def read_table(path):
    cases = []
    with open(path, encoding="utf-8") as table:
        for number, line in enumerate(table, 1):
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            fields = [f.strip() for f in text.split("|", 4)]
            if len(fields) != 5 or fields[1] not in ("sim", "sweep"):
                sys.exit(f"{path}:{number}: expected class | sim or sweep | exit | names | args")
            cases.append(
                {
                    "line": number,
                    "name": fields[0],
                    "tool": fields[1],
                    "exit": int(fields[2]),
                    "names": fields[3],
                    "args": fields[4],
                }
            )
    return cases


# The regular files of a case's directory and what each holds: a file, a config, a compute table.
FILES = {
    "file.txt": "keep me\n",
    "c.toml": "[topology]\ndims = [2, 2]\n",
    "table.csv": "work_size,time_ns\n1000,5000\n2000,9000\n",
}


def make_fixtures(tmp):
    os.mkfifo(os.path.join(tmp, "fifo"))
    os.mkdir(os.path.join(tmp, "adir"))
    for name, text in FILES.items():
        with open(os.path.join(tmp, name), "w", encoding="utf-8") as f:
            f.write(text)


def fixture_damage(tmp):
    """What happened to the fixtures and what the case left behind, as a list of complaints."""
    damage = []
    if not stat.S_ISFIFO(os.lstat(os.path.join(tmp, "fifo")).st_mode):
        damage.append("the FIFO was replaced")
    if not os.path.isdir(os.path.join(tmp, "adir")) or os.listdir(os.path.join(tmp, "adir")):
        damage.append("the directory was replaced or written into")
    for name, text in FILES.items():
        path = os.path.join(tmp, name)
        if os.path.islink(path) or not os.path.isfile(path):
            damage.append(f"{name} was replaced")
            continue
        with open(path, encoding="utf-8", errors="replace") as f:
            if f.read() != text:
                damage.append(f"{name} was changed")
    for root, dirs, files in os.walk(tmp):
        for name in files + dirs:
            if name.endswith(".partial") or name.endswith(".json") or name.endswith(".vcd"):
                damage.append(f"left {os.path.relpath(os.path.join(root, name), tmp)}")
            if name == "sweep":
                damage.append("made the sweep directory")
            if name.startswith("pwn"):
                damage.append(f"an injected command ran: it made {name}")
    return damage


def run_case(case, tools, here):
    with tempfile.TemporaryDirectory(prefix="bad_input_") as tmp:
        make_fixtures(tmp)
        words = shlex.split(case["args"].replace("{tmp}", tmp).replace("{here}", here))
        # {xff}: the byte 0xff, which is not UTF-8 (the arguments reach the program as bytes).
        words = [w.replace("{xff}", "\udcff") for w in words]
        command = [tools[case["tool"]]] + words
        try:
            done = subprocess.run(
                command,
                cwd=tmp,
                capture_output=True,
                text=True,
                timeout=TIMEOUT_SECONDS,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return [f"no answer within {TIMEOUT_SECONDS} s (a hang)"], ""
        complaints = []
        message = done.stderr + done.stdout
        if done.returncode < 0:
            complaints.append(f"killed by signal {-done.returncode}")
        elif done.returncode != case["exit"]:
            complaints.append(f"exit status {done.returncode}, expected {case['exit']}")
        if case["names"] not in message:
            complaints.append(f"the message does not name '{case['names']}'")
        complaints += fixture_damage(tmp)
        return complaints, message.strip()


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sim", required=True)
    parser.add_argument("--sweep", required=True)
    parser.add_argument("--table", default=os.path.join(here, "cases.txt"))
    parser.add_argument("--only", default="", help="run the cases whose class contains this")
    args = parser.parse_args()
    tools = {"sim": os.path.abspath(args.sim), "sweep": os.path.abspath(args.sweep)}
    cases = [c for c in read_table(args.table) if args.only in c["name"]]
    failed = 0
    for case in cases:
        complaints, message = run_case(case, tools, here)
        first = message.splitlines()[0] if message else "(no message)"
        if complaints:
            failed += 1
            print(f"FAIL {case['name']} (line {case['line']}): {'; '.join(complaints)}")
            print(f"     {case['tool']} {case['args']}\n     said: {message[:600]}")
        else:
            print(f"ok   {case['name']}: {first[:160]}")
    print(f"{len(cases) - failed} of {len(cases)} bad-input cases passed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
