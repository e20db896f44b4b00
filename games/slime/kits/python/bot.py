#!/usr/bin/env python3
"""Slime starter bot in Python 3 (standard library only).

Protocol: docs/protocols/slime.md in the arena repository. The program is
started anew every turn with one argument, "P,row0,row1,...": P is your
player digit, each row is N characters, '.' empty or a player digit.
Print "r1 c1 r2 c2" and a newline. Anything illegal is a pass;
"0 0 0 0" is the usual way to pass.

Run: python3 bot.py 1,1......2,........,...

Strategy: the move with the most enemy slimes around its target, spreads
(distance 1) before jumps (distance 2, which empty the source); a pass
when there is no move. Replace choose() with something smarter.
"""
import sys


def read_board(arg):
    """Returns (me, board): me a digit character, board a list of rows."""
    parts = arg.split(",")
    me, rows = parts[0], parts[1:]
    if len(me) != 1 or me not in "1234" or not rows:
        raise ValueError("bad argument: %r" % arg)
    if any(len(row) != len(rows) for row in rows):
        raise ValueError("board is not square")
    return me, rows


def choose(me, board):
    n = len(board)

    def enemies(r, c):
        return sum(1 for rr in range(r - 1, r + 2) for cc in range(c - 1, c + 2)
                   if 0 <= rr < n and 0 <= cc < n
                   and board[rr][cc] not in (".", me))

    best, move = None, (0, 0, 0, 0)
    for r in range(n):
        for c in range(n):
            if board[r][c] != me:
                continue
            for r2 in range(max(0, r - 2), min(n, r + 3)):
                for c2 in range(max(0, c - 2), min(n, c + 3)):
                    if board[r2][c2] != ".":
                        continue
                    spread = max(abs(r2 - r), abs(c2 - c)) == 1
                    value = (enemies(r2, c2), spread)
                    if best is None or value > best:
                        best, move = value, (r, c, r2, c2)
    return move


def main():
    if len(sys.argv) < 2:
        print("0 0 0 0")
        return 1
    me, board = read_board(sys.argv[-1])
    print("%d %d %d %d" % choose(me, board))
    return 0


if __name__ == "__main__":
    sys.exit(main())
