#!/usr/bin/python3
"""Draws link utilisation over a slice of a torus from angara-sim's per-link table
(RESULTS.links.csv, written with [stats] network = true; docs/STATS.md).

    sc_main/plot_links.py RESULTS.links.csv --out links.png [--plane x,y] [--at z=1]
                        [--metric utilisation|flits_per_cycle] [--title TEXT] [--dpi N]

The slice is the plane of two dimensions (--plane, default the first two) through the nodes whose
other coordinates are those of --at (default 0). Each node is a circle coloured by its ejection
channel's value; each of its outgoing links in the plane is an arrow coloured by the link's
value, + and - directions side by side; a wrap link is an arrow leaving the edge of the grid.
The format follows --out's extension: .png, .svg or .pdf (the same table gives the same bytes).
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
from matplotlib import cm, colors  # noqa: E402

DIMS = "xyzw"
UNITS = {"utilisation": "share of window cycles busy", "flits_per_cycle": "flits per cycle"}


def fail(message):
    print(f"plot_links.py: {message}", file=sys.stderr)
    sys.exit(2)


def read_table(path):
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        fail(f"cannot read {path}: {e.strerror}")
    if not rows or "port" not in rows[0]:
        fail(f"{path}: not a per-link table (RESULTS.links.csv from [stats] network = true)")
    dims = [d for d in DIMS if d in rows[0]]
    if len(dims) < 2:
        fail(f"{path}: a torus of two or more dimensions is needed (a fat tree has no slice)")
    return rows, dims


def parse_plane(text, dims):
    plane = [p.strip().lower() for p in text.split(",")] if text else dims[:2]
    if len(plane) != 2 or plane[0] == plane[1] or any(p not in dims for p in plane):
        fail(f"--plane {text!r}: two different dimensions of {','.join(dims)}")
    return plane


def parse_at(items, dims, plane):
    at = {d: 0 for d in dims if d not in plane}
    for item in items or []:
        name, _, value = item.partition("=")
        name = name.strip().lower()
        if name not in at or not value.strip().lstrip("-").isdigit():
            fail(f"--at {item!r}: expected DIM=COORD for a dimension outside the plane "
                 f"({', '.join(at) or 'none'})")
        at[name] = int(value)
    return at


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("table", help="RESULTS.links.csv")
    parser.add_argument("--out", required=True, help="figure to write: .png, .svg or .pdf")
    parser.add_argument("--plane", help="two dimensions, e.g. x,y (default: the first two)")
    parser.add_argument("--at", action="append", help="DIM=COORD for the other dimensions (0)")
    parser.add_argument("--metric", choices=sorted(UNITS), default="utilisation")
    parser.add_argument("--title")
    parser.add_argument("--dpi", type=int, default=120, help="PNG resolution (default 120)")
    args = parser.parse_args()
    ext = os.path.splitext(args.out)[1].lower()
    if ext not in (".png", ".svg", ".pdf"):
        fail(f"--out {args.out!r}: the name must end in .png, .svg or .pdf")

    rows, dims = read_table(args.table)
    plane = parse_plane(args.plane, dims)
    at = parse_at(args.at, dims, plane)
    sizes = {d: max(int(r[d]) for r in rows) + 1 for d in dims}
    for d, c in at.items():
        if not 0 <= c < sizes[d]:
            fail(f"--at {d}={c}: the torus has {d} = 0 .. {sizes[d] - 1}")
    u, v = plane
    names = {u: u.upper(), v: v.upper()}
    links, eject = {}, {}
    for r in rows:
        if any(int(r[d]) != c for d, c in at.items()):
            continue
        node = (int(r[u]), int(r[v]))
        value = float(r[args.metric])
        if r["port"] == "local":
            eject[node] = value
        elif r["port"][1:].lower() in (u, v):
            links[(node, r["port"])] = value
    values = list(links.values()) + list(eject.values())
    top = 1.0 if args.metric == "utilisation" else max(values + [1e-9])
    norm = colors.Normalize(vmin=0.0, vmax=max(top, max(values + [0.0])))
    cmap = plt.get_cmap("viridis")

    nu, nv = sizes[u], sizes[v]
    fig, ax = plt.subplots(figsize=(1.3 * nu + 2.5, 1.3 * nv + 1.2))
    offset, length = 0.09, 0.62
    for (node, port), value in sorted(links.items()):
        x, y = node
        sign = 1 if port[0] == "+" else -1
        horizontal = port[1:].lower() == u
        # + and - links side by side: + above (right of) the line between the nodes, - below.
        dx, dy = (sign * length, 0) if horizontal else (0, sign * length)
        ox, oy = (0, sign * offset) if horizontal else (-sign * offset, 0)
        sx, sy = x + ox + (sign * 0.18 if horizontal else 0), y + oy + (0 if horizontal else sign * 0.18)
        ax.annotate("", xy=(sx + dx, sy + dy), xytext=(sx, sy),
                    arrowprops=dict(arrowstyle="-|>", color=cmap(norm(value)), lw=3.2,
                                    shrinkA=0, shrinkB=0, mutation_scale=12))
    for x in range(nu):
        for y in range(nv):
            value = eject.get((x, y), 0.0)
            ax.add_patch(plt.Circle((x, y), 0.16, facecolor=cmap(norm(value)), edgecolor="black",
                                    lw=0.8, zorder=3))
    ax.set_xlim(-0.9, nu - 0.1)
    ax.set_ylim(-0.9, nv - 0.1)
    ax.set_aspect("equal")
    ax.set_xticks(range(nu))
    ax.set_yticks(range(nv))
    ax.set_xlabel(f"{names[u]} coordinate (arrows: +{names[u]} above, -{names[u]} below; "
                  f"+{names[v]} left, -{names[v]} right)")
    ax.set_ylabel(f"{names[v]} coordinate")
    where = ", ".join(f"{d} = {c}" for d, c in at.items())
    ax.set_title(args.title or f"link {args.metric.replace('_', ' ')}" + (f", {where}" if where else ""))
    bar = fig.colorbar(cm.ScalarMappable(norm=norm, cmap=cmap), ax=ax, fraction=0.05)
    bar.set_label(f"{args.metric} ({UNITS[args.metric]}); circles: ejection")
    metadata = {"Date": None} if ext == ".svg" else {"CreationDate": None} if ext == ".pdf" else {}
    fig.savefig(args.out, dpi=args.dpi, bbox_inches="tight", metadata=metadata)
    plt.close(fig)
    print(f"{args.out}: {len(links)} links and {len(eject)} nodes of the {names[u]}{names[v]} plane"
          + (f" at {where}" if where else ""))


if __name__ == "__main__":
    main()
