/*
 * artifact: an entry's folder as bytes that travel, named by their sha256.
 *
 * An artifact is a tar archive (POSIX pax, no compression) made so that
 * the same folder always gives the same bytes: entries in byte order of
 * their names, parents before children, owner 0:0, times 0, no user or
 * group names, permissions reduced to 0755 (folders and files with any
 * execute bit) or 0644; only folders, regular files and symlinks, which
 * stay symlinks (never followed). Anything else in the folder (a FIFO, a
 * socket, a device) is refused, so an entry never silently loses a file.
 *
 * This module is the only user of libarchive and of libcrypto.
 */
#ifndef ARENA_ARTIFACT_H
#define ARENA_ARTIFACT_H

#include <sys/types.h>

#include <stdbool.h>
#include <stddef.h>

/* A sha256 in lowercase hex and a NUL. */
#define ARTIFACT_HEX 65

/* Packs folder; 0 with *buf (caller frees), *len and its hash in hex, or
 * -1 after logging (a folder that makes more than max bytes is refused,
 * saying so). */
int artifact_pack(const char *folder, size_t max, char **buf, size_t *len,
    char hex[ARTIFACT_HEX]);

/* The sha256 of len bytes at buf, in lowercase hex. */
void artifact_sha256(const void *buf, size_t len, char hex[ARTIFACT_HEX]);

/* Whether s is 64 lowercase hex digits. */
bool artifact_hex_valid(const char *s);

/* Unpacks an artifact into dst, which must not exist, every file owned by
 * uid:gid when we are root. Refuses (-1, logged, dst possibly half made:
 * remove it with tree_remove()) absolute paths, "..", entries other than
 * folders, files and symlinks, hard links, paths through a symlink and
 * anything written twice; set-id bits are dropped. */
int artifact_unpack(const void *buf, size_t len, const char *dst, uid_t uid,
    gid_t gid);

#endif
