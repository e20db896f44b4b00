/*
 * dcdata: the Dream City dataset (a map and its buildings) and its text
 * file format, documented in docs/games/dreamcity.md.
 */
#ifndef ARENA_DCDATA_H
#define ARENA_DCDATA_H

#include <stddef.h>
#include <stdint.h>

#define DC_MAX_SIDE	50	/* map and building sides are 1..50 */
#define DC_MAX_BUILDINGS 1000	/* buildings per dataset */
#define DC_MAX_ID	999999999	/* building ids are 0..DC_MAX_ID */

/* A cell's zone. A building type is the zone it matches, so the colours
 * (zones and types alike) are DC_LIVING..DC_INDUSTRIAL. */
enum dc_zone {
	DC_FROZEN,
	DC_FREE,		/* "unspecified": buildable, no function */
	DC_LIVING,		/* green, matches a house */
	DC_BUSINESS,		/* blue, matches a market */
	DC_INDUSTRIAL,		/* yellow, matches a factory */
};

#define DC_HOUSE	DC_LIVING
#define DC_MARKET	DC_BUSINESS
#define DC_FACTORY	DC_INDUSTRIAL
#define DC_COLOURS	3	/* colour index = zone - DC_LIVING */

struct dc_building {
	int id;			/* unique, 0..DC_MAX_ID */
	int w, h;		/* bounding box, 1..DC_MAX_SIDE */
	int type;		/* DC_HOUSE, DC_MARKET or DC_FACTORY */
	int area;		/* cells in the mask, >= 1 */
	unsigned char *mask;	/* h rows of w, row-major; 1 = a cell */
};

struct game_dataset {
	int w, h;		/* map size, 1..DC_MAX_SIDE */
	unsigned char *zone;	/* h rows of w, row-major; enum dc_zone */
	int nbuildings;		/* 1..DC_MAX_BUILDINGS */
	struct dc_building *b;	/* in file order */
	int64_t total_area;	/* sum of every building's area */
	int colour_cells[DC_COLOURS];	/* map cells of each colour */
};

/* Parses a dataset file's text. On failure returns NULL and writes
 * "name:line:col: message" into err. Caller owns the result; free with
 * dcdata_free(). */
struct game_dataset *dcdata_parse(const char *name, const char *text,
    size_t len, char *err, size_t errlen);
void dcdata_free(struct game_dataset *ds);

/* The zone character of the file format and protocol ('#', '.', 'L', 'B',
 * 'I'), and the type word ("house", "market", "factory"). */
char dcdata_zone_char(int zone);
const char *dcdata_type_word(int type);

#endif
