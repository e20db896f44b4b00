#!/usr/bin/env python3
"""The Volt starter kit in Python: a legal team that reads every request
(docs/protocols/volt.md) and answers for both of its players. Here each
player steps to a random open neighbour (the random numbers come from
the game's seed). Replace decide() with your strategy.

Run: python3 bot.py
"""
import random
import sys

DIRS = {"up": (-1, 0), "right": (0, 1), "down": (1, 0), "left": (0, -1)}


def read_request(state):
    """Reads one request into state; False at the end of the game."""
    line = sys.stdin.readline()
    if not line:
        return False
    words = line.split()
    if words[0] == "volt":
        state["team"], state["rows"], state["cols"], state["steps"] = map(
            int, words[1:5])
        random.seed(int(words[5]) + state["team"])
        words = sys.stdin.readline().split()
    if not words or words[0] != "step":
        return False
    state["step"] = int(words[1])
    state["grid"] = [sys.stdin.readline().rstrip("\n")
                     for _ in range(state["rows"])]
    count = int(sys.stdin.readline().split()[1])
    state["objects"] = [sys.stdin.readline().split() for _ in range(count)]
    return True


def is_open(state, r, c):
    if not (0 <= r < state["rows"] and 0 <= c < state["cols"]):
        return False
    if state["grid"][r][c] in "WB":
        return False
    return not any(o[0] == "bomb" and int(o[2]) == r and int(o[3]) == c
                   for o in state["objects"])


def decide(state, player):
    """One player's command: stay, up, down, left, right, bomb,
    blink DIR, swap BOMB_ID or bigbang BOMB_ID."""
    _, _, r, c, _, alive, _, _ = player
    r, c = int(r), int(c)
    if alive == "0":
        return "stay"
    moves = [d for d, (dr, dc) in DIRS.items() if is_open(state, r + dr, c + dc)]
    return random.choice(moves) if moves else "stay"


def main():
    state = {}
    while read_request(state):
        mine = [o for o in state["objects"]
                if o[0] == "player" and int(o[4]) == state["team"]]
        print(", ".join(decide(state, p) for p in mine[:2]), flush=True)


if __name__ == "__main__":
    main()
