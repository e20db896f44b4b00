#!/usr/bin/env python3
"""Space Wars starter bot in Python.

It is started once per turn in its own folder: it reads input.txt and
writes one command (L R E S N) to output.txt. Protocol:
docs/protocols/spacewars.md.

This one fires when an enemy ship is the first thing in front of it and
otherwise turns clockwise. Replace choose() with your own strategy; the
state file shows how to remember things between turns.
"""

ROWS, COLS = 40, 50
DR = (-1, 0, 1, 0)  # up right down left, as the letters u r d l
DC = (0, 1, 0, -1)


def read_input():
    with open("input.txt") as f:
        lines = f.read().split("\n")
    turn = int(lines[0])
    r, c = map(int, lines[1].split())
    me = lines[2].strip()
    field = [line.rstrip("\r") for line in lines[3:3 + ROWS]]
    if len(field) != ROWS or any(len(row) != COLS for row in field):
        raise ValueError("bad field")
    return turn, r, c, me, field


def choose(r, c, me, field):
    facing = "urdl".index(field[r][c])
    enemy = "2" if me == "1" else "1"
    k = 1
    while True:
        rr, cc = r + k * DR[facing], c + k * DC[facing]
        if not (0 <= rr < ROWS and 0 <= cc < COLS):
            return "R"
        ch = field[rr][cc]
        if ch == enemy or ch in "urdl":
            return "S"
        if ch not in " *o":
            return "R"
        k += 1


def main():
    try:
        _turn, r, c, me, field = read_input()
        cmd = choose(r, c, me, field)
    except (OSError, ValueError, IndexError):
        cmd = "N"
    # memory between turns: a file of your own in this folder
    try:
        with open("shots.txt") as f:
            shots = int(f.read())
    except (OSError, ValueError):
        shots = 0
    with open("shots.txt", "w") as f:
        f.write("%d\n" % (shots + (cmd == "S")))
    with open("output.txt", "w") as f:
        f.write(cmd + "\n")


if __name__ == "__main__":
    main()
