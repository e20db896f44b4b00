-- test_db.c (test_migration4): a database at migration 3 with one played
-- round-robin match, x-y on one dataset: x 5-3 y, then y 1-1 x.
BEGIN;
CREATE TABLE schema_version (version integer PRIMARY KEY,
	applied_at timestamptz NOT NULL DEFAULT now());
INSERT INTO schema_version (version) VALUES (1), (2), (3);
INSERT INTO tournaments (id, name, game, seed, spec_text, spec_sha256,
	call_ms, game_ms, memory_mb, resident_mb, clock, ponder)
	VALUES (1, 'm3', 'dreamcity', 0, '', '', 1000, 30000, 512, 256,
	'wall', false);
INSERT INTO entries (id, tournament_id, idx, name, folder, run)
	VALUES (1, 1, 0, 'x', '/x', './x'), (2, 1, 1, 'y', '/y', './y');
INSERT INTO datasets (id, tournament_id, idx, name, content)
	VALUES (1, 1, 0, 'd', 'data');
INSERT INTO stages (id, tournament_id, idx, name, format, advance,
	expanded_at) VALUES (1, 1, 0, 'rr', 'round_robin', 0, now());
INSERT INTO groups (id, stage_id, idx, name) VALUES (1, 1, 0, 'A');
INSERT INTO group_members VALUES (1, 1, 0), (1, 2, 1);
INSERT INTO matches (id, stage_id, group_id, idx, entry_a, entry_b)
	VALUES (1, 1, 1, 0, 1, 2);
INSERT INTO games (id, match_id, idx, dataset_id, first_entry,
	second_entry, seed) VALUES (1, 1, 0, 1, 1, 2, 1), (2, 1, 1, 1, 2, 1, 2);
INSERT INTO results (id, game_id, attempt, end_reason, detail, referee,
	replay, worker) VALUES (1, 1, 1, 'end', '', 'r', '', 'w'),
	(2, 2, 1, 'end', '', 'r', '', 'w');
INSERT INTO result_seats (result_id, seat, score, verdict, illegal, cpu_ms,
	wall_ms, peak_kb) VALUES (1, 0, 5, 'OK', 0, 0, 0, 0),
	(1, 1, 3, 'OK', 0, 0, 0, 0), (2, 0, 1, 'OK', 0, 0, 0, 0),
	(2, 1, 1, 'OK', 0, 0, 0, 0);
UPDATE games SET state = 'done', result_id = id;
COMMIT;
