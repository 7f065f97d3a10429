#!/usr/bin/env python3
"""Plots fivefold-train's --loss-csv: value and policy loss, train and validation, per epoch.

usage: scripts/plot-loss.py loss.csv out.png [title]   (needs matplotlib; not used by CI)
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main() -> None:
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    rows = list(csv.DictReader(open(sys.argv[1])))
    epochs = [int(r["epoch"]) for r in rows]
    fig, (value, policy) = plt.subplots(1, 2, figsize=(10, 4))
    for ax, key, name in ((value, "value", "value loss (WDL cross-entropy)"),
                          (policy, "policy", "policy loss (cross-entropy)")):
        ax.plot(epochs, [float(r[f"train_{key}"]) for r in rows], "o-", label="train")
        ax.plot(epochs, [float(r[f"val_{key}"]) for r in rows], "s-", label="validation")
        ax.set_xlabel("epoch")
        ax.set_title(name)
        ax.grid(alpha=0.3)
        ax.legend()
    if len(sys.argv) > 3:
        fig.suptitle(sys.argv[3])
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=90)


if __name__ == "__main__":
    main()
