-- arena's PostgreSQL schema: all durable state, and the views that turn
-- games into match results and standings, so anyone can query them with
-- psql ("SELECT * FROM standings WHERE tournament_id = 1").
--
-- Each "-- migration N" section below is applied once, in order, by
-- db_open() (coordinator/db.c), all missing ones in one transaction under
-- an advisory lock; schema_version records which are applied. Never edit a
-- released migration: append a new one.
--
-- State machines are CHECK constraints mirroring the C enums:
--	games.state	queued -> running -> done | queued (attempt + 1)
--			| failed (DB_MAX_ATTEMPTS without a result; migration 2)
--			done | failed -> queued (a rerun, attempt + 1)
--	verdicts	common/verdict.h
-- A game's current result is games.result_id; older results of the same
-- game (earlier attempts, reruns) stay in results for audit.

-- migration 1

CREATE TABLE tournaments (
	id		bigserial PRIMARY KEY,
	name		text NOT NULL UNIQUE,
	game		text NOT NULL,
	seed		numeric(20, 0) NOT NULL
			CHECK (seed >= 0 AND seed < 18446744073709551616),
	spec_text	text NOT NULL,		-- the spec file, to resume
	spec_sha256	text NOT NULL,
	call_ms		bigint NOT NULL CHECK (call_ms > 0),
	game_ms		bigint NOT NULL CHECK (game_ms > 0),
	memory_mb	bigint NOT NULL CHECK (memory_mb > 0),
	resident_mb	bigint NOT NULL CHECK (resident_mb > 0),
	clock		text NOT NULL CHECK (clock IN ('wall', 'cpu')),
	ponder		boolean NOT NULL,
	created_at	timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE entries (
	id		bigserial PRIMARY KEY,
	tournament_id	bigint NOT NULL REFERENCES tournaments ON DELETE CASCADE,
	idx		integer NOT NULL CHECK (idx >= 0),	-- spec order
	name		text NOT NULL,
	folder		text NOT NULL,
	build		text,
	run		text NOT NULL,
	UNIQUE (tournament_id, idx),
	UNIQUE (tournament_id, name)
);

CREATE TABLE datasets (
	id		bigserial PRIMARY KEY,
	tournament_id	bigint NOT NULL REFERENCES tournaments ON DELETE CASCADE,
	idx		integer NOT NULL CHECK (idx >= 0),
	name		text NOT NULL,
	content		text NOT NULL,		-- the whole file
	UNIQUE (tournament_id, idx),
	UNIQUE (tournament_id, name)
);

CREATE TABLE stages (
	id		bigserial PRIMARY KEY,
	tournament_id	bigint NOT NULL REFERENCES tournaments ON DELETE CASCADE,
	idx		integer NOT NULL CHECK (idx >= 0),
	name		text NOT NULL,
	format		text NOT NULL CHECK (format IN ('round_robin', 'final')),
	advance		integer NOT NULL CHECK (advance >= 0),
	expanded_at	timestamptz,		-- NULL until its games exist
	UNIQUE (tournament_id, idx),
	UNIQUE (tournament_id, name)
);

CREATE TABLE groups (
	id		bigserial PRIMARY KEY,
	stage_id	bigint NOT NULL REFERENCES stages ON DELETE CASCADE,
	idx		integer NOT NULL CHECK (idx >= 0),
	name		text NOT NULL,
	UNIQUE (stage_id, idx),
	UNIQUE (stage_id, name),
	UNIQUE (id, stage_id)
);

CREATE TABLE group_members (
	group_id	bigint NOT NULL REFERENCES groups ON DELETE CASCADE,
	entry_id	bigint NOT NULL REFERENCES entries ON DELETE CASCADE,
	draw		integer NOT NULL CHECK (draw >= 0),	-- draw position
	PRIMARY KEY (group_id, entry_id),
	UNIQUE (group_id, draw)
);

CREATE TABLE matches (
	id		bigserial PRIMARY KEY,
	stage_id	bigint NOT NULL REFERENCES stages ON DELETE CASCADE,
	group_id	bigint NOT NULL,
	idx		integer NOT NULL CHECK (idx >= 0),	-- plan order
	entry_a		bigint NOT NULL REFERENCES entries,
	entry_b		bigint NOT NULL REFERENCES entries,
	UNIQUE (stage_id, idx),
	FOREIGN KEY (group_id, stage_id) REFERENCES groups (id, stage_id)
		ON DELETE CASCADE,
	CHECK (entry_a <> entry_b)
);

CREATE TABLE games (
	id		bigserial PRIMARY KEY,
	match_id	bigint NOT NULL REFERENCES matches ON DELETE CASCADE,
	idx		integer NOT NULL CHECK (idx >= 0),	-- in its match
	dataset_id	bigint NOT NULL REFERENCES datasets,
	first_entry	bigint NOT NULL REFERENCES entries,	-- seat A
	second_entry	bigint NOT NULL REFERENCES entries,	-- seat B
	seed		numeric(20, 0) NOT NULL
			CHECK (seed >= 0 AND seed < 18446744073709551616),
	state		text NOT NULL DEFAULT 'queued'
			CHECK (state IN ('queued', 'running', 'done')),
	attempt		integer NOT NULL DEFAULT 1 CHECK (attempt >= 1),
	worker		text,			-- while running
	lease_until	timestamptz,		-- while running
	result_id	bigint,			-- the current result, when done
	UNIQUE (match_id, idx),
	CHECK (first_entry <> second_entry),
	CHECK ((state = 'running') = (worker IS NOT NULL)),
	CHECK ((state = 'running') = (lease_until IS NOT NULL)),
	CHECK ((state = 'done') = (result_id IS NOT NULL))
);
CREATE INDEX games_queued ON games (match_id, idx) WHERE state = 'queued';
CREATE INDEX games_running ON games (lease_until) WHERE state = 'running';

-- One row per delivered result, keyed by (game, attempt): a duplicate or
-- late delivery of the same attempt cannot add a second one.
CREATE TABLE results (
	id		bigserial PRIMARY KEY,
	game_id		bigint NOT NULL REFERENCES games ON DELETE CASCADE,
	attempt		integer NOT NULL CHECK (attempt >= 1),
	end_reason	text NOT NULL,
	detail		text NOT NULL,
	referee		text NOT NULL,
	replay		text NOT NULL,
	worker		text NOT NULL,
	recorded_at	timestamptz NOT NULL DEFAULT now(),
	UNIQUE (game_id, attempt),
	UNIQUE (id, game_id)
);
-- The current result must be one of the game's own.
ALTER TABLE games ADD FOREIGN KEY (result_id, id)
	REFERENCES results (id, game_id) DEFERRABLE INITIALLY DEFERRED;

-- A child table rather than columns: the protocol allows up to 8 seats.
CREATE TABLE result_seats (
	result_id	bigint NOT NULL REFERENCES results ON DELETE CASCADE,
	seat		smallint NOT NULL CHECK (seat >= 0 AND seat < 8),
	score		bigint NOT NULL,
	verdict		text NOT NULL CHECK (verdict IN
			('OK', 'WA', 'TO', 'ML', 'RE', 'SV', 'OL', 'XX')),
	illegal		integer NOT NULL CHECK (illegal >= 0),
	cpu_ms		bigint NOT NULL CHECK (cpu_ms >= 0),
	wall_ms		bigint NOT NULL CHECK (wall_ms >= 0),
	peak_kb		bigint NOT NULL CHECK (peak_kb >= 0),
	PRIMARY KEY (result_id, seat)
);

-- Why a game went back to the queue: one row per ended attempt that did
-- not produce a result.
CREATE TABLE game_events (
	id		bigserial PRIMARY KEY,
	game_id		bigint NOT NULL REFERENCES games ON DELETE CASCADE,
	attempt		integer NOT NULL CHECK (attempt >= 1),	-- that ended
	kind		text NOT NULL
			CHECK (kind IN ('requeue', 'lease_expired',
			    'worker_lost')),
	reason		text NOT NULL,
	worker		text,
	at		timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX game_events_game ON game_events (game_id);

-- Every game with a current result, seat 0 having played first. The
-- winner has the higher score and earns the difference as net points; a
-- draw (equal scores) has no winner.
CREATE VIEW game_outcomes AS
SELECT g.id AS game_id, g.match_id, m.stage_id, m.group_id, g.idx,
	g.first_entry, g.second_entry,
	s0.score AS score_first, s1.score AS score_second,
	CASE WHEN s0.score > s1.score THEN g.first_entry
	     WHEN s1.score > s0.score THEN g.second_entry END AS winner,
	abs(s0.score - s1.score) AS net_points,
	r.id AS result_id, r.end_reason
FROM games g
JOIN matches m ON m.id = g.match_id
JOIN results r ON r.id = g.result_id
JOIN result_seats s0 ON s0.result_id = r.id AND s0.seat = 0
JOIN result_seats s1 ON s1.result_id = r.id AND s1.seat = 1;

-- Every match: games won and net points per side; complete once every
-- game has a result. The winner has more games won, then more net
-- points; else it is a draw. Points 3/1/0, only for complete matches.
CREATE VIEW match_results AS
SELECT t.*,
	CASE WHEN NOT t.complete THEN NULL
	     WHEN t.a_games_won > t.b_games_won THEN t.entry_a
	     WHEN t.b_games_won > t.a_games_won THEN t.entry_b
	     WHEN t.a_net_points > t.b_net_points THEN t.entry_a
	     WHEN t.b_net_points > t.a_net_points THEN t.entry_b END AS winner,
	CASE WHEN NOT t.complete THEN NULL
	     WHEN (t.a_games_won, t.a_net_points) >
		  (t.b_games_won, t.b_net_points) THEN 3
	     WHEN (t.a_games_won, t.a_net_points) =
		  (t.b_games_won, t.b_net_points) THEN 1
	     ELSE 0 END AS a_points,
	CASE WHEN NOT t.complete THEN NULL
	     WHEN (t.b_games_won, t.b_net_points) >
		  (t.a_games_won, t.a_net_points) THEN 3
	     WHEN (t.b_games_won, t.b_net_points) =
		  (t.a_games_won, t.a_net_points) THEN 1
	     ELSE 0 END AS b_points
FROM (
	SELECT m.id AS match_id, m.stage_id, m.group_id, m.idx,
		m.entry_a, m.entry_b,
		count(g.id) AS games, count(o.game_id) AS games_done,
		count(o.game_id) = count(g.id) AS complete,
		count(*) FILTER (WHERE o.winner = m.entry_a) AS a_games_won,
		count(*) FILTER (WHERE o.winner = m.entry_b) AS b_games_won,
		coalesce(sum(o.net_points)
		    FILTER (WHERE o.winner = m.entry_a), 0) AS a_net_points,
		coalesce(sum(o.net_points)
		    FILTER (WHERE o.winner = m.entry_b), 0) AS b_net_points
	FROM matches m
	JOIN games g ON g.match_id = m.id
	LEFT JOIN game_outcomes o ON o.game_id = g.id
	GROUP BY m.id
) t;

-- Standings per stage and group, from complete matches only (a match in
-- progress is not half a loss). Ranked by points, then games won; equal
-- in both share a rank, with gaps (1, 2, 2, 4).
CREATE VIEW standings AS
WITH sides AS (
	SELECT group_id, entry_a AS entry_id, a_games_won AS games_won,
		a_net_points AS net_points, a_points AS points
	FROM match_results WHERE complete
	UNION ALL
	SELECT group_id, entry_b, b_games_won, b_net_points, b_points
	FROM match_results WHERE complete
), tally AS (
	SELECT gm.group_id, gm.entry_id, gm.draw,
		count(sd.points) AS played,
		count(*) FILTER (WHERE sd.points = 3) AS won,
		count(*) FILTER (WHERE sd.points = 1) AS drawn,
		count(*) FILTER (WHERE sd.points = 0) AS lost,
		coalesce(sum(sd.points), 0) AS points,
		coalesce(sum(sd.games_won), 0) AS games_won,
		coalesce(sum(sd.net_points), 0) AS net_points
	FROM group_members gm
	LEFT JOIN sides sd ON sd.group_id = gm.group_id
		AND sd.entry_id = gm.entry_id
	GROUP BY gm.group_id, gm.entry_id, gm.draw
)
SELECT st.tournament_id, st.id AS stage_id, st.idx AS stage_idx,
	st.name AS stage_name, gr.id AS group_id, gr.idx AS group_idx,
	gr.name AS group_name,
	rank() OVER (PARTITION BY t.group_id
	    ORDER BY t.points DESC, t.games_won DESC) AS rank,
	e.id AS entry_id, e.idx AS entry_idx, e.name AS entry_name, t.draw,
	t.played, t.won, t.drawn, t.lost, t.points, t.games_won, t.net_points
FROM tally t
JOIN groups gr ON gr.id = t.group_id
JOIN stages st ON st.id = gr.stage_id
JOIN entries e ON e.id = t.entry_id;

-- Who goes on from each group: the top `advance` by rank; ties at the cut
-- go to more net points, then to the earlier draw position.
CREATE VIEW advancers AS
SELECT * FROM (
	SELECT s.*, st.advance,
		row_number() OVER (PARTITION BY s.group_id
		    ORDER BY s.rank, s.net_points DESC, s.draw) AS place
	FROM standings s JOIN stages st ON st.id = s.stage_id
) o WHERE o.place <= o.advance;

-- Every game, with its current result when it has one (winner '' for a
-- draw, NULL without a result).
CREATE VIEW game_list AS
SELECT st.tournament_id, st.idx AS stage_idx, st.name AS stage_name,
	gr.idx AS group_idx, gr.name AS group_name,
	m.idx AS match_idx, m.id AS match_id, g.idx AS game_idx,
	g.id AS game_id, d.name AS dataset_name,
	f.name AS first_name, s.name AS second_name, g.state, g.attempt,
	o.score_first, o.score_second,
	CASE WHEN o.game_id IS NOT NULL THEN coalesce(w.name, '') END
		AS winner_name,
	o.end_reason
FROM games g
JOIN matches m ON m.id = g.match_id
JOIN groups gr ON gr.id = m.group_id
JOIN stages st ON st.id = m.stage_id
JOIN datasets d ON d.id = g.dataset_id
JOIN entries f ON f.id = g.first_entry
JOIN entries s ON s.id = g.second_entry
LEFT JOIN game_outcomes o ON o.game_id = g.id
LEFT JOIN entries w ON w.id = o.winner;


-- migration 2: the attempt cap, reruns with their audit trail, workers.

-- A game that ran out of attempts without a result (our own failures) is
-- 'failed': not scored, and its stage cannot complete until it is rerun.
-- retry_from is the first attempt of the current series (1, or the attempt
-- a rerun started), so a rerun gets DB_MAX_ATTEMPTS tries of its own.
ALTER TABLE games DROP CONSTRAINT games_state_check;
ALTER TABLE games ADD CONSTRAINT games_state_check
	CHECK (state IN ('queued', 'running', 'done', 'failed'));
ALTER TABLE games ADD COLUMN retry_from integer NOT NULL DEFAULT 1
	CHECK (retry_from >= 1);
ALTER TABLE games ADD CHECK (retry_from <= attempt);
CREATE INDEX games_failed ON games (match_id) WHERE state = 'failed';

ALTER TABLE game_events DROP CONSTRAINT game_events_kind_check;
ALTER TABLE game_events ADD CONSTRAINT game_events_kind_check
	CHECK (kind IN ('requeue', 'lease_expired', 'worker_lost', 'gave_up'));

-- One row per `arena rerun`: who asked, when and why, and the standings of
-- the affected stage before (and, once its games are all played again,
-- after), as rows of the standings view in jsonb. advancers_before is the
-- stage's advancers (entry names) when it was done, else NULL.
CREATE TABLE reruns (
	id		bigserial PRIMARY KEY,
	tournament_id	bigint NOT NULL REFERENCES tournaments ON DELETE CASCADE,
	stage_id	bigint NOT NULL REFERENCES stages ON DELETE CASCADE,
	requested_by	text NOT NULL CHECK (requested_by <> ''),
	reason		text NOT NULL CHECK (reason <> ''),
	requested_at	timestamptz NOT NULL DEFAULT now(),
	standings_before jsonb NOT NULL,
	advancers_before jsonb,
	standings_after	jsonb,
	completed_at	timestamptz,
	CHECK ((standings_after IS NULL) = (completed_at IS NULL))
);

-- The games a rerun put back in the queue: the attempt it superseded and
-- that attempt's result (NULL for a failed or unplayed game).
CREATE TABLE rerun_games (
	rerun_id	bigint NOT NULL REFERENCES reruns ON DELETE CASCADE,
	game_id		bigint NOT NULL REFERENCES games ON DELETE CASCADE,
	old_attempt	integer NOT NULL CHECK (old_attempt >= 1),
	old_result_id	bigint REFERENCES results,
	new_attempt	integer NOT NULL CHECK (new_attempt > old_attempt),
	PRIMARY KEY (rerun_id, game_id)
);
CREATE INDEX rerun_games_game ON rerun_games (game_id);

-- The workers a coordinator of a tournament has seen (db_worker_seen(),
-- from its heartbeat timer). Games done and failures are not counters
-- here but derived from results and game_events (worker_health), so they
-- cannot drift from the history.
CREATE TABLE workers (
	tournament_id	bigint NOT NULL REFERENCES tournaments ON DELETE CASCADE,
	name		text NOT NULL,
	address		text,			-- when the transport knows it
	slots		integer NOT NULL CHECK (slots >= 0),
	first_seen	timestamptz NOT NULL DEFAULT now(),
	last_seen	timestamptz NOT NULL DEFAULT now(),
	PRIMARY KEY (tournament_id, name)
);

CREATE VIEW worker_health AS
SELECT w.*,
	(SELECT count(*) FROM results r JOIN games g ON g.id = r.game_id
	 JOIN matches m ON m.id = g.match_id JOIN stages s ON s.id = m.stage_id
	 WHERE s.tournament_id = w.tournament_id AND r.worker = w.name)
		AS games_done,
	(SELECT count(*) FROM game_events e JOIN games g ON g.id = e.game_id
	 JOIN matches m ON m.id = g.match_id JOIN stages s ON s.id = m.stage_id
	 WHERE s.tournament_id = w.tournament_id AND e.worker = w.name)
		AS failures,
	(SELECT count(*) FROM games g JOIN matches m ON m.id = g.match_id
	 JOIN stages s ON s.id = m.stage_id
	 WHERE s.tournament_id = w.tournament_id AND g.state = 'running'
	 AND g.worker = w.name) AS running
FROM workers w;

-- Per stage: games by state.
CREATE VIEW stage_progress AS
SELECT st.tournament_id, st.id AS stage_id, st.idx AS stage_idx,
	st.name AS stage_name, st.expanded_at IS NOT NULL AS expanded,
	count(g.id) AS games,
	count(g.id) FILTER (WHERE g.state = 'done') AS done,
	count(g.id) FILTER (WHERE g.state = 'running') AS running,
	count(g.id) FILTER (WHERE g.state = 'queued') AS queued,
	count(g.id) FILTER (WHERE g.state = 'failed') AS failed
FROM stages st
LEFT JOIN matches m ON m.stage_id = st.id
LEFT JOIN games g ON g.match_id = m.id
GROUP BY st.id;

-- A stage whose next stage was expanded from advancers that are no longer
-- the current ones (a rerun changed its standings): the later stage is
-- left as it was played; this view says so.
CREATE VIEW stale_stages AS
WITH nxt AS (
	SELECT s.tournament_id, s.id AS stage_id, s.idx, s.name,
		n.id AS next_id, n.name AS next_name
	FROM stages s
	JOIN stages n ON n.tournament_id = s.tournament_id
		AND n.idx = s.idx + 1 AND n.expanded_at IS NOT NULL
), now_adv AS (
	SELECT x.stage_id, string_agg(a.entry_name, ', '
		ORDER BY a.group_idx, a.place) AS names
	FROM nxt x JOIN advancers a ON a.stage_id = x.stage_id
	GROUP BY x.stage_id
), played AS (
	SELECT x.stage_id, string_agg(e.name, ', ' ORDER BY gr.idx, gm.draw)
		AS names
	FROM nxt x JOIN groups gr ON gr.stage_id = x.next_id
	JOIN group_members gm ON gm.group_id = gr.id
	JOIN entries e ON e.id = gm.entry_id
	GROUP BY x.stage_id
)
SELECT x.tournament_id, x.stage_id, x.idx AS stage_idx,
	x.name AS stage_name, x.next_name,
	coalesce(a.names, '') AS advancers_now,
	coalesce(p.names, '') AS entrants_played
FROM nxt x
LEFT JOIN now_adv a ON a.stage_id = x.stage_id
LEFT JOIN played p ON p.stage_id = x.stage_id
WHERE NOT EXISTS (SELECT 1 FROM stage_progress sp
	WHERE sp.stage_id = x.stage_id AND sp.done < sp.games)
AND (SELECT array_agg(a2.entry_id ORDER BY a2.entry_id) FROM advancers a2
	WHERE a2.stage_id = x.stage_id) IS DISTINCT FROM
    (SELECT array_agg(gm.entry_id ORDER BY gm.entry_id)
	FROM groups gr JOIN group_members gm ON gm.group_id = gr.id
	WHERE gr.stage_id = x.next_id);

-- migration 3: bots travel by content hash.
--
-- Each entry's folder is packed (common/artifact.h) when a tournament is
-- opened or resumed, stored once per sha256 in artifacts, and served to
-- workers over the wire; entries.artifact is the current packing. A folder
-- that changed between a run and a resume is packed anew and its new hash
-- used for the games leased from then on (the coordinator logs the
-- change). games.artifacts records, at each lease, the hash each seat was
-- given, and result_seats.artifact keeps what each seat played.
CREATE TABLE artifacts (
	sha256		text PRIMARY KEY CHECK (sha256 ~ '^[0-9a-f]{64}$'),
	content		bytea NOT NULL,
	created_at	timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE entries ADD COLUMN artifact text REFERENCES artifacts;
ALTER TABLE games ADD COLUMN artifacts text[];
ALTER TABLE result_seats ADD COLUMN artifact text;

-- migration 4: n-seat matches and games; gauntlet and combinations stages.
--
-- A match is 2 to 8 entries that meet (match_entries, pos 0 first: the
-- one drawn first in a round-robin, the ranked entrant in a gauntlet); a
-- game seats one entry per seat (game_seats, seat 0 moving first). The
-- two-seat columns they replace are migrated, then dropped with the views
-- that read them, and the views are made anew in dependency order.
CREATE TABLE match_entries (
	match_id	bigint NOT NULL REFERENCES matches ON DELETE CASCADE,
	pos		smallint NOT NULL CHECK (pos >= 0 AND pos < 8),
	entry_id	bigint NOT NULL REFERENCES entries,
	PRIMARY KEY (match_id, pos),
	UNIQUE (match_id, entry_id)
);
CREATE TABLE game_seats (
	game_id		bigint NOT NULL REFERENCES games ON DELETE CASCADE,
	seat		smallint NOT NULL CHECK (seat >= 0 AND seat < 8),
	entry_id	bigint NOT NULL REFERENCES entries,
	PRIMARY KEY (game_id, seat),
	UNIQUE (game_id, entry_id)
);
INSERT INTO match_entries (match_id, pos, entry_id)
	SELECT id, 0, entry_a FROM matches
	UNION ALL SELECT id, 1, entry_b FROM matches;
INSERT INTO game_seats (game_id, seat, entry_id)
	SELECT id, 0, first_entry FROM games
	UNION ALL SELECT id, 1, second_entry FROM games;

DROP VIEW stale_stages;
DROP VIEW advancers;
DROP VIEW standings;
DROP VIEW match_results;
DROP VIEW game_list;
DROP VIEW game_outcomes;
ALTER TABLE matches DROP COLUMN entry_a, DROP COLUMN entry_b;
ALTER TABLE games DROP COLUMN first_entry, DROP COLUMN second_entry;

ALTER TABLE stages DROP CONSTRAINT stages_format_check;
ALTER TABLE stages ADD CONSTRAINT stages_format_check CHECK (format IN
	('round_robin', 'final', 'gauntlet', 'combinations'));

-- A gauntlet stage's opponents, in spec order, each scored by weight
-- (weight * (games - lost) / games) or by a table of points by games
-- lost (points[lost + 1]: SQL arrays start at 1).
CREATE TABLE stage_opponents (
	stage_id	bigint NOT NULL REFERENCES stages ON DELETE CASCADE,
	pos		integer NOT NULL CHECK (pos >= 0),
	entry_id	bigint NOT NULL REFERENCES entries,
	weight		bigint CHECK (weight >= 0),
	points		bigint[],
	PRIMARY KEY (stage_id, pos),
	UNIQUE (stage_id, entry_id),
	CHECK ((weight IS NULL) <> (points IS NULL))
);

-- Every seat of every game with a current result: its entry, score and
-- place among the game's seats (1 the best; equal scores share a place,
-- `sharing` says how many).
CREATE VIEW game_seat_results AS
SELECT g.id AS game_id, g.match_id, m.stage_id, m.group_id, gs.seat,
	gs.entry_id, rs.score, rs.verdict,
	rank() OVER (PARTITION BY g.id ORDER BY rs.score DESC) AS place,
	count(*) OVER (PARTITION BY g.id, rs.score) AS sharing
FROM games g
JOIN matches m ON m.id = g.match_id
JOIN game_seats gs ON gs.game_id = g.id
JOIN result_seats rs ON rs.result_id = g.result_id AND rs.seat = gs.seat;

-- As in migration 1, for two-seat games only.
CREATE VIEW game_outcomes AS
SELECT g.id AS game_id, g.match_id, m.stage_id, m.group_id, g.idx,
	f.entry_id AS first_entry, sc.entry_id AS second_entry,
	s0.score AS score_first, s1.score AS score_second,
	CASE WHEN s0.score > s1.score THEN f.entry_id
	     WHEN s1.score > s0.score THEN sc.entry_id END AS winner,
	abs(s0.score - s1.score) AS net_points,
	r.id AS result_id, r.end_reason
FROM games g
JOIN matches m ON m.id = g.match_id
JOIN results r ON r.id = g.result_id
JOIN game_seats f ON f.game_id = g.id AND f.seat = 0
JOIN game_seats sc ON sc.game_id = g.id AND sc.seat = 1
JOIN result_seats s0 ON s0.result_id = r.id AND s0.seat = 0
JOIN result_seats s1 ON s1.result_id = r.id AND s1.seat = 1
WHERE NOT EXISTS (SELECT 1 FROM game_seats x
	WHERE x.game_id = g.id AND x.seat > 1);

-- As in migration 1, for two-entry matches only (round-robin, final,
-- gauntlet: a is the ranked entrant, b the opponent).
CREATE VIEW match_results AS
SELECT t.*,
	CASE WHEN NOT t.complete THEN NULL
	     WHEN t.a_games_won > t.b_games_won THEN t.entry_a
	     WHEN t.b_games_won > t.a_games_won THEN t.entry_b
	     WHEN t.a_net_points > t.b_net_points THEN t.entry_a
	     WHEN t.b_net_points > t.a_net_points THEN t.entry_b END AS winner,
	CASE WHEN NOT t.complete THEN NULL
	     WHEN (t.a_games_won, t.a_net_points) >
		  (t.b_games_won, t.b_net_points) THEN 3
	     WHEN (t.a_games_won, t.a_net_points) =
		  (t.b_games_won, t.b_net_points) THEN 1
	     ELSE 0 END AS a_points,
	CASE WHEN NOT t.complete THEN NULL
	     WHEN (t.b_games_won, t.b_net_points) >
		  (t.a_games_won, t.a_net_points) THEN 3
	     WHEN (t.b_games_won, t.b_net_points) =
		  (t.a_games_won, t.a_net_points) THEN 1
	     ELSE 0 END AS b_points
FROM (
	SELECT m.id AS match_id, m.stage_id, m.group_id, m.idx,
		a.entry_id AS entry_a, b.entry_id AS entry_b,
		count(g.id) AS games, count(o.game_id) AS games_done,
		count(o.game_id) = count(g.id) AS complete,
		count(*) FILTER (WHERE o.winner = a.entry_id) AS a_games_won,
		count(*) FILTER (WHERE o.winner = b.entry_id) AS b_games_won,
		coalesce(sum(o.net_points)
		    FILTER (WHERE o.winner = a.entry_id), 0) AS a_net_points,
		coalesce(sum(o.net_points)
		    FILTER (WHERE o.winner = b.entry_id), 0) AS b_net_points
	FROM matches m
	JOIN match_entries a ON a.match_id = m.id AND a.pos = 0
	JOIN match_entries b ON b.match_id = m.id AND b.pos = 1
	JOIN games g ON g.match_id = m.id
	LEFT JOIN game_outcomes o ON o.game_id = g.id
	WHERE NOT EXISTS (SELECT 1 FROM match_entries x
		WHERE x.match_id = m.id AND x.pos > 1)
	GROUP BY m.id, a.entry_id, b.entry_id
) t;

-- As in migration 1, for round-robin and final stages.
CREATE VIEW standings AS
WITH sides AS (
	SELECT group_id, entry_a AS entry_id, a_games_won AS games_won,
		a_net_points AS net_points, a_points AS points
	FROM match_results WHERE complete
	UNION ALL
	SELECT group_id, entry_b, b_games_won, b_net_points, b_points
	FROM match_results WHERE complete
), tally AS (
	SELECT gm.group_id, gm.entry_id, gm.draw,
		count(sd.points) AS played,
		count(*) FILTER (WHERE sd.points = 3) AS won,
		count(*) FILTER (WHERE sd.points = 1) AS drawn,
		count(*) FILTER (WHERE sd.points = 0) AS lost,
		coalesce(sum(sd.points), 0) AS points,
		coalesce(sum(sd.games_won), 0) AS games_won,
		coalesce(sum(sd.net_points), 0) AS net_points
	FROM group_members gm
	LEFT JOIN sides sd ON sd.group_id = gm.group_id
		AND sd.entry_id = gm.entry_id
	GROUP BY gm.group_id, gm.entry_id, gm.draw
)
SELECT st.tournament_id, st.id AS stage_id, st.idx AS stage_idx,
	st.name AS stage_name, gr.id AS group_id, gr.idx AS group_idx,
	gr.name AS group_name,
	rank() OVER (PARTITION BY t.group_id
	    ORDER BY t.points DESC, t.games_won DESC) AS rank,
	e.id AS entry_id, e.idx AS entry_idx, e.name AS entry_name, t.draw,
	t.played, t.won, t.drawn, t.lost, t.points, t.games_won, t.net_points
FROM tally t
JOIN groups gr ON gr.id = t.group_id
JOIN stages st ON st.id = gr.stage_id
JOIN entries e ON e.id = t.entry_id
WHERE st.format IN ('round_robin', 'final');

-- One row per (ranked entrant, opponent) of a gauntlet stage: games won,
-- drawn and lost (the opponent won; a draw is not lost), and once the
-- match is complete the points it is worth, from the table or by weight
-- (rounded to 3 decimals).
CREATE VIEW gauntlet_results AS
SELECT mr.stage_id, mr.group_id, mr.match_id, mr.entry_a AS entry_id,
	so.pos AS opponent_pos, so.entry_id AS opponent_id, mr.games,
	mr.games_done AS played, mr.complete, mr.a_games_won AS won,
	mr.games_done - mr.a_games_won - mr.b_games_won AS drawn,
	mr.b_games_won AS lost,
	CASE WHEN NOT mr.complete THEN NULL
	     WHEN so.points IS NOT NULL
		THEN so.points[mr.b_games_won + 1]::numeric
	     ELSE round(so.weight::numeric * (mr.games - mr.b_games_won) /
		mr.games, 3) END AS points
FROM match_results mr
JOIN stage_opponents so ON so.stage_id = mr.stage_id
	AND so.entry_id = mr.entry_b;

-- Gauntlet standings, from complete matches only: total points, ranked
-- by points then fewer games lost; equal in both share a rank.
CREATE VIEW gauntlet_standings AS
WITH tally AS (
	SELECT gm.group_id, gm.entry_id, gm.draw,
		coalesce(sum(r.played) FILTER (WHERE r.complete), 0) AS played,
		coalesce(sum(r.won) FILTER (WHERE r.complete), 0) AS won,
		coalesce(sum(r.drawn) FILTER (WHERE r.complete), 0) AS drawn,
		coalesce(sum(r.lost) FILTER (WHERE r.complete), 0) AS lost,
		coalesce(sum(r.points), 0) AS points
	FROM group_members gm
	LEFT JOIN gauntlet_results r ON r.group_id = gm.group_id
		AND r.entry_id = gm.entry_id
	GROUP BY gm.group_id, gm.entry_id, gm.draw
)
SELECT st.tournament_id, st.id AS stage_id, st.idx AS stage_idx,
	st.name AS stage_name, gr.id AS group_id, gr.idx AS group_idx,
	gr.name AS group_name,
	rank() OVER (PARTITION BY t.group_id
	    ORDER BY t.points DESC, t.lost) AS rank,
	e.id AS entry_id, e.idx AS entry_idx, e.name AS entry_name, t.draw,
	t.played, t.won, t.drawn, t.lost, t.points
FROM tally t
JOIN groups gr ON gr.id = t.group_id
JOIN stages st ON st.id = gr.stage_id
JOIN entries e ON e.id = t.entry_id
WHERE st.format = 'gauntlet';

-- Combinations standings: games with a result, games won (the top score
-- alone), score total and average over all of them, ranked by average
-- (unrounded; equal share a rank); shown to 3 decimals.
CREATE VIEW combination_standings AS
WITH tally AS (
	SELECT gm.group_id, gm.entry_id, gm.draw, count(r.game_id) AS played,
		count(*) FILTER (WHERE r.place = 1 AND r.sharing = 1) AS won,
		coalesce(sum(r.score), 0) AS total, avg(r.score) AS average
	FROM group_members gm
	LEFT JOIN game_seat_results r ON r.group_id = gm.group_id
		AND r.entry_id = gm.entry_id
	GROUP BY gm.group_id, gm.entry_id, gm.draw
)
SELECT st.tournament_id, st.id AS stage_id, st.idx AS stage_idx,
	st.name AS stage_name, gr.id AS group_id, gr.idx AS group_idx,
	gr.name AS group_name,
	rank() OVER (PARTITION BY t.group_id
	    ORDER BY t.average DESC NULLS LAST) AS rank,
	e.id AS entry_id, e.idx AS entry_idx, e.name AS entry_name, t.draw,
	t.played, t.won, t.total, round(coalesce(t.average, 0), 3) AS average
FROM tally t
JOIN groups gr ON gr.id = t.group_id
JOIN stages st ON st.id = gr.stage_id
JOIN entries e ON e.id = t.entry_id
WHERE st.format = 'combinations';

-- Every format's ranking in one shape: what advancers and reruns need.
-- tiebreak orders equal ranks at a cut (round-robin: net points).
CREATE VIEW stage_ranking AS
SELECT tournament_id, stage_id, stage_idx, stage_name, group_id, group_idx,
	group_name, rank, entry_id, entry_idx, entry_name, draw,
	net_points AS tiebreak
FROM standings
UNION ALL
SELECT tournament_id, stage_id, stage_idx, stage_name, group_id, group_idx,
	group_name, rank, entry_id, entry_idx, entry_name, draw, 0
FROM gauntlet_standings
UNION ALL
SELECT tournament_id, stage_id, stage_idx, stage_name, group_id, group_idx,
	group_name, rank, entry_id, entry_idx, entry_name, draw, 0
FROM combination_standings;

-- Who goes on from each group: the top `advance` by rank; ties at the cut
-- go to the tiebreak (round-robin: more net points), then to the earlier
-- draw position.
CREATE VIEW advancers AS
SELECT * FROM (
	SELECT s.*, st.advance,
		row_number() OVER (PARTITION BY s.group_id
		    ORDER BY s.rank, s.tiebreak DESC, s.draw) AS place
	FROM stage_ranking s JOIN stages st ON st.id = s.stage_id
) o WHERE o.place <= o.advance;

-- Every game, with its current result when it has one: seats 0 and 1 as
-- first and second, every seat in seat_names and seat_scores
-- (comma-separated), the winner the one top score ('' when shared, NULL
-- without a result). Per game through a lateral subquery, so that looking
-- up one game reads only its own rows.
CREATE VIEW game_list AS
SELECT st.tournament_id, st.idx AS stage_idx, st.name AS stage_name,
	gr.idx AS group_idx, gr.name AS group_name,
	m.idx AS match_idx, m.id AS match_id, g.idx AS game_idx,
	g.id AS game_id, d.name AS dataset_name,
	sn.names[1] AS first_name, sn.names[2] AS second_name, g.state,
	g.attempt, sn.scores[1] AS score_first, sn.scores[2] AS score_second,
	CASE WHEN r.id IS NULL THEN NULL
	     WHEN sn.nseats = 1 OR sn.top[1] > sn.top[2] THEN sn.top_name
	     ELSE '' END AS winner_name,
	r.end_reason, array_to_string(sn.names, ',') AS seat_names,
	array_to_string(sn.scores, ',') AS seat_scores, sn.nseats
FROM games g
JOIN matches m ON m.id = g.match_id
JOIN groups gr ON gr.id = m.group_id
JOIN stages st ON st.id = m.stage_id
JOIN datasets d ON d.id = g.dataset_id
LEFT JOIN results r ON r.id = g.result_id
CROSS JOIN LATERAL (
	SELECT array_agg(e.name ORDER BY gs.seat) AS names,
		array_agg(rs.score ORDER BY gs.seat) AS scores,
		array_agg(rs.score ORDER BY rs.score DESC) AS top,
		(array_agg(e.name ORDER BY rs.score DESC))[1] AS top_name,
		count(*) AS nseats
	FROM game_seats gs JOIN entries e ON e.id = gs.entry_id
	LEFT JOIN result_seats rs ON rs.result_id = r.id
		AND rs.seat = gs.seat
	WHERE gs.game_id = g.id
) sn;

-- As in migration 2.
CREATE VIEW stale_stages AS
WITH nxt AS (
	SELECT s.tournament_id, s.id AS stage_id, s.idx, s.name,
		n.id AS next_id, n.name AS next_name
	FROM stages s
	JOIN stages n ON n.tournament_id = s.tournament_id
		AND n.idx = s.idx + 1 AND n.expanded_at IS NOT NULL
), now_adv AS (
	SELECT x.stage_id, string_agg(a.entry_name, ', '
		ORDER BY a.group_idx, a.place) AS names
	FROM nxt x JOIN advancers a ON a.stage_id = x.stage_id
	GROUP BY x.stage_id
), played AS (
	SELECT x.stage_id, string_agg(e.name, ', ' ORDER BY gr.idx, gm.draw)
		AS names
	FROM nxt x JOIN groups gr ON gr.stage_id = x.next_id
	JOIN group_members gm ON gm.group_id = gr.id
	JOIN entries e ON e.id = gm.entry_id
	GROUP BY x.stage_id
)
SELECT x.tournament_id, x.stage_id, x.idx AS stage_idx,
	x.name AS stage_name, x.next_name,
	coalesce(a.names, '') AS advancers_now,
	coalesce(p.names, '') AS entrants_played
FROM nxt x
LEFT JOIN now_adv a ON a.stage_id = x.stage_id
LEFT JOIN played p ON p.stage_id = x.stage_id
WHERE NOT EXISTS (SELECT 1 FROM stage_progress sp
	WHERE sp.stage_id = x.stage_id AND sp.done < sp.games)
AND (SELECT array_agg(a2.entry_id ORDER BY a2.entry_id) FROM advancers a2
	WHERE a2.stage_id = x.stage_id) IS DISTINCT FROM
    (SELECT array_agg(gm.entry_id ORDER BY gm.entry_id)
	FROM groups gr JOIN group_members gm ON gm.group_id = gr.id
	WHERE gr.stage_id = x.next_id);

-- migration 5: the all_vs_all format; spare datasets for undecided games.
--
-- An all_vs_all stage plays every pair `repeat` times per dataset and
-- side (stages.repeat, 1 for the other formats).
ALTER TABLE stages ADD COLUMN repeat integer NOT NULL DEFAULT 1
	CHECK (repeat >= 1);
ALTER TABLE stages DROP CONSTRAINT stages_format_check;
ALTER TABLE stages ADD CONSTRAINT stages_format_check CHECK (format IN
	('round_robin', 'final', 'gauntlet', 'combinations', 'all_vs_all'));

-- Spare datasets (the spec's spare_datasets) are datasets too, after the
-- others in idx, numbered from 0 in `spare`; no plan uses them. When a
-- game's current result has end_reason 'undecided' (the referee's word:
-- equal scores that the rules say must be played again) and a spare
-- comes after the game's dataset, the trigger below adds, in the same
-- transaction as the result, a follow-up game in the same match with the
-- same seats on the next spare, seeded from the game's seed and the
-- spare's place. The undecided game points at it in replaced_by and no
-- longer counts anywhere (it stays, with its result, for audit); after
-- the last spare the undecided result counts as it is, a draw. Whatever
-- records results (one at a time or in batches) gets this, as it is a
-- trigger. A game already replaced is never replaced twice: a rerun of
-- it does not remove its follow-up (rerun the follow-up instead).
ALTER TABLE datasets ADD COLUMN spare integer CHECK (spare >= 0);
ALTER TABLE datasets ADD UNIQUE (tournament_id, spare);
ALTER TABLE games ADD COLUMN replaced_by bigint REFERENCES games;
ALTER TABLE games ADD CHECK (replaced_by <> id);

CREATE FUNCTION spare_follow_up() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	nxt datasets%ROWTYPE;
	follow bigint;
BEGIN
	IF NEW.replaced_by IS NOT NULL OR (SELECT end_reason FROM results
	    WHERE id = NEW.result_id) IS DISTINCT FROM 'undecided' THEN
		RETURN NULL;
	END IF;
	SELECT d.* INTO nxt FROM datasets d JOIN datasets cur
		ON cur.tournament_id = d.tournament_id
	WHERE cur.id = NEW.dataset_id AND d.spare > coalesce(cur.spare, -1)
	ORDER BY d.spare LIMIT 1;
	IF NOT FOUND THEN
		RETURN NULL;
	END IF;
	-- 52 bits of md5: below 2^53, as every game seed.
	INSERT INTO games (match_id, idx, dataset_id, seed)
	SELECT NEW.match_id, max(g.idx) + 1, nxt.id,
		('x' || substr(md5(NEW.seed::text || '/spare/' || nxt.spare),
		    1, 13))::bit(52)::bigint
	FROM games g WHERE g.match_id = NEW.match_id
	RETURNING id INTO follow;
	INSERT INTO game_seats (game_id, seat, entry_id)
	SELECT follow, seat, entry_id FROM game_seats WHERE game_id = NEW.id;
	UPDATE games SET replaced_by = follow WHERE id = NEW.id;
	RETURN NULL;
END
$$;
CREATE TRIGGER games_spare_follow_up AFTER UPDATE OF result_id ON games
	FOR EACH ROW WHEN (NEW.result_id IS NOT NULL AND
	    NEW.result_id IS DISTINCT FROM OLD.result_id)
	EXECUTE FUNCTION spare_follow_up();

-- The views of migration 4 that count games, without replaced ones.
CREATE OR REPLACE VIEW game_seat_results AS
SELECT g.id AS game_id, g.match_id, m.stage_id, m.group_id, gs.seat,
	gs.entry_id, rs.score, rs.verdict,
	rank() OVER (PARTITION BY g.id ORDER BY rs.score DESC) AS place,
	count(*) OVER (PARTITION BY g.id, rs.score) AS sharing
FROM games g
JOIN matches m ON m.id = g.match_id
JOIN game_seats gs ON gs.game_id = g.id
JOIN result_seats rs ON rs.result_id = g.result_id AND rs.seat = gs.seat
WHERE g.replaced_by IS NULL;

CREATE OR REPLACE VIEW game_outcomes AS
SELECT g.id AS game_id, g.match_id, m.stage_id, m.group_id, g.idx,
	f.entry_id AS first_entry, sc.entry_id AS second_entry,
	s0.score AS score_first, s1.score AS score_second,
	CASE WHEN s0.score > s1.score THEN f.entry_id
	     WHEN s1.score > s0.score THEN sc.entry_id END AS winner,
	abs(s0.score - s1.score) AS net_points,
	r.id AS result_id, r.end_reason
FROM games g
JOIN matches m ON m.id = g.match_id
JOIN results r ON r.id = g.result_id
JOIN game_seats f ON f.game_id = g.id AND f.seat = 0
JOIN game_seats sc ON sc.game_id = g.id AND sc.seat = 1
JOIN result_seats s0 ON s0.result_id = r.id AND s0.seat = 0
JOIN result_seats s1 ON s1.result_id = r.id AND s1.seat = 1
WHERE g.replaced_by IS NULL AND NOT EXISTS (SELECT 1 FROM game_seats x
	WHERE x.game_id = g.id AND x.seat > 1);

CREATE OR REPLACE VIEW match_results AS
SELECT t.*,
	CASE WHEN NOT t.complete THEN NULL
	     WHEN t.a_games_won > t.b_games_won THEN t.entry_a
	     WHEN t.b_games_won > t.a_games_won THEN t.entry_b
	     WHEN t.a_net_points > t.b_net_points THEN t.entry_a
	     WHEN t.b_net_points > t.a_net_points THEN t.entry_b END AS winner,
	CASE WHEN NOT t.complete THEN NULL
	     WHEN (t.a_games_won, t.a_net_points) >
		  (t.b_games_won, t.b_net_points) THEN 3
	     WHEN (t.a_games_won, t.a_net_points) =
		  (t.b_games_won, t.b_net_points) THEN 1
	     ELSE 0 END AS a_points,
	CASE WHEN NOT t.complete THEN NULL
	     WHEN (t.b_games_won, t.b_net_points) >
		  (t.a_games_won, t.a_net_points) THEN 3
	     WHEN (t.b_games_won, t.b_net_points) =
		  (t.a_games_won, t.a_net_points) THEN 1
	     ELSE 0 END AS b_points
FROM (
	SELECT m.id AS match_id, m.stage_id, m.group_id, m.idx,
		a.entry_id AS entry_a, b.entry_id AS entry_b,
		count(g.id) AS games, count(o.game_id) AS games_done,
		count(o.game_id) = count(g.id) AS complete,
		count(*) FILTER (WHERE o.winner = a.entry_id) AS a_games_won,
		count(*) FILTER (WHERE o.winner = b.entry_id) AS b_games_won,
		coalesce(sum(o.net_points)
		    FILTER (WHERE o.winner = a.entry_id), 0) AS a_net_points,
		coalesce(sum(o.net_points)
		    FILTER (WHERE o.winner = b.entry_id), 0) AS b_net_points
	FROM matches m
	JOIN match_entries a ON a.match_id = m.id AND a.pos = 0
	JOIN match_entries b ON b.match_id = m.id AND b.pos = 1
	JOIN games g ON g.match_id = m.id AND g.replaced_by IS NULL
	LEFT JOIN game_outcomes o ON o.game_id = g.id
	WHERE NOT EXISTS (SELECT 1 FROM match_entries x
		WHERE x.match_id = m.id AND x.pos > 1)
	GROUP BY m.id, a.entry_id, b.entry_id
) t;

-- Every game as before, and which game replaced it (NULL: it counts).
CREATE OR REPLACE VIEW game_list AS
SELECT st.tournament_id, st.idx AS stage_idx, st.name AS stage_name,
	gr.idx AS group_idx, gr.name AS group_name,
	m.idx AS match_idx, m.id AS match_id, g.idx AS game_idx,
	g.id AS game_id, d.name AS dataset_name,
	sn.names[1] AS first_name, sn.names[2] AS second_name, g.state,
	g.attempt, sn.scores[1] AS score_first, sn.scores[2] AS score_second,
	CASE WHEN r.id IS NULL THEN NULL
	     WHEN sn.nseats = 1 OR sn.top[1] > sn.top[2] THEN sn.top_name
	     ELSE '' END AS winner_name,
	r.end_reason, array_to_string(sn.names, ',') AS seat_names,
	array_to_string(sn.scores, ',') AS seat_scores, sn.nseats,
	g.replaced_by
FROM games g
JOIN matches m ON m.id = g.match_id
JOIN groups gr ON gr.id = m.group_id
JOIN stages st ON st.id = m.stage_id
JOIN datasets d ON d.id = g.dataset_id
LEFT JOIN results r ON r.id = g.result_id
CROSS JOIN LATERAL (
	SELECT array_agg(e.name ORDER BY gs.seat) AS names,
		array_agg(rs.score ORDER BY gs.seat) AS scores,
		array_agg(rs.score ORDER BY rs.score DESC) AS top,
		(array_agg(e.name ORDER BY rs.score DESC))[1] AS top_name,
		count(*) AS nseats
	FROM game_seats gs JOIN entries e ON e.id = gs.entry_id
	LEFT JOIN result_seats rs ON rs.result_id = r.id
		AND rs.seat = gs.seat
	WHERE gs.game_id = g.id
) sn;

-- All-vs-all standings, over every game with a result: each entry's
-- score sum over its games (`played`) divided by the stage's repeat
-- (`total`, 3 decimals) and the mark: 10 for the best total, 10 x total
-- / best for the others (3 decimals; negative for a negative total).
-- When the best total is not above 0 there is nothing to scale by and
-- every mark is 0. Ranked by total (unrounded); equal share a rank.
CREATE VIEW all_vs_all_standings AS
WITH tally AS (
	SELECT gm.group_id, gm.entry_id, gm.draw, count(r.game_id) AS played,
		coalesce(sum(r.score), 0) AS score_sum
	FROM group_members gm
	LEFT JOIN game_seat_results r ON r.group_id = gm.group_id
		AND r.entry_id = gm.entry_id
	GROUP BY gm.group_id, gm.entry_id, gm.draw
), best AS (
	SELECT t.*, max(t.score_sum) OVER (PARTITION BY t.group_id) AS top
	FROM tally t
)
SELECT st.tournament_id, st.id AS stage_id, st.idx AS stage_idx,
	st.name AS stage_name, gr.id AS group_id, gr.idx AS group_idx,
	gr.name AS group_name,
	rank() OVER (PARTITION BY b.group_id ORDER BY b.score_sum DESC)
	    AS rank,
	e.id AS entry_id, e.idx AS entry_idx, e.name AS entry_name, b.draw,
	b.played, b.score_sum,
	round(b.score_sum::numeric / st.repeat, 3) AS total,
	CASE WHEN b.top > 0 THEN round(10 * b.score_sum::numeric / b.top, 3)
	     ELSE 0.000 END AS mark
FROM best b
JOIN groups gr ON gr.id = b.group_id
JOIN stages st ON st.id = gr.stage_id
JOIN entries e ON e.id = b.entry_id
WHERE st.format = 'all_vs_all';

CREATE OR REPLACE VIEW stage_ranking AS
SELECT tournament_id, stage_id, stage_idx, stage_name, group_id, group_idx,
	group_name, rank, entry_id, entry_idx, entry_name, draw,
	net_points AS tiebreak
FROM standings
UNION ALL
SELECT tournament_id, stage_id, stage_idx, stage_name, group_id, group_idx,
	group_name, rank, entry_id, entry_idx, entry_name, draw, 0
FROM gauntlet_standings
UNION ALL
SELECT tournament_id, stage_id, stage_idx, stage_name, group_id, group_idx,
	group_name, rank, entry_id, entry_idx, entry_name, draw, 0
FROM combination_standings
UNION ALL
SELECT tournament_id, stage_id, stage_idx, stage_name, group_id, group_idx,
	group_name, rank, entry_id, entry_idx, entry_name, draw, 0
FROM all_vs_all_standings;
