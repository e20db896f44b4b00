/*
 * json: writes JSON strings. A spec's names and a database's cells can
 * hold any byte but NUL; escaping every control character (DEL too, which
 * JSON allows raw but a terminal hides) keeps the output one line a
 * record and readable, and UTF-8 goes through as it is.
 */
#include "common/json.h"

void
json_write_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", out);
		else if (*p == '\t')
			fputs("\\t", out);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(out, "\\u%04x", *p);
		else
			fputc(*p, out);
	}
	fputc('"', out);
}
