/* lhapdf_reader.c -- reading one member of an LHAPDF6 set: finding the set on a search path,
 * its NAME.info metadata and its NAME_MMMM.dat grid in the "lhagrid1" format.
 *
 * A member file is
 *     <metadata: "Key: value" lines>          (may override the .info, as in LHAPDF)
 *     ---
 *     x knots                                 one line, nx numbers, strictly increasing
 *     Q knots (GeV)                           one line, nq numbers, strictly increasing
 *     flavour ids                             one line, the .info's Flavors in their order
 *     nx * nq lines of one value per flavour  x f(x, Q), x knot outer, Q knot inner
 *     ---
 *     ... more subgrids like the one above, each ended by "---"; a subgrid starts at the
 *     ... last Q knot of the one before (the knot is repeated) and has the same x knots
 * Lines starting with '#' and blank lines are skipped.  The parser is written by hand and is
 * strict: every token is checked against the decimal grammar before strtod converts it (in the
 * C locale, set for this thread only), every count is checked, a file that ends early is
 * reported as truncated.  Files are read whole under a size cap and the grid is capped, so a
 * corrupt or hostile file costs bounded memory and never crashes the reader.
 */
#define _POSIX_C_SOURCE 200809L
#include "gaps/pdf.h"
#include "io/input_file.h"
#include "pdf_grid.h"

#include <dirent.h>
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_DAT_BYTES ((size_t)128 << 20)
#define MAX_INFO_BYTES ((size_t)1 << 20)
#define MAX_GRID_VALUES ((size_t)1 << 22)
#define MAX_KNOTS (1 << 16)   /* per knot line (CT14lo: 240 x knots) */
#define MAX_DIR GAPS_PDF_DIR_MAX   /* a directory of the search path */
/* a file in it: DIR/NAME/NAME_MMMM.dat always fits */
#define MAX_PATH GAPS_PDF_FILE_MAX
#define MAX_MEMBER 9999

void gaps_pdf_error(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || errlen == 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    for (char *c = err; *c; ++c)
        if ((unsigned char)*c < 0x20 || *c == 0x7f) *c = '?';
}

/* ------------------------------------------------------------------------------------------
 * Files as lines
 * ------------------------------------------------------------------------------------------ */

/* A file read whole (NUL-terminated), handed out line by line, each line cut in place. */
typedef struct text {
    const char *path;
    char *buf;
    size_t len, pos;
    long line;   /* number of the line last handed out, from 1 */
} text;

static int read_text(const char *path, size_t max_bytes, text *t, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    t->path = path;
    /* a regular file only: a FIFO would block the open (or the read) for ever, a device
     * never ends (io/input_file.h) */
    const char *not_regular;
    FILE *f = gaps_open_input(path, &not_regular);
    if (!f) {
        if (not_regular)
            gaps_pdf_error(err, errlen, "%s: not a regular file (%s): refused", path,
                           not_regular);
        else
            gaps_pdf_error(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    size_t cap = 1 << 16;
    char *buf = malloc(cap + 1);
    size_t len = 0;
    int failed = buf == NULL;
    while (!failed) {
        if (len == cap) {
            if (cap >= max_bytes) break;
            cap = cap * 2 > max_bytes ? max_bytes : cap * 2;
            char *bigger = realloc(buf, cap + 1);
            if (!bigger) { failed = 1; break; }
            buf = bigger;
        }
        const size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0) break;
    }
    const int read_error = ferror(f);
    const int more = !failed && !read_error && len == max_bytes && fgetc(f) != EOF;
    const int saved = errno;
    fclose(f);
    if (failed) gaps_pdf_error(err, errlen, "%s: out of memory reading the file", path);
    else if (read_error) gaps_pdf_error(err, errlen, "%s: read error: %s", path, strerror(saved));
    else if (more) gaps_pdf_error(err, errlen, "%s: larger than %zu MiB, refused", path,
                                  max_bytes >> 20);
    else if (memchr(buf, '\0', len))
        gaps_pdf_error(err, errlen, "%s: contains a NUL byte (not a text file)", path);
    else {
        buf[len] = '\0';
        t->buf = buf;
        t->len = len;
        return 0;
    }
    free(buf);
    return -1;
}

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

/* The next line, without surrounding white space, or NULL at the end of the file. */
static char *next_line(text *t)
{
    if (t->pos >= t->len) return NULL;
    char *s = t->buf + t->pos;
    char *nl = memchr(s, '\n', t->len - t->pos);
    char *end = nl ? nl : t->buf + t->len;
    *end = '\0';
    t->pos = (size_t)(end - t->buf) + 1;
    ++t->line;
    while (end > s && is_space(end[-1])) *--end = '\0';
    while (is_space(*s)) ++s;
    return s;
}

/* The next line that is neither blank nor a comment, or NULL at the end. */
static char *next_data_line(text *t)
{
    char *s;
    while ((s = next_line(t)) && (*s == '\0' || *s == '#')) {}
    return s;
}

static int is_separator(const char *line) { return strcmp(line, "---") == 0; }

/* ------------------------------------------------------------------------------------------
 * Numbers
 * ------------------------------------------------------------------------------------------ */

/* The token at *p (ended by white space, ',' or ']' or the end): its start and length; *p
 * moves past it. */
static size_t next_token(const char **p, const char **start)
{
    const char *s = *p;
    while (is_space(*s)) ++s;
    *start = s;
    while (*s && !is_space(*s) && *s != ',' && *s != ']') ++s;
    *p = s;
    return (size_t)(s - *start);
}

/* Decimal grammar: [+-] digits [. digits] | [+-] . digits, then [eE [+-] digits].  strtod
 * alone would also take hexadecimal, "inf", "nan" and "1e" (as 1). */
static int is_decimal(const char *s, size_t n)
{
    size_t i = 0, digits = 0;
    if (i < n && (s[i] == '+' || s[i] == '-')) ++i;
    while (i < n && s[i] >= '0' && s[i] <= '9') ++i, ++digits;
    if (i < n && s[i] == '.') {
        ++i;
        while (i < n && s[i] >= '0' && s[i] <= '9') ++i, ++digits;
    }
    if (digits == 0) return 0;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        if (i < n && (s[i] == '+' || s[i] == '-')) ++i;
        const size_t e0 = i;
        while (i < n && s[i] >= '0' && s[i] <= '9') ++i;
        if (i == e0) return 0;
    }
    return i == n;
}

static int starts_with_nocase(const char *s, size_t n, const char *word)
{
    size_t i = 0;
    for (; word[i]; ++i) {
        if (i >= n) return 0;
        char c = s[i];
        if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
        if (c != word[i]) return 0;
    }
    return 1;
}

/* A finite double from token s[0..n), or -1 with why ("is not a number", ...). */
static int token_double(const char *s, size_t n, double *out, const char **why)
{
    if (!is_decimal(s, n)) {
        const char *u = s + (n > 0 && (*s == '+' || *s == '-'));
        const size_t un = n - (size_t)(u - s);
        *why = starts_with_nocase(u, un, "nan") || starts_with_nocase(u, un, "inf")
                   ? "is not finite" : "is not a number";
        return -1;
    }
    char *end;
    const double v = strtod(s, &end);
    if (end != s + n) { *why = "is not a number"; return -1; }
    if (!isfinite(v)) { *why = "is out of range (not finite as a double)"; return -1; }
    *out = v;
    return 0;
}

/* An int from token s[0..n): [+-] digits, within [lo, hi]. */
static int token_int(const char *s, size_t n, long lo, long hi, long *out)
{
    size_t i = (n > 0 && (*s == '+' || *s == '-')) ? 1 : 0;
    if (i == n || n > 18) return -1;
    for (size_t j = i; j < n; ++j)
        if (s[j] < '0' || s[j] > '9') return -1;
    const long v = strtol(s, NULL, 10);
    if (v < lo || v > hi) return -1;
    *out = v;
    return 0;
}

/* Shows at most 40 characters of a token in a message. */
static int shown(size_t n) { return n > 40 ? 40 : (int)n; }

/* ------------------------------------------------------------------------------------------
 * Metadata: the .info file and the member file's header
 * ------------------------------------------------------------------------------------------ */

/* What gaps uses of a set's metadata; the member's header overrides the .info. */
typedef struct pdf_meta {
    char format[32];
    const char *format_file;   /* where Format was given, NULL if nowhere */
    int nfl;                   /* 0 until a Flavors list is read */
    int pid[GAPS_PDF_MAX_FLAVOURS];
    int force_positive;
    int num_members, order_qcd;
    long set_index;
    double mz, alphas_mz, m_charm, m_bottom, m_top;
    char error_type[GAPS_PDF_ERROR_TYPE_MAX];
    double error_conf_level;
} pdf_meta;

static void meta_defaults(pdf_meta *m)
{
    memset(m, 0, sizeof *m);
    m->num_members = -1;
    m->order_qcd = -1;
    m->set_index = -1;
    m->mz = m->alphas_mz = m->m_charm = m->m_bottom = m->m_top = NAN;
    m->error_conf_level = NAN;
}

/* A scalar value: up to a " #" comment, without surrounding quotes. */
static void scalar_value(char *v)
{
    for (char *c = v; *c; ++c)
        if (*c == '#' && (c == v || is_space(c[-1]))) { *c = '\0'; break; }
    size_t n = strlen(v);
    while (n > 0 && is_space(v[n - 1])) v[--n] = '\0';
    if (n >= 2 && (v[0] == '\'' || v[0] == '"') && v[n - 1] == v[0]) {
        memmove(v, v + 1, n - 2);
        v[n - 2] = '\0';
    }
}

/* PDG ids a and b name the same parton (0 is an alias of the gluon, 21, as in LHAPDF). */
static int same_parton(long a, long b)
{
    return (a == 0 ? 21 : a) == (b == 0 ? 21 : b);
}

/* Flavors: [id, id, ...]: distinct PDG ids (0 and 21 both name the gluon). */
static int parse_flavours(const char *v, pdf_meta *m, const text *t, char *err, size_t errlen)
{
    const char *p = v;
    while (is_space(*p)) ++p;
    if (*p != '[') {
        gaps_pdf_error(err, errlen, "%s:%ld: Flavors is not a [list]", t->path, t->line);
        return -1;
    }
    ++p;
    int n = 0;
    for (;;) {
        const char *tok;
        const size_t len = next_token(&p, &tok);
        while (is_space(*p)) ++p;
        if (len == 0 && *p == ']' && n == 0) break;   /* [] */
        long id;
        if (len == 0 || token_int(tok, len, -999999999L, 999999999L, &id) != 0) {
            gaps_pdf_error(err, errlen, "%s:%ld: Flavors: '%.*s' is not a PDG id", t->path,
                           t->line, shown(len), tok);
            return -1;
        }
        if (n == GAPS_PDF_MAX_FLAVOURS) {
            gaps_pdf_error(err, errlen, "%s:%ld: Flavors: more than %d flavours", t->path,
                           t->line, GAPS_PDF_MAX_FLAVOURS);
            return -1;
        }
        for (int k = 0; k < n; ++k)
            if (same_parton(m->pid[k], id)) {
                gaps_pdf_error(err, errlen, "%s:%ld: Flavors: %ld is listed twice", t->path,
                               t->line, id);
                return -1;
            }
        m->pid[n++] = (int)id;
        if (*p == ',') { ++p; continue; }
        if (*p == ']') break;
        gaps_pdf_error(err, errlen, "%s:%ld: Flavors: expected ',' or ']' after '%.*s'",
                       t->path, t->line, shown(len), tok);
        return -1;
    }
    ++p;
    while (is_space(*p)) ++p;
    if (*p != '\0' && *p != '#') {
        gaps_pdf_error(err, errlen, "%s:%ld: Flavors: text after the list", t->path, t->line);
        return -1;
    }
    if (n == 0) {
        gaps_pdf_error(err, errlen, "%s:%ld: Flavors is empty", t->path, t->line);
        return -1;
    }
    m->nfl = n;
    return 0;
}

static int meta_int(const char *key, const char *v, long lo, long hi, long *out, const text *t,
                    char *err, size_t errlen)
{
    if (token_int(v, strlen(v), lo, hi, out) != 0) {
        gaps_pdf_error(err, errlen, "%s:%ld: %s: '%.*s' is not an integer in [%ld, %ld]",
                       t->path, t->line, key, shown(strlen(v)), v, lo, hi);
        return -1;
    }
    return 0;
}

static int meta_real(const char *key, const char *v, double *out, const text *t, char *err,
                     size_t errlen)
{
    const char *why;
    if (token_double(v, strlen(v), out, &why) != 0 || *out < 0.0) {
        gaps_pdf_error(err, errlen, "%s:%ld: %s: '%.*s' is not a non-negative number", t->path,
                       t->line, key, shown(strlen(v)), v);
        return -1;
    }
    return 0;
}

/* One "Key: value" line.  Keys that gaps does not use are skipped unread. */
static int meta_entry(pdf_meta *m, const char *key, char *v, const text *t, char *err,
                      size_t errlen)
{
    long i;
    if (strcmp(key, "Flavors") == 0) return parse_flavours(v, m, t, err, errlen);
    scalar_value(v);
    if (strcmp(key, "Format") == 0) {
        snprintf(m->format, sizeof m->format, "%s", v);
        m->format_file = t->path;
    } else if (strcmp(key, "ForcePositive") == 0) {
        if (meta_int(key, v, 0, 2, &i, t, err, errlen) != 0) return -1;
        m->force_positive = (int)i;
    } else if (strcmp(key, "NumMembers") == 0) {
        if (meta_int(key, v, 1, MAX_MEMBER + 1, &i, t, err, errlen) != 0) return -1;
        m->num_members = (int)i;
    } else if (strcmp(key, "SetIndex") == 0) {
        if (meta_int(key, v, 0, 999999999L, &i, t, err, errlen) != 0) return -1;
        m->set_index = i;
    } else if (strcmp(key, "ErrorType") == 0) {
        if (strlen(v) >= sizeof m->error_type) {
            gaps_pdf_error(err, errlen, "%s:%ld: ErrorType: '%.*s' is longer than %d characters",
                           t->path, t->line, shown(strlen(v)), v,
                           (int)sizeof m->error_type - 1);
            return -1;
        }
        snprintf(m->error_type, sizeof m->error_type, "%s", v);
    } else if (strcmp(key, "ErrorConfLevel") == 0) {
        if (meta_real(key, v, &m->error_conf_level, t, err, errlen) != 0) return -1;
        if (!(m->error_conf_level > 0.0 && m->error_conf_level < 100.0)) {
            gaps_pdf_error(err, errlen, "%s:%ld: ErrorConfLevel: %g is not a percentage in "
                           "(0, 100)", t->path, t->line, m->error_conf_level);
            return -1;
        }
    } else if (strcmp(key, "OrderQCD") == 0) {
        if (meta_int(key, v, 0, 99, &i, t, err, errlen) != 0) return -1;
        m->order_qcd = (int)i;
    } else if (strcmp(key, "MZ") == 0) return meta_real(key, v, &m->mz, t, err, errlen);
    else if (strcmp(key, "AlphaS_MZ") == 0) return meta_real(key, v, &m->alphas_mz, t, err, errlen);
    else if (strcmp(key, "MCharm") == 0) return meta_real(key, v, &m->m_charm, t, err, errlen);
    else if (strcmp(key, "MBottom") == 0) return meta_real(key, v, &m->m_bottom, t, err, errlen);
    else if (strcmp(key, "MTop") == 0) return meta_real(key, v, &m->m_top, t, err, errlen);
    return 0;
}

/* The key of a "Key: value" line (letters, digits, '_', starting with a letter or '_'), cut
 * at the ':'; NULL for any other line (YAML continuation lines, list items). */
static char *split_key(char *line, char **value)
{
    char *c = line;
    if (!((*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z') || *c == '_')) return NULL;
    while ((*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9')
           || *c == '_')
        ++c;
    if (*c != ':') return NULL;
    *c = '\0';
    *value = c + 1;
    while (is_space(**value)) ++*value;
    return line;
}

/* Metadata lines up to the end of the file, or (in a member file, stop_at_separator) up to
 * and including the first "---".  A Flavors list may continue over several lines. */
static int read_metadata(text *t, pdf_meta *m, int stop_at_separator, char *err, size_t errlen)
{
    char *line;
    while ((line = next_line(t))) {
        if (stop_at_separator && is_separator(line)) return 0;
        char *value, *key = split_key(line, &value);
        if (!key) continue;
        if (strcmp(key, "Flavors") == 0 && !strchr(value, ']')) {
            /* a flow list over several lines: join them (bounded) */
            char joined[4096];
            const long first = t->line;
            size_t n = (size_t)snprintf(joined, sizeof joined, "%s", value);
            char *more;
            while (n < sizeof joined - 1 && !strchr(joined, ']') && (more = next_line(t))
                   && !(stop_at_separator && is_separator(more)))
                n += (size_t)snprintf(joined + n, sizeof joined - n, " %s", more);
            if (!strchr(joined, ']')) {
                gaps_pdf_error(err, errlen, "%s:%ld: Flavors: the list is not closed by ']'",
                               t->path, first);
                return -1;
            }
            if (meta_entry(m, key, joined, t, err, errlen) != 0) return -1;
            continue;
        }
        if (meta_entry(m, key, value, t, err, errlen) != 0) return -1;
    }
    if (stop_at_separator) {
        gaps_pdf_error(err, errlen, "%s: no '---' line after the header: not an LHAPDF6 grid "
                       "(lhagrid1) file, or truncated", t->path);
        return -1;
    }
    return 0;
}

static int check_format(const pdf_meta *m, const char *info_path, char *err, size_t errlen)
{
    if (!m->format_file) {
        gaps_pdf_error(err, errlen, "%s: no Format entry (gaps reads lhagrid1 sets)", info_path);
        return -1;
    }
    if (strcmp(m->format, "lhagrid1") != 0) {
        gaps_pdf_error(err, errlen, "%s: Format is '%s', not lhagrid1 (the only format gaps "
                       "reads)", m->format_file, m->format);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------------------------------
 * The grid blocks of a member file
 * ------------------------------------------------------------------------------------------ */

/* The numbers of one knot line: strictly increasing, in (0, upper], at least 2 and at most
 * MAX_KNOTS of them; *out is allocated. */
static int knot_line(text *t, const char *line, const char *what, double upper, double **out,
                     int *count, char *err, size_t errlen)
{
    const char *p = line, *tok;
    size_t len;
    int n = 0;
    while (n <= MAX_KNOTS && next_token(&p, &tok) > 0) ++n;
    if (n > MAX_KNOTS) {
        gaps_pdf_error(err, errlen, "%s:%ld: more than %d %s, refused", t->path, t->line,
                       MAX_KNOTS, what);
        return -1;
    }
    if (*p != '\0') {
        gaps_pdf_error(err, errlen, "%s:%ld: unexpected '%c' in the %s line", t->path, t->line,
                       *p, what);
        return -1;
    }
    if (n < 2) {
        gaps_pdf_error(err, errlen, "%s:%ld: %d %s given, at least 2 needed", t->path, t->line,
                       n, what);
        return -1;
    }
    double *v = malloc((size_t)n * sizeof *v);
    if (!v) {
        gaps_pdf_error(err, errlen, "%s:%ld: out of memory", t->path, t->line);
        return -1;
    }
    p = line;
    for (int i = 0; i < n; ++i) {
        len = next_token(&p, &tok);
        const char *why;
        if (token_double(tok, len, &v[i], &why) != 0) {
            gaps_pdf_error(err, errlen, "%s:%ld: %s, number %d: '%.*s' %s", t->path, t->line,
                           what, i + 1, shown(len), tok, why);
            free(v);
            return -1;
        }
        if (!(v[i] > 0.0 && v[i] <= upper)) {
            gaps_pdf_error(err, errlen, "%s:%ld: %s, number %d: %.17g is not in (0, %g]",
                           t->path, t->line, what, i + 1, v[i], upper);
            free(v);
            return -1;
        }
        if (i > 0 && !(v[i] > v[i - 1])) {
            gaps_pdf_error(err, errlen, "%s:%ld: %s not increasing: %.17g then %.17g",
                           t->path, t->line, what, v[i - 1], v[i]);
            free(v);
            return -1;
        }
    }
    *out = v;
    *count = n;
    return 0;
}

/* The flavour line of a block: the set's Flavors, in their order. */
static int flavour_line(text *t, const char *line, const pdf_meta *m, char *err, size_t errlen)
{
    const char *p = line, *tok;
    size_t len;
    int n = 0;
    while ((len = next_token(&p, &tok)) > 0 || *p != '\0') {
        long id;
        if (len == 0 || token_int(tok, len, -999999999L, 999999999L, &id) != 0) {
            gaps_pdf_error(err, errlen, "%s:%ld: flavour line: '%.*s' is not a PDG id", t->path,
                           t->line, shown(len ? len : 1), len ? tok : p);
            return -1;
        }
        if (n < m->nfl && !same_parton(id, m->pid[n])) {
            gaps_pdf_error(err, errlen, "%s:%ld: flavour %d is %ld here but %d in the set's "
                           "Flavors list", t->path, t->line, n + 1, id, m->pid[n]);
            return -1;
        }
        ++n;
    }
    if (n != m->nfl) {
        gaps_pdf_error(err, errlen, "%s:%ld: %d flavour ids, but the set's Flavors list has %d",
                       t->path, t->line, n, m->nfl);
        return -1;
    }
    return 0;
}

/* One line of values, one per flavour, into out[0..nfl). */
static int value_line(text *t, const char *line, int nfl, double *out, char *err, size_t errlen)
{
    const char *p = line, *tok;
    size_t len;
    int n = 0;
    while ((len = next_token(&p, &tok)) > 0 || *p != '\0') {
        const char *why;
        double v;
        if (len == 0) {
            gaps_pdf_error(err, errlen, "%s:%ld: unexpected '%c' among the values", t->path,
                           t->line, *p);
            return -1;
        }
        if (token_double(tok, len, &v, &why) != 0) {
            gaps_pdf_error(err, errlen, "%s:%ld: value %d: '%.*s' %s", t->path, t->line, n + 1,
                           shown(len), tok, why);
            return -1;
        }
        if (n < nfl) out[n] = v;
        ++n;
    }
    if (n != nfl) {
        gaps_pdf_error(err, errlen, "%s:%ld: %d values, expected %d (one per flavour)",
                       t->path, t->line, n, nfl);
        return -1;
    }
    return 0;
}

static void grid_free(gaps_pdf_grid *g)
{
    free(g->x);
    free(g->q);
    free(g->xf);
    memset(g, 0, sizeof *g);
}

/* One subgrid block, after the "---" that opens it; `line` is its first (x knot) line.  The
 * block's Q knots and values are appended to g. */
static int read_block(text *t, char *line, const pdf_meta *m, gaps_pdf_grid *g, char *err,
                      size_t errlen)
{
    const int s = g->nsub;
    if (s == GAPS_PDF_MAX_SUBGRIDS) {
        gaps_pdf_error(err, errlen, "%s:%ld: more than %d subgrids", t->path, t->line,
                       GAPS_PDF_MAX_SUBGRIDS);
        return -1;
    }
    double *xs = NULL, *qs = NULL;
    int nx, nq;
    if (knot_line(t, line, "x knots", 1.0, &xs, &nx, err, errlen) != 0) return -1;
    if (s > 0 && (nx != g->nx || memcmp(xs, g->x, (size_t)nx * sizeof *xs) != 0)) {
        gaps_pdf_error(err, errlen, "%s:%ld: subgrid %d has other x knots than subgrid 1 (gaps "
                       "needs the same x knots in every subgrid)", t->path, t->line, s + 1);
        goto fail;
    }
    if (!(line = next_data_line(t))) goto truncated;
    if (knot_line(t, line, "Q knots", 1e150, &qs, &nq, err, errlen) != 0) goto fail;
    if (s > 0 && qs[0] != g->q[g->nq - 1]) {
        gaps_pdf_error(err, errlen, "%s:%ld: subgrid %d starts at Q = %.17g, not at the last Q "
                       "knot of subgrid %d (%.17g)", t->path, t->line, s + 1, qs[0], s,
                       g->q[g->nq - 1]);
        goto fail;
    }
    if (!(line = next_data_line(t))) goto truncated;
    if (flavour_line(t, line, m, err, errlen) != 0) goto fail;

    const size_t nfl = (size_t)m->nfl;
    const size_t old_values = (size_t)g->nq * (size_t)nx * nfl;
    const size_t values = (size_t)nq * (size_t)nx * nfl;
    if (values > MAX_GRID_VALUES - old_values) {
        gaps_pdf_error(err, errlen, "%s:%ld: the grid has more than %zu values, refused",
                       t->path, t->line, MAX_GRID_VALUES);
        goto fail;
    }
    double *q = realloc(g->q, (size_t)(g->nq + nq) * sizeof *q);
    if (q) g->q = q;
    double *xf = realloc(g->xf, (old_values + values) * sizeof *xf);
    if (xf) g->xf = xf;
    if (!q || !xf) {
        gaps_pdf_error(err, errlen, "%s: out of memory for the grid", t->path);
        goto fail;
    }
    memcpy(g->q + g->nq, qs, (size_t)nq * sizeof *qs);
    /* the file runs over x (outer) and Q (inner); the grid is stored Q-major */
    double *row = malloc(nfl * sizeof *row);
    if (!row) {
        gaps_pdf_error(err, errlen, "%s: out of memory", t->path);
        goto fail;
    }
    for (int ix = 0; ix < nx; ++ix)
        for (int iq = 0; iq < nq; ++iq) {
            line = next_data_line(t);
            if (!line || is_separator(line)) {
                gaps_pdf_error(err, errlen, "%s: truncated: subgrid %d ends after %ld of its %ld "
                               "value lines (%d x knots times %d Q knots)", t->path, s + 1,
                               (long)ix * nq + iq, (long)nx * nq, nx, nq);
                free(row);
                goto fail;
            }
            if (value_line(t, line, m->nfl, row, err, errlen) != 0) {
                free(row);
                goto fail;
            }
            memcpy(g->xf + ((size_t)(g->nq + iq) * nx + ix) * nfl, row, nfl * sizeof *row);
        }
    free(row);
    line = next_data_line(t);
    if (!line) {
        gaps_pdf_error(err, errlen, "%s: truncated: no '---' after the values of subgrid %d",
                       t->path, s + 1);
        goto fail;
    }
    if (!is_separator(line)) {
        gaps_pdf_error(err, errlen, "%s:%ld: more value lines than the %ld of subgrid %d (%d x "
                       "knots times %d Q knots), or a missing '---'", t->path, t->line,
                       (long)nx * nq, s + 1, nx, nq);
        goto fail;
    }
    if (s == 0) {
        g->x = xs;
        g->nx = nx;
        xs = NULL;
    }
    g->sub_first[s] = g->nq;
    g->nq += nq;
    g->sub_first[s + 1] = g->nq;
    g->nsub = s + 1;
    free(xs);
    free(qs);
    return 0;
truncated:
    gaps_pdf_error(err, errlen, "%s: truncated: subgrid %d ends after its %s line", t->path,
                   s + 1, qs ? "Q knot" : "x knot");
fail:
    free(xs);
    free(qs);
    return -1;
}

/* Whether the last line that is not blank is "---": every complete member file ends so, and a
 * file cut anywhere else does not (a cut between two subgrids cannot be seen). */
static int ends_with_separator(const text *t)
{
    size_t end = t->len;
    while (end > 0 && (is_space(t->buf[end - 1]) || t->buf[end - 1] == '\n')) --end;
    size_t start = end;
    while (start > 0 && t->buf[start - 1] != '\n') --start;
    while (start < end && is_space(t->buf[start])) ++start;
    return end - start == 3 && memcmp(t->buf + start, "---", 3) == 0;
}

/* A member file: header (into m, over the .info's values), then the subgrid blocks. */
static int read_member(const char *path, const char *info_path, pdf_meta *m, gaps_pdf_grid *g,
                       char *err, size_t errlen)
{
    text t;
    if (read_text(path, MAX_DAT_BYTES, &t, err, errlen) != 0) return -1;
    if (!ends_with_separator(&t)) {
        gaps_pdf_error(err, errlen, "%s: truncated or not an lhagrid1 file: it does not end with "
                       "a '---' line", path);
        free(t.buf);
        return -1;
    }
    int rc = read_metadata(&t, m, 1, err, errlen);
    if (rc == 0) rc = check_format(m, info_path, err, errlen);
    if (rc == 0 && m->nfl == 0) {
        gaps_pdf_error(err, errlen, "%s: no Flavors list", info_path);
        rc = -1;
    }
    if (rc == 0) g->nfl = m->nfl;
    char *line;
    while (rc == 0 && (line = next_data_line(&t)))
        rc = read_block(&t, line, m, g, err, errlen);
    if (rc == 0 && g->nsub == 0) {
        gaps_pdf_error(err, errlen, "%s: no grid after the header (empty or truncated file)",
                       path);
        rc = -1;
    }
    if (rc == 0) memcpy(g->pid, m->pid, sizeof g->pid);
    free(t.buf);
    return rc;
}

/* ------------------------------------------------------------------------------------------
 * The set: name, member, search path
 * ------------------------------------------------------------------------------------------ */

static int name_char(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
           || c == '_' || c == '-' || c == '+' || c == '.';
}

/* "NAME" or "NAME/MEMBER": a name of letters, digits and _-+. (not starting with '.'), a
 * member of 1 to 4 digits. */
static int parse_spec(const char *spec, char *name, size_t name_len, int *member, char *err,
                      size_t errlen)
{
    if (!spec || !*spec) {
        gaps_pdf_error(err, errlen, "no PDF set given");
        return -1;
    }
    const char *slash = strchr(spec, '/');
    const size_t n = slash ? (size_t)(slash - spec) : strlen(spec);
    int ok = n > 0 && n < name_len && spec[0] != '.';
    for (size_t i = 0; ok && i < n; ++i) ok = name_char(spec[i]);
    if (!ok) {
        gaps_pdf_error(err, errlen, "'%.*s' is not a PDF set name (letters, digits and _-+., "
                       "at most %zu characters, not starting with '.')", shown(strlen(spec)),
                       spec, name_len - 1);
        return -1;
    }
    memcpy(name, spec, n);
    name[n] = '\0';
    *member = 0;
    if (slash) {
        const char *mem = slash + 1;
        const size_t mn = strlen(mem);
        ok = mn >= 1 && mn <= 4;
        for (size_t i = 0; ok && i < mn; ++i) ok = mem[i] >= '0' && mem[i] <= '9';
        if (!ok) {
            gaps_pdf_error(err, errlen, "'%.*s': the member after '/' must be a number from 0 "
                           "to %d", shown(strlen(spec)), spec, MAX_MEMBER);
            return -1;
        }
        *member = atoi(mem);
    }
    return 0;
}

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

/* The sets in directory dir (entries NAME holding NAME/NAME.info), sorted, as "A, B, C" into
 * out, cut with "..." to fit len bytes; "no sets" when there are none. */
static void list_sets(const char *dir, char *out, size_t len)
{
    enum { MAX_LISTED = 32 };
    char names[MAX_LISTED][GAPS_PDF_NAME_MAX];
    int n = 0, total = 0;
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        const char *nm = e->d_name;
        const size_t l = strlen(nm);
        int ok = l > 0 && l < GAPS_PDF_NAME_MAX && nm[0] != '.';
        for (size_t i = 0; ok && i < l; ++i) ok = name_char(nm[i]);
        char probe[MAX_PATH];
        if (!ok || snprintf(probe, sizeof probe, "%s/%s/%s.info", dir, nm, nm) >= (int)sizeof probe)
            continue;
        struct stat st;
        if (stat(probe, &st) != 0) continue;
        ++total;
        if (n < MAX_LISTED) memcpy(names[n++], nm, l + 1);
    }
    if (d) closedir(d);
    if (total == 0) {
        snprintf(out, len, "no sets");
        return;
    }
    qsort(names, (size_t)n, sizeof names[0], compare_names);
    size_t used = (size_t)snprintf(out, len, "sets: ");
    for (int i = 0; i < n && used < len; ++i) {
        const size_t need = strlen(names[i]) + (i ? 2 : 0);
        if (used + need + 5 >= len) {   /* room for ", ..." */
            snprintf(out + used, len - used, ", ...");
            return;
        }
        used += (size_t)snprintf(out + used, len - used, "%s%s", i ? ", " : "", names[i]);
    }
    if (total > n && used < len) snprintf(out + used, len - used, ", ... (%d in all)", total);
}

/* The first directory of the search path that holds NAME/NAME.info, into dir.  When none
 * does, the message lists the directories searched that exist with the sets each holds (what
 * the user can choose from) and counts the entries that do not exist, in one line. */
static int find_set(const char *name, const char *search_path, char *dir, size_t dir_len,
                    char *err, size_t errlen)
{
    char probe[MAX_PATH], bare_dir[MAX_PATH] = "";
    const char *p = search_path ? search_path : "";
    while (*p) {
        const char *colon = strchr(p, ':');
        const size_t n = colon ? (size_t)(colon - p) : strlen(p);
        if (n > 0 && n < dir_len) {
            memcpy(dir, p, n);
            dir[n] = '\0';
            snprintf(probe, sizeof probe, "%s/%s/%s.info", dir, name, name);
            if (exists(probe)) return 0;
            snprintf(probe, sizeof probe, "%s/%s", dir, name);
            if (!bare_dir[0] && is_dir(probe)) snprintf(bare_dir, sizeof bare_dir, "%s", probe);
        }
        p += n;
        if (*p == ':') ++p;
    }
    if (bare_dir[0]) {
        gaps_pdf_error(err, errlen, "%s/%s.info: no such file (the set's directory has no .info "
                       "file)", bare_dir, name);
        return -1;
    }
    if (!search_path || !*search_path) {
        gaps_pdf_error(err, errlen, "PDF set '%s' not found: the search path is empty", name);
        return -1;
    }
    /* the directories searched: those that exist, each with its sets, then a count of the
     * rest; the line stays within 1 KB, whatever the path's length */
    char msg[1024], sets[200];
    size_t used = (size_t)snprintf(msg, sizeof msg, "PDF set '%s' not found; searched", name);
    int shown_dirs = 0, more_dirs = 0, missing = 0;
    for (p = search_path; *p;) {
        const char *colon = strchr(p, ':');
        const size_t n = colon ? (size_t)(colon - p) : strlen(p);
        if (n > 0 && n < dir_len) {
            memcpy(dir, p, n);
            dir[n] = '\0';
            if (!is_dir(dir)) ++missing;
            else if (used > 600) ++more_dirs;   /* each entry adds < 380 bytes */
            else {
                list_sets(dir, sets, sizeof sets);
                used += (size_t)snprintf(msg + used, sizeof msg - used, "%s %.160s%s (%s)",
                                         shown_dirs ? "," : "", dir, n > 160 ? "..." : "", sets);
                ++shown_dirs;
            }
        } else if (n > 0) {
            ++missing;   /* longer than any directory gaps opens */
        }
        p += n;
        if (*p == ':') ++p;
    }
    if (shown_dirs == 0)
        used += (size_t)snprintf(msg + used, sizeof msg - used, " no existing directory");
    if (more_dirs && used < sizeof msg)
        used += (size_t)snprintf(msg + used, sizeof msg - used, ", %d more director%s", more_dirs,
                                 more_dirs == 1 ? "y" : "ies");
    if (missing && used < sizeof msg)
        used += (size_t)snprintf(msg + used, sizeof msg - used, "; %d entr%s of the search path "
                                 "%s not exist", missing, missing == 1 ? "y" : "ies",
                                 missing == 1 ? "does" : "do");
    if (used < sizeof msg)
        snprintf(msg + used, sizeof msg - used, " (give the directory with --pdf-path, or set "
                 "LHAPDF_DATA_PATH)");
    gaps_pdf_error(err, errlen, "%s", msg);
    return -1;
}

/* ------------------------------------------------------------------------------------------
 * What a set must hold, and what it is (its digest)
 * ------------------------------------------------------------------------------------------ */

static int meta_column(const pdf_meta *m, int pid)
{
    for (int k = 0; k < m->nfl; ++k)
        if (same_parton(m->pid[k], pid)) return k;
    return -1;
}

/* A proton's densities: the gluon must be listed (every hadron process and the initial-state
 * shower use it; a set without it would silently lose those channels), and the gluon and the
 * light quarks and antiquarks the set lists (d, u, dbar, ubar) must not be zero at every knot
 * (an emptied grid gives a cross section of 0, not an error).  Heavy flavours may be zero
 * everywhere (a set of fewer flavours lists them as zero).  Values were checked finite when
 * read; negative values are the set's (ForcePositive decides, as in LHAPDF). */
static int check_content(const gaps_pdf_grid *g, const pdf_meta *m, const char *info_path,
                         const char *dat_path, char *err, size_t errlen)
{
    if (meta_column(m, 21) < 0) {
        gaps_pdf_error(err, errlen, "%s: Flavors has no gluon (21 or 0): gaps needs the gluon "
                       "of a proton set", info_path);
        return -1;
    }
    const int needed[5] = { 21, 1, 2, -1, -2 };
    const size_t rows = (size_t)g->nq * (size_t)g->nx;
    for (int i = 0; i < 5; ++i) {
        const int k = meta_column(m, needed[i]);
        if (k < 0) continue;
        size_t r = 0;
        while (r < rows && g->xf[r * (size_t)g->nfl + (size_t)k] == 0.0) ++r;
        if (r == rows) {
            gaps_pdf_error(err, errlen, "%s: flavour %d is zero at every knot: not the parton "
                           "densities of a proton", dat_path, m->pid[k]);
            return -1;
        }
    }
    return 0;
}

/* 64-bit FNV-1a over the little-endian bytes of each number, so that every host and every
 * build (the digest is made here, on the host, from the values as read) gets the same. */
#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL
static void fnv_u64(uint64_t *h, uint64_t v)
{
    for (int i = 0; i < 8; ++i) {
        *h ^= (v >> (8 * i)) & 0xffu;
        *h *= FNV_PRIME;
    }
}
static void fnv_f64(uint64_t *h, double d)
{
    uint64_t v;
    if (d != d) v = 0x7ff8000000000000ULL;   /* "not given" (NaN): one pattern */
    else memcpy(&v, &d, sizeof v);
    fnv_u64(h, v);
}

/* The digest of a member (gaps_pdf.digest, doc/formats.md): a version of this recipe, the
 * grid's shape, its knots, flavours and values in the order the grid holds them, then the
 * metadata that reaches a result: ForcePositive, OrderQCD, MZ, AlphaS_MZ, MCharm, MBottom,
 * MTop (the charm and bottom masses set the shower's thresholds).  NumMembers and SetIndex
 * are bookkeeping and left out.  Never 0: 0 means "no PDF set". */
static uint64_t set_digest(const gaps_pdf_grid *g, const pdf_meta *m)
{
    uint64_t h = FNV_OFFSET;
    fnv_u64(&h, 1);   /* the recipe's version */
    fnv_u64(&h, (uint64_t)g->nx);
    fnv_u64(&h, (uint64_t)g->nq);
    fnv_u64(&h, (uint64_t)g->nfl);
    fnv_u64(&h, (uint64_t)g->nsub);
    for (int s = 0; s <= g->nsub; ++s) fnv_u64(&h, (uint64_t)g->sub_first[s]);
    for (int i = 0; i < g->nx; ++i) fnv_f64(&h, g->x[i]);
    for (int i = 0; i < g->nq; ++i) fnv_f64(&h, g->q[i]);
    for (int k = 0; k < g->nfl; ++k) fnv_u64(&h, (uint64_t)(int64_t)(g->pid[k] == 0 ? 21 : g->pid[k]));
    const size_t values = (size_t)g->nq * (size_t)g->nx * (size_t)g->nfl;
    for (size_t i = 0; i < values; ++i) fnv_f64(&h, g->xf[i]);
    fnv_u64(&h, (uint64_t)(int64_t)m->force_positive);
    fnv_u64(&h, (uint64_t)(int64_t)m->order_qcd);
    fnv_f64(&h, m->mz);
    fnv_f64(&h, m->alphas_mz);
    fnv_f64(&h, m->m_charm);
    fnv_f64(&h, m->m_bottom);
    fnv_f64(&h, m->m_top);
    return h ? h : 1;
}

static int load_in_c_locale(gaps_pdf *pdf, const char *spec, const char *search_path,
                            char *err, size_t errlen)
{
    char name[GAPS_PDF_NAME_MAX], dir[MAX_DIR], info_path[MAX_PATH], dat_path[MAX_PATH];
    int member;
    if (parse_spec(spec, name, sizeof name, &member, err, errlen) != 0) return -1;
    if (find_set(name, search_path, dir, sizeof dir, err, errlen) != 0) return -1;
    snprintf(info_path, sizeof info_path, "%s/%s/%s.info", dir, name, name);
    snprintf(dat_path, sizeof dat_path, "%s/%s/%s_%04d.dat", dir, name, name, member);

    pdf_meta meta;
    meta_defaults(&meta);
    text info;
    if (read_text(info_path, MAX_INFO_BYTES, &info, err, errlen) != 0) return -1;
    int rc = read_metadata(&info, &meta, 0, err, errlen);
    free(info.buf);
    if (rc != 0) return -1;
    if (meta.format_file && check_format(&meta, info_path, err, errlen) != 0) return -1;
    if (meta.num_members > 0 && member >= meta.num_members) {
        gaps_pdf_error(err, errlen, "%s: member %d requested, but the set has %d member%s "
                       "(NumMembers)", info_path, member, meta.num_members,
                       meta.num_members == 1 ? "" : "s");
        return -1;
    }

    gaps_pdf_grid grid;
    memset(&grid, 0, sizeof grid);
    rc = read_member(dat_path, info_path, &meta, &grid, err, errlen);
    if (rc == 0) rc = check_content(&grid, &meta, info_path, dat_path, err, errlen);
    const uint64_t digest = rc == 0 ? set_digest(&grid, &meta) : 0;
    if (rc == 0) rc = gaps_pdf_build_tables(pdf, &grid, dat_path, err, errlen);
    grid_free(&grid);
    if (rc != 0) return -1;

    pdf->digest = digest;
    snprintf(pdf->file, sizeof pdf->file, "%s", dat_path);

    snprintf(pdf->name, sizeof pdf->name, "%s", name);
    pdf->member = member;
    pdf->force_positive = meta.force_positive;
    pdf->num_members = meta.num_members;
    pdf->set_index = meta.set_index;
    snprintf(pdf->error_type, sizeof pdf->error_type, "%s", meta.error_type);
    pdf->error_conf_level = meta.error_conf_level;
    pdf->order_qcd = meta.order_qcd;
    pdf->mz = meta.mz;
    pdf->alphas_mz = meta.alphas_mz;
    pdf->m_charm = meta.m_charm;
    pdf->m_bottom = meta.m_bottom;
    pdf->m_top = meta.m_top;
    return 0;
}

int gaps_pdf_load(gaps_pdf *pdf, const char *spec, const char *search_path, char *err,
                  size_t errlen)
{
    if (err && errlen) err[0] = '\0';
    if (!pdf) {
        gaps_pdf_error(err, errlen, "gaps_pdf_load: no gaps_pdf given");
        return -1;
    }
    memset(pdf, 0, sizeof *pdf);
    /* strtod reads '.' as the decimal point only in the C locale: switch this thread to it
     * (a library must not change the process's locale) */
    locale_t c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
    locale_t previous = c_locale ? uselocale(c_locale) : (locale_t)0;
    const int rc = load_in_c_locale(pdf, spec, search_path, err, errlen);
    if (c_locale) {
        uselocale(previous);
        freelocale(c_locale);
    }
    if (rc != 0) gaps_pdf_free(pdf);
    return rc;
}
