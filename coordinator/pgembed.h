/*
 * pgembed: the private PostgreSQL of single-machine runs. With no database
 * named (--db, then ARENA_DB), arena initialises a cluster under the data
 * folder (initdb, unix socket only, no TCP), starts it, and reuses it on
 * later runs. When run as root the cluster belongs to an unprivileged user
 * (Debian's "postgres"), since PostgreSQL refuses to run as root.
 */
#ifndef ARENA_PGEMBED_H
#define ARENA_PGEMBED_H

/* The data folder: dir if given, else $ARENA_DATA, else /var/lib/arena as
 * root (PostgreSQL's user must reach it), else ~/.local/share/arena.
 * Caller owns the result; free(). */
char *pgembed_data_dir(const char *dir);

/* The conninfo to use: db_url if given, else $ARENA_DB, else the private
 * cluster under data_dir (see pgembed_data_dir), initialised and started
 * if needed. Caller owns *conninfo; free(). */
int pgembed_resolve(const char *db_url, const char *data_dir, char **conninfo);

struct db;

/* The database pgembed_resolve() names, connected, its schema brought up
 * to date (db_open()). NULL after logging. Free with db_free(). */
struct db *pgembed_connect(const char *db_url, const char *data_dir);

/* Initialises (if needed) and starts a cluster in folder dir, waiting until
 * it accepts connections; *conninfo names its socket and database "arena".
 * A cluster already running there is reused. Caller owns *conninfo. */
int pgembed_start(const char *dir, char **conninfo);
/* Stops the cluster in dir (fast shutdown); 0 when it is not running. */
int pgembed_stop(const char *dir);

#endif
