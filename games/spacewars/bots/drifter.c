/*
 * drifter: never fires its engine. It shoots when the first thing in
 * front of it is an enemy ship (cargo or battleship), and otherwise turns
 * clockwise; only the recoil of its shots ever moves it.
 */
#include "swbot.h"

int
main(void)
{
	struct swb_view v;
	char first;
	int dist;

	if (swb_read(&v) == -1) {
		swb_write('N');
		return 0;
	}
	first = swb_first(&v, v.r, v.c, v.facing, &dist);
	swb_write(first == v.enemy || swb_is_ship(first) ? 'S' : 'R');
	return 0;
}
