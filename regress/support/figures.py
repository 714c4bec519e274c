"""What the studies' report scripts share (regress/paper, regress/torus_fat_tree): matplotlib set
up so that the same CSVs give the same figure bytes, figures saved as PNG and SVG, and Markdown
tables."""

import os

import matplotlib

matplotlib.use("Agg")
matplotlib.rcParams["svg.hashsalt"] = "angara-tlm"  # the same CSVs give the same SVG bytes
import matplotlib.pyplot as plt  # noqa: E402,F401  (the scripts draw with it)


def save(fig, out, name):
    """OUT/NAME.png and OUT/NAME.svg, the SVG without a date."""
    for ext in ("png", "svg"):
        fig.savefig(os.path.join(out, f"{name}.{ext}"), dpi=120, bbox_inches="tight",
                    metadata={"Date": None} if ext == "svg" else {})
    plt.close(fig)


def markdown_table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(lines)
