/*
 * replay_html: one stored game as a self-contained HTML page (`arena
 * replay GAME --html FILE`): inline CSS and script, the frames embedded
 * as JSON, no network at all. The page animates the frames with play,
 * pause, step, speed and a scrubber, shows the players' scores from each
 * frame's first line, and draws the board as a grid of cells coloured
 * from the game's palette (games/game.h). Opening it with "#last" in the
 * address starts paused on the last frame.
 */
#ifndef ARENA_REPLAY_HTML_H
#define ARENA_REPLAY_HTML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct replay_html {
	const char *title;	/* e.g. "game 12 of 'Demo': ai1 vs ai2" */
	const char *const *names;	/* one entry name per seat */
	size_t nseats;
	const char *palette;	/* the game's, or NULL */
	bool grid;		/* frames have a board (the game's frame());
				 * false: show them as text */
	const char *const *frames;	/* header line, then the board rows */
	const char *const *moves;	/* the replay line before each frame;
					 * NULL for the first */
	size_t nframes;		/* >= 1 */
	int delay_ms;		/* between frames when playing */
};

/* Writes the page for h to out. Returns 0, or -1 after logging a write
 * error naming path. */
int replay_html_write(FILE *out, const char *path, const struct replay_html *h);

#endif
