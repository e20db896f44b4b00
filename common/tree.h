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

/* Folders nested deeper than this are refused (ELOOP): no entry needs
 * them, a hostile build might. */
#define TREE_MAX_DEPTH 32

/* Told by tree_copy_at() about an entry, path relative to the folder
 * copied ("" for the folder itself): err is the errno that stopped the
 * copy there, or 0 for an entry left out (not a file, folder or link). */
typedef void tree_hook(void *ctx, const char *path, int err);

/* Copies what folder from holds into folder to (descriptors; to itself
 * is the caller's), every copy owned by uid:gid, modes kept without the
 * set-id bits, symlinks as symlinks,
 * nothing followed, nothing but files, folders and symlinks. Neither
 * logs nor allocates: the sandbox's pid 1 uses it to fill its /box. 0, or
 * -1 after telling hook where it stopped. */
int tree_copy_at(int from, int to, uid_t uid, gid_t gid, tree_hook *hook,
    void *ctx);

/* Removes name in folder dir (a descriptor) and, for a folder,
 * everything under it, following no symlink; missing is no error. 0, or
 * -1 after logging. */
int tree_remove_at(int dir, const char *name);

/* Copies folder src to dst, which must not exist, every copy owned by
 * uid:gid. 0, or -1 after logging (dst may be left half made: remove it
 * with tree_remove()). */
int tree_copy(const char *src, const char *dst, uid_t uid, gid_t gid);

/* Removes path and everything under it, following no symlink and
 * crossing no mount; a missing path is not an error. */
int tree_remove(const char *path);

#endif
