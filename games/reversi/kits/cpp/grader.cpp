// grader.cpp: runs the contestant's Play() for one game of arena's
// Reversi protocol. The first request (a header line and a move line)
// starts the game; after that each MakeMove() answers one request and
// each ReceiveMove() reads the next one, whose move is the opponent's.
// White's first request already carries black's first move, so its first
// ReceiveMove() returns that without reading.
#include "reversi.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#ifndef REVERSI_TASKID
#define REVERSI_TASKID 0
#endif

static const char standard[] =
    "...........................OX......XO...........................";

static bool pending;			// a move read but not yet received
static std::pair<int, int> pending_move;

static void
protocol_error(const char *what, const char *line)
{
	std::fprintf(stderr, "grader: %s: '%s'\n", what, line);
	std::exit(2);
}

// Reads one move line into move; false for "start" (no move yet).
static bool
read_move(std::pair<int, int> *move)
{
	char line[256];
	long long t;
	int r, c;

	if (std::fgets(line, sizeof line, stdin) == NULL)
		std::exit(0);	// the game is over: the referee closed stdin
	line[std::strcspn(line, "\r\n")] = '\0';
	if (std::sscanf(line, "start %lld", &t) == 1)
		return false;
	if (std::sscanf(line, "%d %d %lld", &r, &c, &t) != 3)
		protocol_error("bad request", line);
	*move = std::make_pair(r, c);
	return true;
}

void
MakeMove(std::pair<int, int> pos)
{
	std::printf("%d %d\n", pos.first, pos.second);
	std::fflush(stdout);
}

std::pair<int, int>
ReceiveMove()
{
	std::pair<int, int> move(-1, -1);

	if (pending) {
		pending = false;
		return pending_move;
	}
	if (!read_move(&move))
		protocol_error("a move was expected", "start");
	return move;
}

std::pair<int, int>
Receive()
{
	return ReceiveMove();
}

int
main()
{
	char line[256], colour[8], board[65], tomove[8];
	unsigned long long seed;

	if (std::fgets(line, sizeof line, stdin) == NULL)
		return 0;
	line[std::strcspn(line, "\r\n")] = '\0';
	if (std::sscanf(line, "reversi %7s %llu %64s %7s", colour, &seed,
	    board, tomove) != 4)
		protocol_error("bad header", line);
	if (std::strcmp(board, standard) != 0 ||
	    std::strcmp(tomove, "black") != 0)
		std::fprintf(stderr, "grader: not the standard start; "
		    "Play() assumes it\n");
	pending = read_move(&pending_move);
	Play(REVERSI_TASKID, std::strcmp(colour, "white") == 0);
	return 0;
}
