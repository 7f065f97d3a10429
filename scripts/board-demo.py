#!/usr/bin/env python3
"""Plays a person's game on a running Fivefold Board through its HTTP API, as a new user
playing simple threats would: complete a five, block the engine's four, else extend the
longest own line (the scripted beginner of scripts/beginner_brain.py, as black).

    target/release/fivefold-board --port 7716 --data-dir /tmp/demo &
    python3 scripts/board-demo.py --url http://127.0.0.1:7716 --level 1

Starts a new 15x15 freestyle game (person black, Fivefold white at LEVEL), plays it out and
prints the moves and the result. Take a screenshot of the page afterwards, e.g.
`chromium --headless --screenshot=out.png --window-size=1280,900 URL`. Stdlib only.
"""
import argparse
import json
import os
import sys
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from beginner_brain import Beginner  # noqa: E402


def call(url, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url + path, data=data)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--url", default="http://127.0.0.1:7715")
    ap.add_argument("--level", type=int, default=1)
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args()
    s = call(args.url, "/api/new", {"size": 15, "rule": "freestyle", "black": "human",
                                    "white": "engine:0:%d" % args.level, "turn_ms": 1000})
    me = Beginner(args.seed)
    while not s["result"]:
        moves = s["moves"]
        if len(moves) % 2 == 1 or s["thinking"]:
            time.sleep(0.1)
            s = call(args.url, "/api/state")
            continue
        me.board = {(x, y): 1 if i % 2 == 0 else 2 for i, (x, y) in enumerate(moves)}
        x, y = me.choose()
        s = call(args.url, "/api/move", {"x": x, "y": y})
    print("moves:", s["position"])
    print("result:", s["result"]["reason"], "winner:", s["result"]["winner"])
    print("record:", json.dumps(s["results"]))


if __name__ == "__main__":
    main()
