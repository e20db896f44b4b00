/*
 * The Volt starter kit in C: a legal team that reads every request
 * (docs/protocols/volt.md) and answers for both of its players. Here each
 * player walks towards the nearest flag its team does not hold, straight
 * across rows then columns, and stays if the way is blocked. Replace
 * decide() with your strategy.
 *
 * Build: cc -O2 -o bot bot.c     Run: ./bot
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX		50
#define MAX_OBJECTS	(MAX * MAX + 64)

struct object {
	char kind[16];		/* player, bomb, flag, gate */
	int id, row, col;
	int a, b, c, d;		/* the numbers that follow, per kind */
	char word[16];		/* player's and gate's ability */
};

static int team, rows, cols, steps, step, nobj;
static char grid[MAX][MAX + 2];
static struct object obj[MAX_OBJECTS];

/* Reads one request; 0 at the end of the game. */
static int
read_request(void)
{
	char line[256];
	unsigned long long seed;
	long long p1, p2, ms;

	if (fgets(line, sizeof line, stdin) == NULL)
		return 0;
	if (sscanf(line, "volt %d %d %d %d %llu", &team, &rows, &cols,
	    &steps, &seed) == 5 && fgets(line, sizeof line, stdin) == NULL)
		return 0;
	if (sscanf(line, "step %d %lld %lld %lld", &step, &p1, &p2, &ms) != 4)
		return 0;
	for (int r = 0; r < rows; r++)
		if (fgets(grid[r], sizeof grid[r], stdin) == NULL)
			return 0;
	if (fgets(line, sizeof line, stdin) == NULL ||
	    sscanf(line, "objects %d", &nobj) != 1 || nobj > MAX_OBJECTS)
		return 0;
	for (int i = 0; i < nobj; i++) {
		struct object *o = &obj[i];

		memset(o, 0, sizeof *o);
		if (fgets(line, sizeof line, stdin) == NULL)
			return 0;
		sscanf(line, "%15s %d %d %d", o->kind, &o->id, &o->row,
		    &o->col);
		if (strcmp(o->kind, "player") == 0)
			sscanf(line, "%*s %*d %*d %*d %d %d %d %15s", &o->a,
			    &o->b, &o->c, o->word);
		else if (strcmp(o->kind, "bomb") == 0)
			sscanf(line, "%*s %*d %*d %*d %d %d %d %d", &o->a,
			    &o->b, &o->c, &o->d);
		else if (strcmp(o->kind, "flag") == 0)
			sscanf(line, "%*s %*d %*d %*d %d", &o->a);
		else
			sscanf(line, "%*s %*d %*d %*d %15s", o->word);
	}
	return 1;
}

static int
open_cell(int r, int c)
{
	if (r < 0 || r >= rows || c < 0 || c >= cols || grid[r][c] == 'W' ||
	    grid[r][c] == 'B')
		return 0;
	for (int i = 0; i < nobj; i++)
		if (strcmp(obj[i].kind, "bomb") == 0 && obj[i].row == r &&
		    obj[i].col == c)
			return 0;
	return 1;
}

/* One player's command: "stay", "up", "down", "left", "right", "bomb",
 * "blink DIR", "swap BOMB_ID" or "bigbang BOMB_ID". */
static const char *
decide(const struct object *me)
{
	const struct object *goal = NULL;
	int best = 1 << 20;

	if (me->b == 0)		/* dead: the command is ignored */
		return "stay";
	for (int i = 0; i < nobj; i++) {
		const struct object *o = &obj[i];
		int dist = abs(o->row - me->row) + abs(o->col - me->col);

		if (strcmp(o->kind, "flag") == 0 && o->a != team &&
		    dist < best) {
			best = dist;
			goal = o;
		}
	}
	if (goal == NULL)
		return "stay";
	if (goal->row != me->row && open_cell(me->row +
	    (goal->row > me->row ? 1 : -1), me->col))
		return goal->row > me->row ? "down" : "up";
	if (goal->col != me->col && open_cell(me->row, me->col +
	    (goal->col > me->col ? 1 : -1)))
		return goal->col > me->col ? "right" : "left";
	return "stay";
}

int
main(void)
{
	while (read_request()) {
		const struct object *mine[2] = { NULL, NULL };
		int n = 0;

		for (int i = 0; i < nobj && n < 2; i++)
			if (strcmp(obj[i].kind, "player") == 0 &&
			    obj[i].a == team)
				mine[n++] = &obj[i];
		if (n < 2)
			return 1;
		printf("%s, %s\n", decide(mine[0]), decide(mine[1]));
		fflush(stdout);
	}
	return 0;
}
