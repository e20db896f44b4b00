/*
 * Slime starter bot in C (C99, standard library only).
 *
 * Protocol: docs/protocols/slime.md in the arena repository. The program
 * is started anew every turn with one argument, "P,row0,row1,...": P is
 * your player digit, each row is N characters, '.' empty or a player
 * digit. Print "r1 c1 r2 c2" and a newline. Anything illegal is a pass;
 * "0 0 0 0" is the usual way to pass.
 *
 * Build: cc -O2 -o bot bot.c        Run: ./bot 1,1......2,........,...
 *
 * Strategy: the spread (a move to an empty neighbour) that converts the
 * most enemy slimes; a pass when there is none. Replace choose().
 */
#include <stdio.h>
#include <string.h>

#define MAX_SIDE 100

static int n;
static char me;
static char board[MAX_SIDE][MAX_SIDE + 1];

/* Fills n, me and board from the argument; returns 0 or -1. */
static int
read_board(const char *arg)
{
	const char *p = arg + 2;

	if (strlen(arg) < 4 || arg[1] != ',')
		return -1;
	me = arg[0];
	n = (int)strcspn(p, ",");
	if (n < 2 || n > MAX_SIDE)
		return -1;
	for (int r = 0; r < n; r++) {
		if ((int)strcspn(p, ",") != n)
			return -1;
		memcpy(board[r], p, (size_t)n);
		p += n + (r < n - 1);
	}
	return 0;
}

static char
at(int r, int c)
{
	return r < 0 || c < 0 || r >= n || c >= n ? '#' : board[r][c];
}

static int
enemies_around(int r, int c)
{
	int k = 0;

	for (int dr = -1; dr <= 1; dr++)
		for (int dc = -1; dc <= 1; dc++) {
			char x = at(r + dr, c + dc);

			k += x >= '1' && x <= '4' && x != me;
		}
	return k;
}

static void
choose(int *r1, int *c1, int *r2, int *c2)
{
	int best = -1;

	*r1 = *c1 = *r2 = *c2 = 0;
	for (int r = 0; r < n; r++)
		for (int c = 0; c < n; c++) {
			if (board[r][c] != me)
				continue;
			for (int dr = -1; dr <= 1; dr++)
				for (int dc = -1; dc <= 1; dc++) {
					int e;

					if (at(r + dr, c + dc) != '.')
						continue;
					e = enemies_around(r + dr, c + dc);
					if (e > best) {
						best = e;
						*r1 = r;
						*c1 = c;
						*r2 = r + dr;
						*c2 = c + dc;
					}
				}
		}
}

int
main(int argc, char **argv)
{
	int r1, c1, r2, c2;

	if (argc < 2 || read_board(argv[argc - 1]) == -1) {
		printf("0 0 0 0\n");
		return 1;
	}
	choose(&r1, &c1, &r2, &c2);
	printf("%d %d %d %d\n", r1, c1, r2, c2);
	return 0;
}
