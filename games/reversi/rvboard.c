/*
 * rvboard: Reversi moves by shifting whole boards. A shift moves every
 * disc one square in a direction; the column masks drop what would wrap
 * around the board's edge. A run of opponent discs is at most six long,
 * so six masked shifts find every line a move can close.
 */
#include "rvboard.h"

#define NOT_COL0	0xfefefefefefefefeULL	/* clears column 0 */
#define NOT_COL7	0x7f7f7f7f7f7f7f7fULL	/* clears column 7 */

/* Direction d (0..7) moved one square: E, W, S, N, SE, SW, NE, NW. */
static uint64_t
shift(uint64_t b, int d)
{
	switch (d) {
	case 0: return (b << 1) & NOT_COL0;
	case 1: return (b >> 1) & NOT_COL7;
	case 2: return b << 8;
	case 3: return b >> 8;
	case 4: return (b << 9) & NOT_COL0;
	case 5: return (b << 7) & NOT_COL7;
	case 6: return (b >> 7) & NOT_COL0;
	default: return (b >> 9) & NOT_COL7;
	}
}

uint64_t
rvboard_moves(uint64_t own, uint64_t opp)
{
	uint64_t empty = ~(own | opp), moves = 0;

	for (int d = 0; d < 8; d++) {
		uint64_t x = shift(own, d) & opp;

		for (int i = 0; i < 5; i++)
			x |= shift(x, d) & opp;
		moves |= shift(x, d) & empty;
	}
	return moves;
}

uint64_t
rvboard_flips(uint64_t own, uint64_t opp, int sq)
{
	uint64_t bit = 1ULL << sq, flips = 0;

	if ((own | opp) & bit)
		return 0;
	for (int d = 0; d < 8; d++) {
		uint64_t line = 0, x = shift(bit, d);

		while (x & opp) {
			line |= x;
			x = shift(x, d);
		}
		if (x & own)
			flips |= line;
	}
	return flips;
}

uint64_t
rvboard_play(uint64_t *own, uint64_t *opp, int sq)
{
	uint64_t f = rvboard_flips(*own, *opp, sq);

	*own |= f | 1ULL << sq;
	*opp &= ~f;
	return f;
}

int
rvboard_over(uint64_t own, uint64_t opp)
{
	return rvboard_moves(own, opp) == 0 && rvboard_moves(opp, own) == 0;
}

uint64_t
rvboard_perft(uint64_t own, uint64_t opp, int depth)
{
	uint64_t moves, n = 0;

	if (depth == 0)
		return 1;
	moves = rvboard_moves(own, opp);
	if (moves == 0)
		return rvboard_moves(opp, own) == 0 ? 1 :
		    rvboard_perft(opp, own, depth - 1);
	while (moves) {
		int sq = __builtin_ctzll(moves);
		uint64_t o = own, p = opp;

		moves &= moves - 1;
		rvboard_play(&o, &p, sq);
		n += rvboard_perft(p, o, depth - 1);
	}
	return n;
}

int
rvboard_count(uint64_t b)
{
	return __builtin_popcountll(b);
}
