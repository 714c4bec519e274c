#!/usr/bin/python3
"""Draws a run's traffic over time from angara-sim's table over time (RESULTS.intervals.csv,
written with [stats] interval_cycles = N; docs/STATS.md).

    sc_main/plot_intervals.py RESULTS.intervals.csv --out time.png [--mark CYCLE[=LABEL]]...
                            [--log-latency] [--title TEXT] [--dpi N]

Three panels over the run's cycles, one point per interval: offered and accepted load
(flits/node/cycle), packet latency (p50, p99 and mean, cycles) and the packets outstanding
(created, not yet delivered). --mark draws a vertical line at a cycle, e.g. the cycle links fail
(faults.fail_at_cycle) or the window's ends. The format follows --out's extension: .png, .svg or
.pdf (the same table gives the same bytes).
"""

import argparse
import csv
import os
import sys

try:
    import matplotlib
except ImportError:  # another python3 than Debian's (the shebang names it), without matplotlib
    print(f"{os.path.basename(sys.argv[0])}: needs matplotlib, which {sys.executable} does not "
          "have: run it with /usr/bin/python3 after apt-get install python3-matplotlib (or "
          "install matplotlib for this python3)", file=sys.stderr)
    sys.exit(2)

matplotlib.use("Agg")
matplotlib.rcParams["svg.hashsalt"] = "angara-tlm"  # the same table gives the same SVG bytes
import matplotlib.pyplot as plt  # noqa: E402

COLUMNS = ("start_cycle", "end_cycle", "offered_flits_per_node_cycle",
           "accepted_flits_per_node_cycle", "latency_cycles.mean", "latency_cycles.p50",
           "latency_cycles.p99", "packets_outstanding")


def fail(message):
    print(f"plot_intervals.py: {message}", file=sys.stderr)
    sys.exit(2)


def read_table(path):
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        fail(f"cannot read {path}: {e.strerror}")
    if not rows or any(c not in rows[0] for c in COLUMNS):
        fail(f"{path}: not a table over time (RESULTS.intervals.csv from [stats] interval_cycles)")
    return rows


def parse_mark(text):
    cycle, _, label = text.partition("=")
    if not cycle.strip().isdigit():
        fail(f"--mark {text!r}: expected CYCLE or CYCLE=LABEL, CYCLE a whole number")
    return int(cycle), label.strip() or f"cycle {int(cycle)}"


def column(rows, name):
    """The column's values, None where a row has none (no packet arrived in it)."""
    return [float(r[name]) if r[name] != "" else None for r in rows]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("table", help="RESULTS.intervals.csv")
    parser.add_argument("--out", required=True, help="figure to write: .png, .svg or .pdf")
    parser.add_argument("--mark", action="append", default=[],
                        help="CYCLE or CYCLE=LABEL: a vertical line there (repeatable)")
    parser.add_argument("--log-latency", action="store_true", help="latency on a log axis")
    parser.add_argument("--title")
    parser.add_argument("--dpi", type=int, default=120, help="PNG resolution (default 120)")
    args = parser.parse_args()
    ext = os.path.splitext(args.out)[1].lower()
    if ext not in (".png", ".svg", ".pdf"):
        fail(f"--out {args.out!r}: the name must end in .png, .svg or .pdf")
    marks = [parse_mark(m) for m in args.mark]

    rows = read_table(args.table)
    # Each interval's value at its middle.
    x = [(float(r["start_cycle"]) + float(r["end_cycle"])) / 2 for r in rows]
    fig, (load, latency, outstanding) = plt.subplots(3, 1, figsize=(8, 8), sharex=True)
    load.plot(x, column(rows, "offered_flits_per_node_cycle"), label="offered")
    load.plot(x, column(rows, "accepted_flits_per_node_cycle"), label="accepted")
    load.set_ylabel("flits/node/cycle")
    for name in ("p99", "p50", "mean"):
        latency.plot(x, column(rows, f"latency_cycles.{name}"), label=name, marker=".", ms=3)
    latency.set_ylabel("latency, cycles")
    if args.log_latency:
        latency.set_yscale("log")
    outstanding.plot(x, column(rows, "packets_outstanding"), color="tab:gray")
    outstanding.set_ylabel("packets outstanding")
    outstanding.set_xlabel(f"cycle (intervals of {int(float(rows[0]['end_cycle']))} cycles)")
    for ax in (load, latency, outstanding):
        ax.grid(alpha=0.3)
        for cycle, label in marks:
            ax.axvline(cycle, color="tab:red", ls="--", lw=1)
    for i, (cycle, label) in enumerate(marks):  # labels one below another: marks may be close
        load.annotate(label, (cycle, 1), xycoords=("data", "axes fraction"),
                      xytext=(3, -12 * (i + 1)),
                      textcoords="offset points", color="tab:red", fontsize=8)
    load.legend(loc="upper right")
    latency.legend(loc="upper left")
    load.set_title(args.title or f"traffic over time ({os.path.basename(args.table)})")
    metadata = {"Date": None} if ext == ".svg" else {"CreationDate": None} if ext == ".pdf" else {}
    fig.savefig(args.out, dpi=args.dpi, bbox_inches="tight", metadata=metadata)
    plt.close(fig)
    print(f"{args.out}: {len(rows)} intervals, cycles 0 .. {rows[-1]['end_cycle']}")


if __name__ == "__main__":
    main()
