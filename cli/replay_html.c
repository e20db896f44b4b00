/*
 * replay_html: writes the viewer page. The frames go into a
 * <script type="application/json"> block read by JSON.parse, so nothing
 * in them is ever run; '<', '>' and '&' are written as \u escapes, which
 * keeps a "</script>" or "<!--" in a bot's answer from ending the block.
 * The page's script and style are constant text below: the page needs no
 * file, font or address besides itself.
 */
#include "cli/replay_html.h"

#include <stdlib.h>

#include "common/json.h"
#include "common/log.h"

static const char style[] =
"body{font:14px system-ui,sans-serif;background:#1d1f24;color:#e8e8e8;"
"margin:16px}\n"
"h1{font-size:18px;margin:0 0 8px}\n"
"#seats{display:flex;gap:16px;margin:8px 0}\n"
".seat{background:#2c2f36;padding:6px 10px;border-radius:4px}\n"
".seat b{color:#9ab}\n"
".pts{font-weight:bold;font-size:18px;margin-left:6px}\n"
"#status,#move{font-family:monospace;margin:4px 0}\n"
"#board{display:grid;gap:1px;background:#0c0d10;padding:1px;"
"width:max-content;margin:8px 0}\n"
".c{font:10px/1 monospace;display:flex;align-items:center;"
"justify-content:center;color:#000}\n"
"#text{background:#0c0d10;padding:8px;min-height:4em}\n"
"#controls{display:flex;gap:6px;align-items:center;flex-wrap:wrap}\n"
"button{background:#3a3f4a;color:#eee;border:0;border-radius:3px;"
"padding:4px 10px;font-size:14px;cursor:pointer}\n"
"#scrub{width:320px}\n";

/* The player. Keys as in the terminal: space, n or right arrow, p or
 * left arrow, + and -. */
static const char script[] =
"(function () {\n"
"\"use strict\";\n"
"var film = JSON.parse(document.getElementById(\"film\").textContent);\n"
"function $(id) { return document.getElementById(id); }\n"
"var pal = {}, n = film.frames.length, rows = 0, cols = 0, heads = [];\n"
"var bodies = [], cells = [], at = 0, timer = null, delay = film.delay;\n"
"(film.palette || \"\").split(\" \").forEach(function (p) {\n"
"  if (p.length > 2 && p.charAt(1) === \":\") pal[p.charAt(0)] = p.slice(2);\n"
"});\n"
"film.frames.forEach(function (f) {\n"
"  var l = f.replace(/\\n$/, \"\").split(\"\\n\");\n"
"  heads.push(l.shift());\n"
"  bodies.push(l);\n"
"  rows = Math.max(rows, l.length);\n"
"  l.forEach(function (r) { cols = Math.max(cols, r.length); });\n"
"});\n"
"function colour(c) {\n"
"  if (pal[c]) return pal[c];\n"
"  if (c === \" \") return \"#15161a\";\n"
"  if (c === \".\") return \"#d8d8d8\";\n"
"  return \"hsl(\" + (c.charCodeAt(0) * 47 % 360) + \",55%,60%)\";\n"
"}\n"
"function ink(bg) {\n"
"  var m = /^#(..)(..)(..)$/.exec(bg), l;\n"
"  if (!m) return \"rgba(0,0,0,.6)\";\n"
"  l = 299 * parseInt(m[1], 16) + 587 * parseInt(m[2], 16) +\n"
"    114 * parseInt(m[3], 16);\n"
"  return l > 128000 ? \"rgba(0,0,0,.6)\" : \"rgba(255,255,255,.75)\";\n"
"}\n"
"function build() {\n"
"  var b = $(\"board\"), px = cols <= 12 ? 32 : cols > 40 ? 14 : 18;\n"
"  if (!film.grid) {\n"
"    b.style.display = \"none\";\n"
"    $(\"text\").hidden = false;\n"
"    return;\n"
"  }\n"
"  b.style.gridTemplateColumns = \"repeat(\" + cols + \",\" + px + \"px)\";\n"
"  b.style.gridAutoRows = px + \"px\";\n"
"  for (var i = 0; i < rows * cols; i++) {\n"
"    var d = document.createElement(\"div\");\n"
"    d.className = \"c\";\n"
"    b.appendChild(d);\n"
"    cells.push(d);\n"
"  }\n"
"  b.setAttribute(\"data-cells\", cells.length);\n"
"}\n"
"function seats() {\n"
"  var s = $(\"seats\");\n"
"  film.names.forEach(function (name, i) {\n"
"    var d = document.createElement(\"div\"), k = document.createElement(\"b\");\n"
"    var p = document.createElement(\"span\");\n"
"    d.className = \"seat\";\n"
"    k.textContent = String.fromCharCode(65 + i) + \" \";\n"
"    p.className = \"pts\";\n"
"    p.id = \"pts\" + i;\n"
"    d.appendChild(k);\n"
"    d.appendChild(document.createTextNode(name));\n"
"    d.appendChild(p);\n"
"    s.appendChild(d);\n"
"  });\n"
"}\n"
"function draw() {\n"
"  var body = bodies[at], m = /scores((?: -?\\d+)+)/.exec(heads[at]);\n"
"  var sc = m ? m[1].trim().split(\" \") : [];\n"
"  $(\"status\").textContent = heads[at];\n"
"  $(\"move\").textContent = film.moves[at] === null ? \"start\" :\n"
"    \"after \" + film.moves[at];\n"
"  film.names.forEach(function (name, i) {\n"
"    $(\"pts\" + i).textContent = i < sc.length ? sc[i] : \"\";\n"
"  });\n"
"  if (film.grid) {\n"
"    for (var r = 0; r < rows; r++) {\n"
"      var line = body[r] || \"\";\n"
"      for (var c = 0; c < cols; c++) {\n"
"        var ch = line.charAt(c) || \" \", d = cells[r * cols + c];\n"
"        if (d.getAttribute(\"data-ch\") === ch) continue;\n"
"        d.setAttribute(\"data-ch\", ch);\n"
"        d.style.background = colour(ch);\n"
"        d.style.color = ink(colour(ch));\n"
"        d.textContent = ch === \" \" || ch === \".\" ? \"\" : ch;\n"
"      }\n"
"    }\n"
"  } else {\n"
"    $(\"text\").textContent = body.join(\"\\n\");\n"
"  }\n"
"  $(\"scrub\").value = at;\n"
"  $(\"pos\").textContent = (at + 1) + \" / \" + n;\n"
"  document.body.setAttribute(\"data-shown\", at);\n"
"}\n"
"function go(i) { at = Math.max(0, Math.min(n - 1, i)); draw(); }\n"
"function tick() {\n"
"  if (at >= n - 1) { stop(); return; }\n"
"  go(at + 1);\n"
"  timer = setTimeout(tick, delay);\n"
"}\n"
"function stop() {\n"
"  clearTimeout(timer);\n"
"  timer = null;\n"
"  $(\"play\").textContent = \"play\";\n"
"}\n"
"function play() {\n"
"  if (at >= n - 1) go(0);\n"
"  $(\"play\").textContent = \"pause\";\n"
"  timer = setTimeout(tick, delay);\n"
"}\n"
"function toggle() { if (timer) stop(); else play(); }\n"
"function speed(f) {\n"
"  delay = Math.max(10, Math.min(5000, Math.round(delay * f)));\n"
"  $(\"speed\").textContent = delay + \" ms\";\n"
"}\n"
"function step(d) { stop(); go(at + d); }\n"
"$(\"play\").onclick = toggle;\n"
"$(\"prev\").onclick = function () { step(-1); };\n"
"$(\"next\").onclick = function () { step(1); };\n"
"$(\"slower\").onclick = function () { speed(2); };\n"
"$(\"faster\").onclick = function () { speed(0.5); };\n"
"$(\"scrub\").max = n - 1;\n"
"$(\"scrub\").oninput = function () { stop(); go(+this.value); };\n"
"document.addEventListener(\"keydown\", function (e) {\n"
"  if (e.key === \" \") { toggle(); e.preventDefault(); }\n"
"  else if (e.key === \"n\" || e.key === \"ArrowRight\") step(1);\n"
"  else if (e.key === \"p\" || e.key === \"ArrowLeft\") step(-1);\n"
"  else if (e.key === \"+\") speed(0.5);\n"
"  else if (e.key === \"-\") speed(2);\n"
"});\n"
"$(\"title\").textContent = film.title;\n"
"build();\n"
"seats();\n"
"speed(1);\n"
"if (location.hash === \"#last\") go(n - 1);\n"
"else { go(0); play(); }\n"
"})();\n";

static const char body[] =
"<h1 id=\"title\"></h1>\n"
"<div id=\"seats\"></div>\n"
"<div id=\"status\"></div>\n"
"<div id=\"board\"></div>\n"
"<pre id=\"text\" hidden></pre>\n"
"<div id=\"move\"></div>\n"
"<div id=\"controls\">\n"
"<button id=\"play\">play</button>\n"
"<button id=\"prev\" title=\"step back (p)\">&#9664;</button>\n"
"<button id=\"next\" title=\"step (n)\">&#9654;</button>\n"
"<button id=\"slower\" title=\"slower (-)\">&minus;</button>\n"
"<span id=\"speed\"></span>\n"
"<button id=\"faster\" title=\"faster (+)\">+</button>\n"
"<input id=\"scrub\" type=\"range\" min=\"0\" value=\"0\">\n"
"<span id=\"pos\"></span>\n"
"</div>\n";

/* A JSON string that may sit inside <script>: json_write_string()'s
 * output with the three HTML-special characters as \u escapes (outside
 * strings JSON has none of them). */
static void
put_string(FILE *out, const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (m == NULL)
		fatal("open_memstream");
	json_write_string(m, s);
	if (fclose(m) != 0)
		fatal("open_memstream");
	for (size_t i = 0; i < len; i++) {
		if (buf[i] == '<' || buf[i] == '>' || buf[i] == '&')
			fprintf(out, "\\u%04x", (unsigned char)buf[i]);
		else
			fputc(buf[i], out);
	}
	free(buf);
}

static void
put_list(FILE *out, const char *key, const char *const *v, size_t n)
{
	fprintf(out, ",\n\"%s\":[", key);
	for (size_t i = 0; i < n; i++) {
		if (i > 0)
			fputs(",\n", out);
		if (v[i] == NULL)
			fputs("null", out);
		else
			put_string(out, v[i]);
	}
	fputc(']', out);
}

static void
put_film(FILE *out, const struct replay_html *h)
{
	fputs("{\"title\":", out);
	put_string(out, h->title);
	fputs(",\n\"palette\":", out);
	put_string(out, h->palette ? h->palette : "");
	fprintf(out, ",\n\"grid\":%s,\n\"delay\":%d", h->grid ? "true" :
	    "false", h->delay_ms);
	put_list(out, "names", h->names, h->nseats);
	put_list(out, "frames", h->frames, h->nframes);
	put_list(out, "moves", h->moves, h->nframes);
	fputs("}\n", out);
}

static void
put_html_text(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", out);
		else if (*s == '>')
			fputs("&gt;", out);
		else if (*s == '&')
			fputs("&amp;", out);
		else
			fputc(*s, out);
	}
}

int
replay_html_write(FILE *out, const char *path, const struct replay_html *h)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	    "<meta charset=\"utf-8\">\n<title>", out);
	put_html_text(out, h->title);
	fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n%s",
	    style, body);
	fputs("<script type=\"application/json\" id=\"film\">\n", out);
	put_film(out, h);
	fprintf(out, "</script>\n<script>\n%s</script>\n</body>\n</html>\n",
	    script);
	if (fflush(out) != 0 || ferror(out))
		return log_error("cannot write '%s'", path);
	return 0;
}
