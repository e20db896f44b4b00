#!/usr/bin/env python3
"""Dream City starter bot in Python 3 (standard library only).

Protocol: docs/protocols/dreamcity.md in the arena repository.
Run: python3 bot.py

Strategy "first fit": for each available building in increasing id order,
for rotation 0..3, for y = 0..H-1, for x = 0..W-1, the first placement that
fits is played; if none fits, "pass". Replace choose() with something
smarter.
"""
import sys


def read_request(inp):
    """Returns the next request as a dict, or None at end of input."""
    line = inp.readline()
    if not line:
        return None
    words = line.split()
    if len(words) != 2 or words[0] != "dreamcity":
        raise ValueError("bad first line: %r" % line)
    rq = {"call": int(words[1]), "buildings": []}
    while True:
        words = inp.readline().split()
        if not words:
            raise ValueError("request ended early")
        key = words[0]
        if key == "end":
            return rq
        if key == "you":
            rq["you"] = words[1]
        elif key == "time":
            rq["time_ms"] = int(words[1])
        elif key == "last":
            rq["last"] = words[1:]      # ['none'] or [who, kind, ...]
        elif key == "size":
            rq["w"], rq["h"] = int(words[1]), int(words[2])
        elif key in ("zones", "status"):
            rq[key] = [inp.readline().rstrip("\r\n") for _ in range(rq["h"])]
        elif key == "buildings":
            for _ in range(int(words[1])):
                _, bid, w, h, kind = inp.readline().split()
                w, h = int(w), int(h)
                mask = [inp.readline().rstrip("\r\n") for _ in range(h)]
                rq["buildings"].append({"id": int(bid), "w": w, "h": h,
                                        "type": kind, "mask": mask})
        else:
            raise ValueError("unknown line: %r" % words)


def cells(b, r):
    """The building's cells after r clockwise turns: (x, y) -> (h-1-y, x)."""
    out = []
    for y in range(b["h"]):
        for x in range(b["w"]):
            if b["mask"][y][x] != "X":
                continue
            cx, cy, w, h = x, y, b["w"], b["h"]
            for _ in range(r):
                cx, cy, w, h = h - 1 - cy, cx, h, w
            out.append((cx, cy))
    return out


def fits(rq, shape, x, y):
    for cx, cy in shape:
        cx, cy = cx + x, cy + y
        if not (0 <= cx < rq["w"] and 0 <= cy < rq["h"]):
            return False
        if rq["zones"][cy][cx] == "#" or rq["status"][cy][cx] != ".":
            return False
    return True


def choose(rq):
    for b in sorted(rq["buildings"], key=lambda b: b["id"]):
        for r in range(4):
            shape = cells(b, r)
            for y in range(rq["h"]):
                for x in range(rq["w"]):
                    if fits(rq, shape, x, y):
                        return "%d %d %d %d" % (b["id"], r, x, y)
    return "pass"


def main():
    while True:
        rq = read_request(sys.stdin)
        if rq is None:
            return
        sys.stdout.write(choose(rq) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
