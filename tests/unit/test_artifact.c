/* Unit tests for common/artifact: the same folder packs to the same bytes
 * whatever its files' times and creation order, any change gives another
 * hash, symlinks stay symlinks, and unpacking refuses hostile archives
 * (made here with GNU tar) without writing outside its folder. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <sys/stat.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/artifact.h"
#include "common/log.h"
#include "common/tree.h"

static char tmp[64];

static void
sh(const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof cmd, fmt, ap);
	va_end(ap);
	assert_int_equal(system(cmd), 0);
}

static void
pack(const char *dir, char hex[ARTIFACT_HEX])
{
	char *buf;
	size_t len;

	assert_int_equal(artifact_pack(dir, 1 << 20, &buf, &len, hex), 0);
	assert_true(artifact_hex_valid(hex));
	free(buf);
}

static int
setup(void **state)
{
	(void)state;
	snprintf(tmp, sizeof tmp, "/tmp/test_artifact.XXXXXX");
	assert_non_null(mkdtemp(tmp));
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	tree_remove(tmp);
	return 0;
}

static void
test_deterministic(void **state)
{
	char a[ARTIFACT_HEX], b[ARTIFACT_HEX], c[ARTIFACT_HEX];
	char x[PATH_MAX], y[PATH_MAX];

	(void)state;
	sh("cd %s && mkdir -p x/sub && printf 'int main;' > x/bot.c && "
	    "printf hi > x/sub/b && printf lo > x/a && ln -s bot.c x/link",
	    tmp);
	/* The same content, made in another order, at other times. */
	sh("cd %s && mkdir y && sleep 1 && ln -s bot.c y/link && printf lo > "
	    "y/a && mkdir y/sub && printf hi > y/sub/b && printf 'int main;' "
	    "> y/bot.c && touch -d 2001-01-01 y/a", tmp);
	snprintf(x, sizeof x, "%s/x", tmp);
	snprintf(y, sizeof y, "%s/y", tmp);
	pack(x, a);
	pack(y, b);
	assert_string_equal(a, b);
	/* One byte changed: another hash. */
	sh("printf 'int main ;' > %s/y/bot.c", tmp);
	pack(y, c);
	assert_string_not_equal(a, c);
	/* A file made executable: another hash. */
	sh("printf 'int main;' > %s/y/bot.c && chmod +x %s/y/a", tmp, tmp);
	pack(y, c);
	assert_string_not_equal(a, c);
}

static void
test_too_large(void **state)
{
	char path[PATH_MAX], hex[ARTIFACT_HEX], *buf = NULL;
	size_t len;

	(void)state;
	sh("mkdir %s/big && head -c 100000 /dev/zero > %s/big/f", tmp, tmp);
	snprintf(path, sizeof path, "%s/big", tmp);
	assert_int_equal(artifact_pack(path, 50000, &buf, &len, hex), -1);
	assert_null(buf);
	/* A FIFO is refused, not silently left out. */
	sh("mkfifo %s/big/fifo && rm %s/big/f", tmp, tmp);
	assert_int_equal(artifact_pack(path, 50000, &buf, &len, hex), -1);
}

static void
test_round_trip(void **state)
{
	char src[PATH_MAX], dst[PATH_MAX], link[64], hex[ARTIFACT_HEX];
	char again[ARTIFACT_HEX], *buf;
	struct stat st;
	size_t len;
	ssize_t n;

	(void)state;
	sh("cd %s && mkdir -p s/d && printf abc > s/d/f && ln -s d/f s/l && "
	    "ln -s /etc/passwd s/abs && chmod 4755 s/d/f", tmp);
	snprintf(src, sizeof src, "%s/s", tmp);
	snprintf(dst, sizeof dst, "%s/u", tmp);
	assert_int_equal(artifact_pack(src, 1 << 20, &buf, &len, hex), 0);
	assert_int_equal(artifact_unpack(buf, len, dst, getuid(), getgid()),
	    0);
	free(buf);
	sh("cmp %s/s/d/f %s/u/d/f", tmp, tmp);
	snprintf(src, sizeof src, "%s/u/l", tmp);
	assert_int_equal(lstat(src, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_true((n = readlink(src, link, sizeof link - 1)) > 0);
	link[n] = '\0';
	assert_string_equal(link, "d/f");
	snprintf(src, sizeof src, "%s/u/d/f", tmp);
	assert_int_equal(stat(src, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0755);	/* set-id dropped */
	/* What was unpacked packs to the same hash. */
	pack(dst, again);
	assert_string_equal(hex, again);
}

/* Unpacks the tar file at path into tmp/out; returns artifact_unpack's. */
static int
unpack_file(const char *path)
{
	char dst[PATH_MAX], *buf;
	FILE *f = fopen(path, "rb");
	long len;
	int rc;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	buf = malloc((size_t)len + 1);
	assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	snprintf(dst, sizeof dst, "%s/out", tmp);
	tree_remove(dst);
	rc = artifact_unpack(buf, (size_t)len, dst, getuid(), getgid());
	free(buf);
	return rc;
}

static void
test_hostile(void **state)
{
	char path[PATH_MAX];

	(void)state;
	/* An absolute path. */
	sh("cd %s && printf x > abs.txt && tar -cPf abs.tar %s/abs.txt", tmp,
	    tmp);
	snprintf(path, sizeof path, "%s/abs.tar", tmp);
	assert_int_equal(unpack_file(path), -1);
	/* A path climbing out with "..". */
	sh("cd %s && mkdir -p w && printf x > up.txt && cd w && "
	    "tar -cPf ../dotdot.tar ../up.txt", tmp);
	snprintf(path, sizeof path, "%s/dotdot.tar", tmp);
	assert_int_equal(unpack_file(path), -1);
	/* A device. */
	sh("cd %s && tar -cf dev.tar -C /dev null", tmp);
	snprintf(path, sizeof path, "%s/dev.tar", tmp);
	assert_int_equal(unpack_file(path), -1);
	/* A symlink to the outside, then a file written through it. */
	sh("cd %s && mkdir -p outside l1 l2/a && ln -s %s/outside l1/a && "
	    "printf evil > l2/a/f && tar -cf through.tar -C l1 a && "
	    "tar -rf through.tar -C l2 a/f", tmp, tmp);
	snprintf(path, sizeof path, "%s/through.tar", tmp);
	assert_int_equal(unpack_file(path), -1);
	snprintf(path, sizeof path, "%s/outside/f", tmp);
	assert_int_equal(access(path, F_OK), -1);
	/* Not a tar at all. */
	sh("cd %s && printf 'not a tar' > junk.tar", tmp);
	snprintf(path, sizeof path, "%s/junk.tar", tmp);
	assert_int_equal(unpack_file(path), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_deterministic, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_too_large, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_round_trip, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_hostile, setup, teardown),
	};

	log_init("test", false);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
