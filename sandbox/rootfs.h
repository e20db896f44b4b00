/*
 * rootfs: the private root a sandboxed command sees. Private to sandbox/.
 */
#ifndef ARENA_SANDBOX_ROOTFS_H
#define ARENA_SANDBOX_ROOTFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Where the new root is mounted (in the sandbox's own mount namespace
 * only; the directory itself is shared and stays empty). */
#define ROOTFS_MOUNTPOINT "/run/arena/sandbox/root"

/* The sizes /tmp and /box are prepared with (others cost a remount). */
#define ROOTFS_TMP_KB (64 * 1024)
#define ROOTFS_BOX_KB (256 * 1024)

/* Builds the root on ROOTFS_MOUNTPOINT and pivots into it, leaving
 * empty mount points at /tmp and /box; the caller is root of fresh user,
 * mount and pid namespaces. 0, or -1 with the reason in err (no logging:
 * runs in the child). */
int rootfs_prepare(char *err, size_t errsize);
/* After rootfs_prepare(): a tmpfs of tmp_kb at /tmp, and at /box either
 * box_fd itself (keep_box: a detached mount of the folder from
 * open_tree(), best id-mapped) or a tmpfs of box_kb filled with a copy
 * of the tree at box_fd (an fd of the folder, best an id-mapped mount of
 * it, so the files owned by SANDBOX_FILES_UID are readable here). box_fd
 * is closed by the call. 0, or -1 with the reason in err. */
int rootfs_finish(int box_fd, bool keep_box, int64_t tmp_kb, int64_t box_kb,
    char *err, size_t errsize);

/* For the next command of the same sandbox (sandbox_again()): a new,
 * empty tmpfs of tmp_kb at /tmp in place of the last one's. 0, or -1 with
 * the reason in err. */
int rootfs_renew_tmp(int64_t tmp_kb, char *err, size_t errsize);

#endif
