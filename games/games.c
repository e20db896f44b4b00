/* games: the table of referees. Adding a game is one folder and one row. */
#include "games/game.h"

#include <string.h>

#include "games/dreamcity/dreamcity.h"
#include "games/reversi/reversi.h"
#include "games/slime/slime.h"
#include "games/spacewars/spacewars.h"
#include "games/volt/volt.h"

static const struct game *const table[] = {
	&game_dreamcity,
	&game_reversi,
	&game_slime,
	&game_spacewars,
	&game_volt,
	NULL,
};

const struct game *
games_find(const char *name)
{
	for (size_t i = 0; table[i] != NULL; i++)
		if (strcmp(table[i]->name, name) == 0)
			return table[i];
	return NULL;
}

/* Built once from the table; names are short, so a fixed buffer will do. */
const char *
games_list(void)
{
	static char list[256];

	if (list[0] == '\0') {
		for (size_t i = 0; table[i] != NULL; i++) {
			if (i > 0)
				strncat(list, ", ",
				    sizeof list - strlen(list) - 1);
			strncat(list, table[i]->name,
			    sizeof list - strlen(list) - 1);
		}
	}
	return list;
}
