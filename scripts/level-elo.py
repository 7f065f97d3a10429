#!/usr/bin/env python3
"""Elo of every player on one scale from matches between pairs: a weighted least-squares
fit of the measured Elo differences, one player held at 0.

    python3 scripts/level-elo.py docs/levels-matches.txt [--zero seed002-easy]

Each line of the file: `A B DIFF ERR [...]`, A's Elo minus B's as the arena printed it and
its 95% error (lines starting with # and matches without a finite error are skipped).
Prints each player's Elo and 95% error (from the fit's covariance), and each match's
residual. With a chain and no loops this is the plain sum along the chain. Stdlib only.
"""
import argparse
import math
import sys


def solve(m, b):
    """Gauss-Jordan on a small symmetric positive definite system; returns (x, inverse)."""
    n = len(b)
    a = [row[:] + [b[i]] + [1.0 if j == i else 0.0 for j in range(n)] for i, row in enumerate(m)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(a[r][c]))
        a[c], a[p] = a[p], a[c]
        if abs(a[c][c]) < 1e-12:
            sys.exit("the matches do not connect every player to the zero")
        piv = a[c][c]
        a[c] = [v / piv for v in a[c]]
        for r in range(n):
            if r != c and a[r][c] != 0.0:
                f = a[r][c]
                a[r] = [v - f * w for v, w in zip(a[r], a[c])]
    return [row[n] for row in a], [row[n + 1:] for row in a]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--zero", default="seed002-easy")
    args = ap.parse_args()
    matches = []
    for line in open(args.file):
        f = line.split()
        if not f or f[0].startswith("#"):
            continue
        try:
            diff, err = float(f[2]), float(f[3])
        except (IndexError, ValueError):
            continue
        if math.isfinite(diff) and math.isfinite(err) and err > 0:
            matches.append((f[0], f[1], diff, err / 1.96))
    names = sorted({p for a, b, _, _ in matches for p in (a, b)} - {args.zero})
    idx = {p: i for i, p in enumerate(names)}
    n = len(names)
    m = [[0.0] * n for _ in range(n)]
    b = [0.0] * n
    for a_, b_, d, s in matches:
        w = 1.0 / (s * s)
        for p, sign in ((a_, 1.0), (b_, -1.0)):
            if p not in idx:
                continue
            b[idx[p]] += sign * w * d
            for q, sign2 in ((a_, 1.0), (b_, -1.0)):
                if q in idx:
                    m[idx[p]][idx[q]] += sign * sign2 * w
    x, inv = solve(m, b)
    elo = {p: x[i] for p, i in idx.items()}
    elo[args.zero] = 0.0
    err = {p: 1.96 * math.sqrt(inv[i][i]) for p, i in idx.items()}
    err[args.zero] = 0.0
    for p in sorted(elo, key=elo.get):
        print("%-16s %6.0f +/- %3.0f" % (p, elo[p], err[p]))
    print("\nresiduals (measured - fitted):")
    for a_, b_, d, s in matches:
        print("  %-14s vs %-14s %+6.0f (measured %+.0f +/- %.0f)"
              % (a_, b_, d - (elo[a_] - elo[b_]), d, 1.96 * s))


if __name__ == "__main__":
    main()
