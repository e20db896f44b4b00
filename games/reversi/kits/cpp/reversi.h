// reversi.h: the original contest's interface, served by grader.cpp over
// arena's Reversi protocol (docs/protocols/reversi.md). A contestant's
// reversi.cpp builds unchanged with:
//	g++ -O2 -o bot grader.cpp reversi.cpp -lm
#ifndef REVERSI_H
#define REVERSI_H

#include <utility>

// Called once per game: Taskid is REVERSI_TASKID (0 unless the kit is
// built with -DREVERSI_TASKID=N); yourside is 0 for black (moves first),
// 1 for white. Return once the game is over.
void Play(int Taskid, bool yourside);

// Your move, (row, col) 0..7; (-1, -1) when you have no legal move and
// the game is not over. Never call it after the game has ended.
void MakeMove(std::pair<int, int> pos);

// The opponent's move, (-1, -1) if it passed. Never call it after the
// game has ended.
std::pair<int, int> ReceiveMove();
// The same, under the name the original's interface list used.
std::pair<int, int> Receive();

#endif
