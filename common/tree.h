/*
 * tree: copies and removes folder trees for the sandbox, as root, without
 * ever following a path a bot could have planted: every step goes through
 * directory descriptors opened with O_NOFOLLOW, symlinks are copied as
 * symlinks, anything that is not a folder, a file or a symlink (a FIFO, a
 * device, a socket) is left out, and set-id bits are dropped.
 */
#ifndef ARENA_TREE_H
#define ARENA_TREE_H

#include <sys/types.h>

/* Copies folder src to dst, which must not exist, every copy owned by
 * uid:gid. 0, or -1 after logging (dst may be left half made: remove it
 * with tree_remove()). */
int tree_copy(const char *src, const char *dst, uid_t uid, gid_t gid);

/* Removes path and everything under it, following no symlink and
 * crossing no mount; a missing path is not an error. */
int tree_remove(const char *path);

#endif
