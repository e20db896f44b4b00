/*
 * Space Wars starter bot in C. It is started once per turn in its own
 * folder: it reads input.txt and writes one command (L R E S N) to
 * output.txt. Protocol: docs/protocols/spacewars.md.
 *
 * This one fires when an enemy ship is the first thing in front of it and
 * otherwise turns clockwise. Replace choose() with your own strategy; the
 * state file shows how to remember things between turns.
 */
#include <stdio.h>
#include <string.h>

#define ROWS	40
#define COLS	50

static const char ships[] = "urdl";		/* up right down left */
static const int dr[4] = { -1, 0, 1, 0 };
static const int dc[4] = { 0, 1, 0, -1 };

struct input {
	int turn;		/* 1..999 */
	int r, c;		/* your battleship */
	char me;		/* your cargo symbol, '1' or '2' */
	char field[ROWS][COLS + 2];
};

static int
read_input(struct input *in)
{
	FILE *f = fopen("input.txt", "r");
	char line[64];
	int ok;

	if (f == NULL)
		return -1;
	ok = fgets(line, sizeof line, f) != NULL &&
	    sscanf(line, "%d", &in->turn) == 1 &&
	    fgets(line, sizeof line, f) != NULL &&
	    sscanf(line, "%d %d", &in->r, &in->c) == 2 &&
	    fgets(line, sizeof line, f) != NULL &&
	    sscanf(line, " %c", &in->me) == 1;
	for (int r = 0; ok && r < ROWS; r++)
		ok = fgets(in->field[r], sizeof in->field[r], f) != NULL &&
		    strcspn(in->field[r], "\r\n") == COLS;
	fclose(f);
	ok = ok && in->r >= 0 && in->r < ROWS && in->c >= 0 && in->c < COLS;
	return ok ? 0 : -1;
}

static char
choose(const struct input *in)
{
	const char *p = strchr(ships, in->field[in->r][in->c]);
	int facing = p != NULL && *p != '\0' ? (int)(p - ships) : 0;
	char enemy = in->me == '1' ? '2' : '1';

	for (int k = 1;; k++) {
		int r = in->r + k * dr[facing], c = in->c + k * dc[facing];
		char ch;

		if (r < 0 || r >= ROWS || c < 0 || c >= COLS)
			return 'R';
		ch = in->field[r][c];
		if (ch == enemy || (ch != '\0' && strchr(ships, ch) != NULL))
			return 'S';
		if (ch != ' ' && ch != '*' && ch != 'o')
			return 'R';
	}
}

int
main(void)
{
	struct input in;
	char cmd = 'N';
	FILE *f;
	int shots = 0;

	if (read_input(&in) == 0)
		cmd = choose(&in);
	/* memory between turns: a file of your own in this folder */
	if ((f = fopen("shots.txt", "r")) != NULL) {
		if (fscanf(f, "%d", &shots) != 1)
			shots = 0;
		fclose(f);
	}
	if ((f = fopen("shots.txt", "w")) != NULL) {
		fprintf(f, "%d\n", shots + (cmd == 'S'));
		fclose(f);
	}
	if ((f = fopen("output.txt", "w")) == NULL)
		return 1;
	fprintf(f, "%c\n", cmd);
	fclose(f);
	return 0;
}
