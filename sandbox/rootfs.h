/*
 * rootfs: the private root a sandboxed command sees. Private to sandbox/.
 */
#ifndef ARENA_SANDBOX_ROOTFS_H
#define ARENA_SANDBOX_ROOTFS_H

#include <stddef.h>
#include <stdint.h>

/* Where the new root is mounted (in the sandbox's own mount namespace
 * only; the directory itself is shared and stays empty). */
#define ROOTFS_MOUNTPOINT "/run/arena/sandbox/root"

/* Builds the root on ROOTFS_MOUNTPOINT and pivots into it; the caller is
 * root of fresh user, mount and pid namespaces. dir is the command's
 * folder (box_fd: a detached, id-mapped mount of it from open_tree(), or
 * -1 to bind dir itself). 0, or -1 with the reason in err (no logging:
 * runs in the child). */
int rootfs_build(const char *dir, int box_fd, int64_t tmp_kb, char *err,
    size_t errsize);
/* The same with a private /box: a tmpfs of box_kb filled with a copy of
 * the tree at src_fd (an fd of the folder, best an id-mapped mount of it,
 * so the files owned by SANDBOX_FILES_UID are readable here; closed by
 * the call). */
int rootfs_build_copy(int src_fd, int64_t tmp_kb, int64_t box_kb,
    char *err, size_t errsize);

#endif
