#!/usr/bin/env python3
"""A scripted beginner as a Gomocup brain: the arena opponent that Fivefold's lowest level
must lose to (see docs/board.md, "Levels").

It plays plausible but shallow moves, as a person new to the game does:
  1. it completes its own five when it has one;
  2. it blocks the opponent's five square (a four), and nothing else: open threes and
     double threats go unseen;
  3. otherwise it extends its own lines: the empty square next to its stones where its
     longest line through the square is longest (an open end counts a little), ties broken
     at random, nearer the centre first.
With no stone of its own yet it plays next to the opponent's last stone (the centre on an
empty board). Freestyle (five or more wins). Stdlib only.

Usage: python3 scripts/beginner_brain.py [--seed N]
"""
import random
import sys

DIRS = ((1, 0), (0, 1), (1, 1), (1, -1))


class Beginner:
    def __init__(self, seed=None):
        self.rng = random.Random(seed)
        self.size = 15
        self.board = {}

    def start(self, size):
        self.size = size
        self.board = {}

    def empty(self, x, y):
        return 0 <= x < self.size and 0 <= y < self.size and (x, y) not in self.board

    def run(self, x, y, dx, dy, who):
        """Stones of `who` in a row from (x, y) (exclusive) along (dx, dy), and whether
        the square past them is empty."""
        n = 0
        x, y = x + dx, y + dy
        while self.board.get((x, y)) == who:
            n += 1
            x, y = x + dx, y + dy
        return n, self.empty(x, y)

    def line(self, x, y, who):
        """(longest line through (x, y) if `who` played there, open ends of that line)."""
        best = (0, 0)
        for dx, dy in DIRS:
            a, open_a = self.run(x, y, dx, dy, who)
            b, open_b = self.run(x, y, -dx, -dy, who)
            best = max(best, (1 + a + b, open_a + open_b))
        return best

    def candidates(self, who):
        near = set()
        for (x, y), c in self.board.items():
            if c != who:
                continue
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    if self.empty(x + dx, y + dy):
                        near.add((x + dx, y + dy))
        return sorted(near)

    def choose(self):
        empties = [(x, y) for x in range(self.size) for y in range(self.size) if self.empty(x, y)]
        if not empties:
            return None
        for who in (1, 2):  # our five first, then the block of theirs
            for x, y in empties:
                if self.line(x, y, who)[0] >= 5:
                    return x, y
        c = (self.size - 1) / 2
        own = self.candidates(1)
        if not own:
            last = [p for p, v in self.board.items() if v == 2]
            if not last:
                return self.size // 2, self.size // 2
            near = self.candidates(2)
            return min(near, key=lambda p: (abs(p[0] - c) + abs(p[1] - c), self.rng.random()))
        scored = []
        for x, y in own:
            length, ends = self.line(x, y, 1)
            scored.append((length * 10 + ends, self.rng.random(), -abs(x - c) - abs(y - c), (x, y)))
        return max(scored)[3]

    def play_ours(self, out):
        m = self.choose()
        if m is None:
            out("ERROR board is full")
            return
        self.board[m] = 1
        out("%d,%d" % m)


def main():
    seed = None
    args = sys.argv[1:]
    if "--seed" in args:
        try:
            seed = int(args[args.index("--seed") + 1])
        except (IndexError, ValueError):
            sys.stderr.write("--seed needs a number\n")
    brain = Beginner(seed)

    def out(text):
        sys.stdout.write(text + "\n")
        sys.stdout.flush()

    def point(text):
        try:
            x, y = (int(v) for v in text.split(",")[:2])
            return x, y
        except ValueError:
            return None

    reading_board = False
    for raw in sys.stdin:
        line = raw.strip()
        if not line:
            continue
        if reading_board:
            if line.upper() == "DONE":
                reading_board = False
                brain.play_ours(out)
                continue
            parts = line.split(",")
            if len(parts) == 3 and point(line):
                brain.board[point(line)] = 1 if parts[2].strip() == "1" else 2
            continue
        word, _, rest = line.partition(" ")
        word = word.upper()
        if word == "START":
            try:
                brain.start(int(rest))
                out("OK")
            except ValueError:
                out("ERROR bad size")
        elif word == "RESTART":
            brain.start(brain.size)
            out("OK")
        elif word == "BEGIN":
            brain.play_ours(out)
        elif word == "TURN":
            p = point(rest)
            if p is None or not brain.empty(*p):
                out("ERROR bad move")
                continue
            brain.board[p] = 2
            brain.play_ours(out)
        elif word == "BOARD":
            brain.board = {}
            reading_board = True
        elif word == "TAKEBACK":
            p = point(rest)
            if p is not None:
                brain.board.pop(p, None)
            out("OK")
        elif word == "ABOUT":
            out('name="beginner", version="1", author="Fivefold", country="-"')
        elif word == "END":
            break
        elif word == "INFO":
            pass
        else:
            out("UNKNOWN " + word)


if __name__ == "__main__":
    main()
