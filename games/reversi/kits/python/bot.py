#!/usr/bin/env python3
"""A Reversi starter bot for arena's protocol (docs/protocols/reversi.md).

It keeps the board, applies the opponent's move from each request and
answers with the legal move that turns most discs (corners first), or
"-1 -1" when it has none. Replace choose() with your own idea.
"""
import sys

DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def flips(board, r, c, me):
    """The squares a move by me ('X' or 'O') on (r, c) turns over."""
    if board[r][c] != '.':
        return []
    them = 'O' if me == 'X' else 'X'
    out = []
    for dr, dc in DIRS:
        line, y, x = [], r + dr, c + dc
        while 0 <= y < 8 and 0 <= x < 8 and board[y][x] == them:
            line.append((y, x))
            y, x = y + dr, x + dc
        if line and 0 <= y < 8 and 0 <= x < 8 and board[y][x] == me:
            out += line
    return out


def play(board, r, c, me):
    for y, x in flips(board, r, c, me):
        board[y][x] = me
    board[r][c] = me


def choose(board, me, time_ms):
    best, top = None, 0
    for r in range(8):
        for c in range(8):
            n = len(flips(board, r, c, me))
            if n and r in (0, 7) and c in (0, 7):
                n += 100
            if n > top:
                best, top = (r, c), n
    return best


def main():
    board, me = None, None
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == 'reversi':
            # reversi COLOUR SEED BOARD TOMOVE
            me = 'X' if words[1] == 'black' else 'O'
            board = [list(words[3][8 * r:8 * r + 8]) for r in range(8)]
            continue
        if words[0] == 'start':
            time_ms = int(words[1])
        else:
            r, c, time_ms = int(words[0]), int(words[1]), int(words[2])
            if r >= 0:
                play(board, r, c, 'O' if me == 'X' else 'X')
        move = choose(board, me, time_ms)
        if move is None:
            print('-1 -1', flush=True)
        else:
            play(board, move[0], move[1], me)
            print(move[0], move[1], flush=True)


if __name__ == '__main__':
    main()
