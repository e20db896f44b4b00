/*
 * wire_keys: the CURVE half of the wire module that touches no socket:
 * making key pairs, the key files (format in wire.h) and the allow list a
 * CURVE server checks each handshake against. Keys are checked as they
 * are read (Z85 that decodes, a public half that matches the secret), so
 * a typo is an error naming the file and line, not a silent refusal of
 * every worker later.
 */
#include "common/wire.h"

#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zmq.h>

#include "common/log.h"

struct wire_allowed {
	char name[WIRE_NAME_MAX];
	unsigned char key[32];
};

struct wire_allow {
	struct wire_allowed *v;
	size_t n;
};

int
wire_keys_generate(struct wire_keys *k)
{
	if (!zmq_has("curve"))
		return log_error("this libzmq was built without CURVE");
	if (zmq_curve_keypair(k->public_key, k->secret_key) == -1)
		return log_error("cannot make a key pair: %s",
		    zmq_strerror(zmq_errno()));
	return 0;
}

/* Creates path with mode and text; never replaces a file. */
static int
write_new(const char *path, mode_t mode, const char *text)
{
	size_t len = strlen(text);
	int fd;

	if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
	    mode)) == -1)
		return log_errno("cannot create '%s'", path);
	if (fchmod(fd, mode) == -1 || write(fd, text, len) != (ssize_t)len ||
	    fsync(fd) == -1) {
		log_errno("cannot write '%s'", path);
		close(fd);
		unlink(path);
		return -1;
	}
	return close(fd);
}

int
wire_keys_write(const char *name, const struct wire_keys *k)
{
	const char *base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
	char *key = xasprintf("%s.key", name), *pub = xasprintf("%s.pub", name);
	char *text;
	int rc;

	text = xasprintf("# arena CURVE key pair '%s'. Keep it secret (mode "
	    "0600);\n# give '%s.pub' to the other side. Keys are Z85 "
	    "(ZeroMQ RFC 32).\npublic %s\nsecret %s\n", base, base,
	    k->public_key, k->secret_key);
	rc = write_new(key, 0600, text);
	free(text);
	if (rc == 0) {
		text = xasprintf("# arena CURVE public key '%s'.\npublic %s\n",
		    base, k->public_key);
		if ((rc = write_new(pub, 0644, text)) == -1)
			unlink(key);
		free(text);
	}
	free(key);
	free(pub);
	return rc;
}

/* A Z85 key of 40 characters that decodes; its 32 bytes in bin. */
static bool
z85_key(const char *s, unsigned char bin[32])
{
	return strlen(s) == WIRE_KEY_TEXT - 1 &&
	    zmq_z85_decode(bin, s) != NULL;
}

/* One "WORD KEY" line into k; -1 says what is wrong with it. */
static int
parse_line(const char *path, int lineno, char *line, struct wire_keys *k)
{
	char *word = strtok(line, " \t\r\n"), *key = strtok(NULL, " \t\r\n");
	unsigned char bin[32];
	char *slot;

	if (word == NULL || word[0] == '#')
		return 0;
	if (strcmp(word, "public") == 0)
		slot = k->public_key;
	else if (strcmp(word, "secret") == 0)
		slot = k->secret_key;
	else
		return log_error("%s:%d: unknown line '%s' (expected 'public "
		    "KEY' or 'secret KEY')", path, lineno, word);
	if (key == NULL || strtok(NULL, " \t\r\n") != NULL ||
	    !z85_key(key, bin))
		return log_error("%s:%d: the %s key is not 40 characters of "
		    "Z85", path, lineno, word);
	if (slot[0])
		return log_error("%s:%d: a second %s key", path, lineno, word);
	memcpy(slot, key, WIRE_KEY_TEXT);
	return 0;
}

/* The public half must be the secret half's, or nothing would connect. */
static int
check_pair(const char *path, const struct wire_keys *k)
{
	char derived[WIRE_KEY_TEXT];

	if (zmq_curve_public(derived, k->secret_key) == -1)
		return log_error("cannot check the key pair in '%s': %s", path,
		    zmq_strerror(zmq_errno()));
	if (strcmp(derived, k->public_key) != 0)
		return log_error("'%s': the public key is not the secret "
		    "key's", path);
	return 0;
}

int
wire_keys_read(const char *path, bool need_secret, struct wire_keys *k)
{
	char line[256];
	struct stat st;
	int lineno = 0, rc = -1;
	FILE *f;

	memset(k, 0, sizeof *k);
	if ((f = fopen(path, "re")) == NULL)
		return log_errno("cannot open '%s'", path);
	while (fgets(line, sizeof line, f))
		if (parse_line(path, ++lineno, line, k) == -1)
			goto out;
	if (k->public_key[0] == '\0')
		log_error("'%s' holds no public key", path);
	else if (need_secret && k->secret_key[0] == '\0')
		log_error("'%s' holds no secret key (give the .key file made "
		    "by 'arena keygen', not the .pub)", path);
	else if (k->secret_key[0] && check_pair(path, k) == -1)
		;
	else
		rc = 0;
	if (rc == 0 && k->secret_key[0] && fstat(fileno(f), &st) == 0 &&
	    (st.st_mode & 077))
		log_warn("'%s' holds a secret key and others can read it; "
		    "chmod 600 it", path);
out:
	fclose(f);
	if (rc == -1)
		memset(k, 0, sizeof *k);
	return rc;
}

/* --- the allow list --- */

int
wire_allow_add(struct wire_allow *a, const char *name, const char *public_key)
{
	struct wire_allowed *e;
	unsigned char bin[32];

	if (!z85_key(public_key, bin))
		return log_error("'%s' is not a Z85 public key", public_key);
	a->v = xrealloc(a->v, (a->n + 1) * sizeof *a->v);
	e = &a->v[a->n++];
	snprintf(e->name, sizeof e->name, "%s", name);
	memcpy(e->key, bin, sizeof bin);
	return 0;
}

/* Adds the key in file path, known by its name without ".pub". */
static int
add_file(struct wire_allow *a, const char *path)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	size_t len = strlen(base);
	struct wire_keys k;
	char name[WIRE_NAME_MAX];

	if (len > 4 && strcmp(base + len - 4, ".pub") == 0)
		len -= 4;
	snprintf(name, sizeof name, "%.*s", (int)len, base);
	if (wire_keys_read(path, false, &k) == -1)
		return -1;
	return wire_allow_add(a, name, k.public_key);
}

static int
add_folder(struct wire_allow *a, const char *path, DIR *d)
{
	struct dirent *e;
	char *file;
	size_t len;
	int rc = 0;

	while (rc == 0 && (e = readdir(d)) != NULL) {
		len = strlen(e->d_name);
		if (e->d_name[0] == '.' || len <= 4 ||
		    strcmp(e->d_name + len - 4, ".pub") != 0)
			continue;
		file = xasprintf("%s/%s", path, e->d_name);
		rc = add_file(a, file);
		free(file);
	}
	return rc;
}

struct wire_allow *
wire_allow_load(const char *path)
{
	struct wire_allow *a = xcalloc(1, sizeof *a);
	DIR *d;
	int rc;

	if ((d = opendir(path)) != NULL) {
		rc = add_folder(a, path, d);
		closedir(d);
	} else if (errno == ENOTDIR)
		rc = add_file(a, path);
	else
		rc = log_errno("cannot open '%s'", path);
	if (rc == 0 && a->n == 0)
		rc = log_error("no worker keys (NAME.pub files) in '%s'", path);
	if (rc == -1) {
		wire_allow_free(a);
		return NULL;
	}
	return a;
}

size_t
wire_allow_count(const struct wire_allow *a)
{
	return a->n;
}

int
wire_allow_find(const struct wire_allow *a, const void *key,
    const char **name)
{
	for (size_t i = 0; i < a->n; i++)
		if (memcmp(a->v[i].key, key, sizeof a->v[i].key) == 0) {
			*name = a->v[i].name;
			return 0;
		}
	return -1;
}

struct wire_allow *
wire_allow_copy(const struct wire_allow *a)
{
	struct wire_allow *c = xcalloc(1, sizeof *c);

	c->n = a->n;
	c->v = xmalloc((a->n ? a->n : 1) * sizeof *c->v);
	memcpy(c->v, a->v, a->n * sizeof *c->v);
	return c;
}

void
wire_allow_free(struct wire_allow *a)
{
	if (a == NULL)
		return;
	free(a->v);
	free(a);
}
