// A sample contestant in the original's style: it keeps its own board,
// plays the move that turns most discs (a corner whenever it can), and
// knows by itself when the game is over. Build:
//	g++ -O2 -o bot grader.cpp reversi.cpp -lm
#include "reversi.h"

#include <cstring>

static int board[8][8];	// 0 empty, 1 black, 2 white

static int
flips(int r, int c, int who, bool apply)
{
	static const int dr[8] = { -1, -1, -1, 0, 0, 1, 1, 1 };
	static const int dc[8] = { -1, 0, 1, -1, 1, -1, 0, 1 };
	int total = 0;

	if (board[r][c] != 0)
		return 0;
	for (int d = 0; d < 8; d++) {
		int n = 0, y = r + dr[d], x = c + dc[d];

		while (y >= 0 && y < 8 && x >= 0 && x < 8 &&
		    board[y][x] == 3 - who) {
			n++;
			y += dr[d];
			x += dc[d];
		}
		if (n == 0 || y < 0 || y >= 8 || x < 0 || x >= 8 ||
		    board[y][x] != who)
			continue;
		total += n;
		for (int k = 1; apply && k <= n; k++)
			board[r + k * dr[d]][c + k * dc[d]] = who;
	}
	if (apply && total > 0)
		board[r][c] = who;
	return total;
}

static std::pair<int, int>
best(int who)
{
	std::pair<int, int> move(-1, -1);
	int top = 0;

	for (int r = 0; r < 8; r++)
		for (int c = 0; c < 8; c++) {
			int n = flips(r, c, who, false);
			bool corner = (r == 0 || r == 7) && (c == 0 || c == 7);

			if (n > 0 && corner)
				n += 100;
			if (n > top) {
				top = n;
				move = std::make_pair(r, c);
			}
		}
	return move;
}

void
Play(int Taskid, bool yourside)
{
	int me = yourside ? 2 : 1, turn = 1;

	(void)Taskid;
	std::memset(board, 0, sizeof board);
	board[3][3] = board[4][4] = 2;
	board[3][4] = board[4][3] = 1;
	for (;;) {
		if (best(1).first < 0 && best(2).first < 0)
			return;	// nobody can move: the game is over
		std::pair<int, int> m = turn == me ? best(me) : ReceiveMove();

		if (turn == me)
			MakeMove(m);
		if (m.first >= 0)
			flips(m.first, m.second, turn, true);
		turn = 3 - turn;
	}
}
