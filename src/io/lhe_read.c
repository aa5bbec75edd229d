/* lhe_read.c -- the Les Houches Event file reader (lhe.h), in layers:
 *   bytes    read(2) from a file, FIFO or standard input; gzip inflated on the way
 *   lines    one line at a time, numbered, with its length limit and NUL check
 *   markup   tags, attributes, comments, elements skipped up to their closing tag
 *   blocks   <LesHouchesEvents>, <header> (weight declarations), <init>, <event>
 *   checks   each event's particles, colour lines, resonances and momentum balance
 * and, last, the shower's verdict on an event (gaps_lhe_showerable).
 *
 * The file's structure, what is checked and the tolerances are described in doc/formats.md,
 * "Les Houches Event files (read)"; this file is that description in code. */
#define _POSIX_C_SOURCE 200809L
#include "io/lhe.h"
#include "io/c_locale.h"
#include "io/parse_decimal.h"
#include "program/one_line.h"
#include "program/shown_path.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif

/* Four-momentum conservation, incoming minus final state, relative to the incoming energy. */
#define BALANCE_TOLERANCE 1e-6

enum { BUFFER = 1 << 16 };

struct gaps_lhe_reader {
    int fd, own_fd;
    int fifo;                     /* a FIFO we opened: poll before every read (below) */
    char shown[GAPS_SHOWN_PATH_MAX + 8];
    /* bytes: the compressed input (gzip), and the text */
    int gzip;
    z_stream z;
    int z_ready, member_end;
    unsigned char raw[BUFFER];
    size_t raw_pos, raw_end;
    int raw_eof;
    unsigned char out[BUFFER];
    const unsigned char *view;    /* the text being read: out, or text handed in */
    size_t out_pos, out_end;      /* view[out_pos, out_end) is not read yet */
    int out_eof;
    /* text handed in (gaps_lhe_piece_begin, gaps_lhe_put_back): read before the input; a
     * piece reader has no input besides it */
    char *text;
    size_t text_len, text_pos;
    int text_owned;               /* text is ours to free (put back) */
    int text_only;                /* a piece reader */
    int piece_last;               /* its piece ends the input */
    int pending;                  /* an error the cutter met reading the input, raised when
                                     the text put back before it has been read */
    char pending_what[720];
    /* the cutter (gaps_lhe_cut): text read but not yet handed out, from a line's start */
    char *carry;
    size_t carry_len, carry_cap;
    size_t scan;                  /* carry[0, scan) lexed, in state lex, group lex_group */
    int lex, lex_group, carry_group;
    int source_done;              /* the input gave its last byte (or failed: pending) */
    /* lines */
    char *line;                   /* GAPS_LHE_LINE_MAX + 1 bytes */
    size_t len, pos;              /* the line's length, the cursor in it */
    long lineno;                  /* the number of the line in `line` */
    int cut;                      /* that line ended with the input, without a newline */
    long piece_group_line;        /* a piece reader: the line of an <eventgroup> opened in
                                     its piece, or -1 */
    /* blocks */
    gaps_lhe_init init;
    int declared;                 /* weight names came before the events */
    long events;                  /* events read */
    long info_line;               /* the current event's first line */
    int in_group;                 /* inside <eventgroup> */
    long group_line;
    int ended;                    /* </LesHouchesEvents> read, nothing after it */
    unsigned char seen[GAPS_LHE_MAX_WEIGHTS];   /* this event's weights, by name */
    int error;                    /* the first error's status, repeated afterwards */
    char message[1024];
    char what[720];               /* the message without its "FILE:LINE: " */
};

/* ------------------------------------------------------------------------------------ */
/* messages */

static int fail_at(gaps_lhe_reader *r, int status, long line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail_at(gaps_lhe_reader *r, int status, long line, const char *fmt, ...)
{
    char what[720];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(r->what, sizeof r->what, "%s", what);
    if (line < 0)   /* before the first line: the file could not be opened */
        snprintf(r->message, sizeof r->message, "%s: %s", r->shown, what);
    else
        snprintf(r->message, sizeof r->message, "%s:%ld: %s%s", r->shown, line > 0 ? line : 1,
                 what, r->cut && line == r->lineno
                 ? " (the file ends in this line, without a newline: truncated?)" : "");
    gaps_one_line(r->message);
    r->error = status;
    return status;
}

#define BAD(r, ...) fail_at((r), GAPS_LHE_INVALID, (r)->lineno, __VA_ARGS__)
#define BAD_AT(r, line, ...) fail_at((r), GAPS_LHE_INVALID, (line), __VA_ARGS__)

/* At most 40 bytes of s[0, n) for a message, "..." marking a cut. */
static const char *excerpt(const char *s, size_t n, char *buf, size_t size)
{
    const size_t keep = 40 < size - 4 ? 40 : size - 4;
    if (n <= keep) {
        memcpy(buf, s, n);
        buf[n] = '\0';
    } else {
        memcpy(buf, s, keep);
        memcpy(buf + keep, "...", 4);
    }
    return buf;
}

/* ------------------------------------------------------------------------------------ */
/* bytes */

/* Read up to n bytes: >0 read, 0 end of input, -1 failure (errno).  A FIFO that we opened
 * (non-blocking, so that the open does not wait for a writer) reports end of input while
 * no writer has come yet; poll waits until one has written or has come and gone, so the
 * end we see is the writer's.  Standard input left non-blocking by the caller answers
 * EAGAIN: poll waits for it too. */
static ssize_t read_some(gaps_lhe_reader *r, void *buf, size_t n)
{
    for (;;) {
        if (r->fifo) {
            struct pollfd p = {.fd = r->fd, .events = POLLIN};
            if (poll(&p, 1, -1) < 0) {
                if (errno == EINTR) continue;
                return -1;
            }
        }
        const ssize_t got = read(r->fd, buf, n);
        if (got >= 0) return got;
        if (errno == EINTR) continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
            struct pollfd p = {.fd = r->fd, .events = POLLIN};
            if (poll(&p, 1, -1) < 0 && errno != EINTR) return -1;
            continue;
        }
        return -1;
    }
}

static int read_failed(gaps_lhe_reader *r)
{
    const int e = errno;
    /* a directory given as standard input is the user's mistake, not the system's */
    return fail_at(r, e == EISDIR ? GAPS_LHE_INVALID : GAPS_LHE_FAILED, r->lineno + 1,
                   "read error: %s", strerror(e));
}

/* More compressed bytes after the unread ones: 0, or an error. */
static int raw_more(gaps_lhe_reader *r)
{
    if (r->raw_pos > 0) {
        memmove(r->raw, r->raw + r->raw_pos, r->raw_end - r->raw_pos);
        r->raw_end -= r->raw_pos;
        r->raw_pos = 0;
    }
    if (r->raw_end == BUFFER || r->raw_eof) return 0;
    const ssize_t n = read_some(r, r->raw + r->raw_end, BUFFER - r->raw_end);
    if (n < 0) return read_failed(r);
    if (n == 0) r->raw_eof = 1;
    r->raw_end += (size_t)n;
    return 0;
}

/* Inflate the next piece of text into out: 1, 0 at the end of the last gzip member, or an
 * error.  Members may follow each other (what `cat a.gz b.gz` makes); anything else after
 * a member, or an end of input inside one, is an error. */
static int inflate_more(gaps_lhe_reader *r)
{
    const long line = r->lineno + 1;
    for (;;) {
        if (r->member_end) {
            if (r->raw_end - r->raw_pos < 2 && !r->raw_eof) {
                const int rc = raw_more(r);
                if (rc < 0) return rc;
                if (r->raw_end - r->raw_pos < 2 && !r->raw_eof) continue;
            }
            const size_t left = r->raw_end - r->raw_pos;
            if (left == 0) return r->out_eof = 1, 0;
            if (left >= 2 && r->raw[r->raw_pos] == 0x1f && r->raw[r->raw_pos + 1] == 0x8b) {
                inflateReset(&r->z);
                r->member_end = 0;
                continue;
            }
            return BAD_AT(r, line, "%zu bytes after the end of the gzip data that are no "
                                   "gzip member (a damaged or appended file)", left);
        }
        if (r->raw_pos == r->raw_end && !r->raw_eof) {
            const int rc = raw_more(r);
            if (rc < 0) return rc;
        }
        r->z.next_in = r->raw + r->raw_pos;
        r->z.avail_in = (uInt)(r->raw_end - r->raw_pos);
        r->z.next_out = r->out;
        r->z.avail_out = BUFFER;
        const int zr = inflate(&r->z, Z_NO_FLUSH);
        r->raw_pos = r->raw_end - r->z.avail_in;
        const size_t made = BUFFER - r->z.avail_out;
        if (zr == Z_STREAM_END) {
            r->member_end = 1;
        } else if (zr == Z_DATA_ERROR || zr == Z_NEED_DICT) {
            return BAD_AT(r, line, "corrupt gzip data (zlib: %s)",
                          r->z.msg ? r->z.msg : "invalid data");
        } else if (zr == Z_MEM_ERROR) {
            return fail_at(r, GAPS_LHE_FAILED, line, "out of memory inflating the gzip data");
        } else if (zr != Z_OK && zr != Z_BUF_ERROR) {
            return fail_at(r, GAPS_LHE_FAILED, line, "zlib failed (%d)", zr);
        } else if (made == 0 && r->raw_pos == r->raw_end && r->raw_eof) {
            return BAD_AT(r, line, "the gzip data end in the middle of the compressed stream: "
                                   "a truncated file");
        }
        if (made > 0) {
            r->view = r->out;
            r->out_pos = 0;
            r->out_end = made;
            return 1;
        }
    }
}

/* The next piece of text into out: 1, 0 at the end, or an error. */
static int fill(gaps_lhe_reader *r)
{
    if (r->text_pos < r->text_len) {   /* text handed in: all of it at once */
        r->view = (const unsigned char *)r->text + r->text_pos;
        r->out_pos = 0;
        r->out_end = r->text_len - r->text_pos;
        r->text_pos = r->text_len;
        return 1;
    }
    if (r->pending) {   /* what the cutter met after the text put back */
        const int status = r->pending;
        r->pending = 0;
        return fail_at(r, status, r->lineno + 1, "%s", r->pending_what);
    }
    r->view = r->out;
    if (r->text_only) r->out_eof = 1;
    if (r->out_eof) return 0;
    r->out_pos = r->out_end = 0;
    if (r->gzip) return inflate_more(r);
    const ssize_t n = read_some(r, r->out, BUFFER);
    if (n < 0) return read_failed(r);
    if (n == 0) return r->out_eof = 1, 0;
    r->out_end = (size_t)n;
    return 1;
}

/* The first bytes decide: gzip (1f 8b) is inflated; other compressions are named and
 * refused; anything else is text.  0, or an error. */
static int sniff(gaps_lhe_reader *r)
{
    while (r->out_end < 6) {
        const ssize_t n = read_some(r, r->out + r->out_end, BUFFER - r->out_end);
        if (n < 0) return read_failed(r);
        if (n == 0) {
            r->out_eof = 1;
            break;
        }
        r->out_end += (size_t)n;
    }
    const unsigned char *b = r->out;
    const size_t n = r->out_end;
    if (n >= 2 && b[0] == 0x1f && b[1] == 0x8b) {
        r->gzip = r->init.gzip = 1;
        memcpy(r->raw, r->out, n);
        r->raw_end = n;
        r->raw_eof = r->out_eof;
        r->out_end = 0;
        r->out_eof = 0;
        if (inflateInit2(&r->z, 16 + MAX_WBITS) != Z_OK)
            return fail_at(r, GAPS_LHE_FAILED, 1, "cannot start zlib: out of memory");
        r->z_ready = 1;
        return 0;
    }
    const char *other = NULL;
    if (n >= 6 && !memcmp(b, "\xfd" "7zXZ\0", 6)) other = "xz (xz -dc FILE | gaps lhe-check -)";
    else if (n >= 3 && !memcmp(b, "BZh", 3)) other = "bzip2 (bzip2 -dc FILE | gaps lhe-check -)";
    else if (n >= 4 && !memcmp(b, "\x28\xb5\x2f\xfd", 4)) other = "zstd (zstd -dc FILE | gaps lhe-check -)";
    if (other) return BAD_AT(r, 1, "compressed with %s: only gzip is read directly", other);
    return 0;
}

/* ------------------------------------------------------------------------------------ */
/* lines */

/* The next line into r->line (without its "\n" or "\r\n"): 1, 0 at the end, or an error. */
static int next_line(gaps_lhe_reader *r)
{
    size_t len = 0;
    int any = 0, newline = 0;
    for (;;) {
        if (r->out_pos == r->out_end) {
            const int rc = fill(r);
            if (rc < 0) return rc;
            if (rc == 0) {
                if (!any) return 0;
                break;
            }
        }
        any = 1;
        const unsigned char *start = r->view + r->out_pos;
        const size_t avail = r->out_end - r->out_pos;
        const unsigned char *nl = memchr(start, '\n', avail);
        const size_t take = nl ? (size_t)(nl - start) : avail;
        if (len + take > GAPS_LHE_LINE_MAX)
            return BAD_AT(r, r->lineno + 1, "a line longer than %d bytes: not an event file, "
                                            "or a damaged one", GAPS_LHE_LINE_MAX);
        memcpy(r->line + len, start, take);
        len += take;
        r->out_pos += take + (nl != NULL);
        if (nl) {
            newline = 1;
            break;
        }
    }
    r->cut = !newline;
    r->lineno++;
    if (len > 0 && r->line[len - 1] == '\r') --len;
    if (memchr(r->line, '\0', len))
        return BAD(r, "a NUL byte: binary data, not the text of an event file");
    r->line[len] = '\0';
    r->len = len;
    r->pos = 0;
    return 1;
}

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static void skip_inline_space(gaps_lhe_reader *r)
{
    while (is_space(r->line[r->pos])) ++r->pos;
}

static int rest_is_blank(gaps_lhe_reader *r)
{
    skip_inline_space(r);
    return r->line[r->pos] == '\0';
}

/* To the next character that is not white space, across lines: 1, 0 at the end, or an
 * error. */
static int skip_space(gaps_lhe_reader *r)
{
    for (;;) {
        skip_inline_space(r);
        if (r->line[r->pos] != '\0') return 1;
        const int rc = next_line(r);
        if (rc <= 0) return rc;
    }
}

/* The next line that is not blank, for the numbers of <init> and <event>: 1, 0 at the
 * end, or an error. */
static int next_content_line(gaps_lhe_reader *r)
{
    for (;;) {
        const int rc = next_line(r);
        if (rc <= 0) return rc;
        if (!rest_is_blank(r)) return 1;
    }
}

/* ------------------------------------------------------------------------------------ */
/* numbers */

/* A decimal number as C and Fortran print them (io/parse_decimal.h): 0, -1 not a number,
 * -2 not finite. */
static int parse_real(const char *s, size_t n, double *out)
{
    return gaps_parse_decimal(s, n, out);
}

/* [+-] digits within the range of int.  0, -1 not an integer, -2 out of range. */
static int parse_int(const char *s, size_t n, int *out)
{
    size_t i = 0;
    int neg = 0;
    if (n > 0 && (s[0] == '+' || s[0] == '-')) neg = s[0] == '-', i = 1;
    if (i == n) return -1;
    long long v = 0;
    for (; i < n; ++i) {
        if (s[i] < '0' || s[i] > '9') return -1;
        if (v <= INT_MAX) v = v * 10 + (s[i] - '0');
    }
    if (neg) v = -v;
    if (v > INT_MAX || v < INT_MIN) return -2;
    *out = (int)v;
    return 0;
}

/* What a message calls the line: `what`, or "what number" if number > 0 (made only for a
 * message: a particle line is read some sixty million times a minute). */
static const char *line_label(const char *what, int number, char *buf, size_t size)
{
    if (number <= 0) return what;
    snprintf(buf, size, "%s %d", what, number);
    return buf;
}

/* A line of numbers: types[k] is 'i' (int) or 'd' (double) for field k, names[k] its name
 * in the accord; out[k] where it goes.  0, or an error naming the line (line_label) and the
 * field. */
static int parse_numbers(gaps_lhe_reader *r, const char *line_name, int number,
                         const char *types, const char *const *names, void *const *out)
{
    char label[64];
    const size_t want = strlen(types);
    const char *p = r->line;
    char ex[48];
    for (size_t k = 0; k < want; ++k) {
        while (is_space(*p)) ++p;
        const char *t = p;
        while (*p && !is_space(*p)) ++p;
        const size_t n = (size_t)(p - t);
        if (n == 0)
            return BAD(r, "%s has %zu numbers, %zu expected (%s, ...)",
                       line_label(line_name, number, label, sizeof label), k, want, names[0]);
        int rc;
        if (types[k] == 'i') {
            rc = parse_int(t, n, out[k]);
            if (rc == -2)
                return BAD(r, "%s: %s = '%s' is out of range",
                           line_label(line_name, number, label, sizeof label), names[k],
                           excerpt(t, n, ex, sizeof ex));
            if (rc != 0)
                return BAD(r, "%s: %s = '%s' is not an integer",
                           line_label(line_name, number, label, sizeof label), names[k],
                           excerpt(t, n, ex, sizeof ex));
        } else {
            rc = parse_real(t, n, out[k]);
            if (rc == -2)
                return BAD(r, "%s: %s = '%s' is not finite",
                           line_label(line_name, number, label, sizeof label), names[k],
                           excerpt(t, n, ex, sizeof ex));
            if (rc != 0)
                return BAD(r, "%s: %s = '%s' is not a number",
                           line_label(line_name, number, label, sizeof label), names[k],
                           excerpt(t, n, ex, sizeof ex));
        }
    }
    while (is_space(*p)) ++p;
    if (*p)
        return BAD(r, "%s: text after its %zu numbers: '%s'",
                   line_label(line_name, number, label, sizeof label), want,
                   excerpt(p, strlen(p), ex, sizeof ex));
    r->pos = r->len;
    return 0;
}

/* ------------------------------------------------------------------------------------ */
/* markup */

typedef struct tag {
    char name[32];
    int closing;                  /* </name> */
    int empty;                    /* <name ... /> */
    const char *attrs;            /* its attributes' text, in r->line (until the next line) */
    size_t attrs_len;
    long line;
} tag;

static int name_start(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

static int name_char(char c)
{
    return name_start(c) || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == ':';
}

/* The attributes name="value" (or 'value'), separated by white space.  0, or an error. */
static int check_attributes(gaps_lhe_reader *r, const tag *t)
{
    const char *a = t->attrs, *end = t->attrs + t->attrs_len;
    char ex[48];
    while (a < end) {
        while (a < end && is_space(*a)) ++a;
        if (a == end) break;
        const char *n = a;
        while (a < end && name_char(*a)) ++a;
        if (a == n || !name_start(*n))
            return BAD(r, "<%s>: '%s' is not an attribute name", t->name,
                       excerpt(n, (size_t)(end - n), ex, sizeof ex));
        const size_t nlen = (size_t)(a - n);
        while (a < end && is_space(*a)) ++a;
        if (a == end || *a != '=')
            return BAD(r, "<%s>: attribute '%s' has no value (name=\"value\")", t->name,
                       excerpt(n, nlen, ex, sizeof ex));
        ++a;
        while (a < end && is_space(*a)) ++a;
        if (a == end || (*a != '"' && *a != '\''))
            return BAD(r, "<%s>: attribute '%s' has no quoted value", t->name,
                       excerpt(n, nlen, ex, sizeof ex));
        const char q = *a++;
        while (a < end && *a != q) ++a;
        if (a == end) return BAD(r, "<%s>: an attribute's quote is not closed", t->name);
        ++a;
        if (a < end && !is_space(*a))
            return BAD(r, "<%s>: no space between attributes", t->name);
    }
    return 0;
}

/* The tag at the cursor (r->line[r->pos] == '<'), which must end on its line.  Comments,
 * CDATA and <?...?> are the callers'.  0, or an error. */
static int read_tag(gaps_lhe_reader *r, tag *t)
{
    const char *s = r->line + r->pos;
    char ex[48];
    size_t i = 1, n = 0;
    t->closing = s[i] == '/';
    if (t->closing) ++i;
    if (!name_start(s[i]))
        return BAD(r, "'<' that starts no tag: '%s'", excerpt(s, strlen(s), ex, sizeof ex));
    while (name_char(s[i])) {
        if (n + 1 >= sizeof t->name)
            return BAD(r, "a tag name longer than %zu bytes: '%s'", sizeof t->name - 1,
                       excerpt(s, strlen(s), ex, sizeof ex));
        t->name[n++] = s[i++];
    }
    t->name[n] = '\0';
    if (s[i] && s[i] != '>' && s[i] != '/' && !is_space(s[i]))
        return BAD(r, "a tag name with '%c' in it: '%s'", s[i], excerpt(s, strlen(s), ex, sizeof ex));
    size_t j = i;
    char q = 0;
    for (; s[j]; ++j) {
        if (q) {
            if (s[j] == q) q = 0;
        } else if (s[j] == '"' || s[j] == '\'') {
            q = s[j];
        } else if (s[j] == '>') {
            break;
        }
    }
    if (!s[j])
        return BAD(r, "the tag <%s%s does not end with '>' on its line", t->closing ? "/" : "",
                   t->name);
    t->empty = j > i && s[j - 1] == '/';
    t->attrs = s + i;
    t->attrs_len = j - i - (size_t)t->empty;
    t->line = r->lineno;
    r->pos += j + 1;
    if (t->closing && (t->empty || t->attrs_len > 0)) {
        for (size_t k = 0; k < t->attrs_len; ++k)
            if (!is_space(t->attrs[k]))
                return BAD(r, "the closing tag </%s> has attributes", t->name);
        if (t->empty) return BAD(r, "the closing tag </%s/> ends in '/>'", t->name);
    }
    return check_attributes(r, t);
}

/* The value of attribute `name` of t into out: 1, 0 if t has none, or an error. */
static int tag_attr(gaps_lhe_reader *r, const tag *t, const char *name, char *out, size_t size)
{
    const char *a = t->attrs, *end = t->attrs + t->attrs_len;
    const size_t len = strlen(name);
    while (a < end) {
        while (a < end && is_space(*a)) ++a;
        const char *n = a;
        while (a < end && name_char(*a)) ++a;
        const size_t nlen = (size_t)(a - n);
        while (a < end && *a != '"' && *a != '\'') ++a;   /* checked: '=' and a quote */
        if (a == end) break;
        const char q = *a++;
        const char *v = a;
        while (a < end && *a != q) ++a;
        const size_t vlen = (size_t)(a - v);
        ++a;
        if (nlen == len && memcmp(n, name, len) == 0) {
            if (vlen >= size)
                return BAD(r, "<%s>: %s=\"...\" is longer than %zu bytes", t->name, name,
                           size - 1);
            memcpy(out, v, vlen);
            out[vlen] = '\0';
            return 1;
        }
    }
    return 0;
}

/* The input ended inside what was opened at line `open`. */
static int ends_inside(gaps_lhe_reader *r, const char *what, long open)
{
    return BAD(r, "the file ends inside %s opened at line %ld: it is truncated", what, open);
}

static int starts(const gaps_lhe_reader *r, const char *prefix)
{
    return strncmp(r->line + r->pos, prefix, strlen(prefix)) == 0;
}

/* Past the opening `what` at the cursor and then past `close` ("-->", "]]>", "?>"), across
 * lines; `open` is the opening's line.  0, or an error. */
static int skip_past(gaps_lhe_reader *r, const char *close, const char *what, long open)
{
    r->pos += strlen(what);
    for (;;) {
        const char *c = strstr(r->line + r->pos, close);
        if (c) {
            r->pos = (size_t)(c - r->line) + strlen(close);
            return 0;
        }
        const int rc = next_line(r);
        if (rc < 0) return rc;
        if (rc == 0) return ends_inside(r, what, open);
    }
}

/* At '<': skip a comment, CDATA section or processing instruction.  1 if one was skipped,
 * 0 if the cursor is at a tag, or an error. */
static int skip_markup(gaps_lhe_reader *r)
{
    const long open = r->lineno;
    int rc = 0;
    if (starts(r, "<!--")) rc = skip_past(r, "-->", "<!--", open);
    else if (starts(r, "<![CDATA[")) rc = skip_past(r, "]]>", "<![CDATA[", open);
    else if (starts(r, "<?")) rc = skip_past(r, "?>", "<?", open);
    else return 0;
    return rc < 0 ? rc : 1;
}

/* The tags that give the file its structure: seen where they do not belong, they mean
 * that a closing tag is missing. */
static int structural(const tag *t)
{
    static const char *const names[] = {"LesHouchesEvents", "header", "init", "event",
                                        "eventgroup"};
    for (size_t k = 0; k < sizeof names / sizeof *names; ++k)
        if (strcmp(t->name, names[k]) == 0) return 1;
    return 0;
}

/* After the start tag t (not empty): past its closing tag, whatever it holds (text, other
 * elements, t itself nested).  A structural tag before it means the closing tag is missing.
 * 0, or an error. */
static int skip_element(gaps_lhe_reader *r, const tag *t)
{
    int depth = 1;
    for (;;) {
        const char *lt = strchr(r->line + r->pos, '<');
        if (!lt) {
            const int rc = next_line(r);
            if (rc < 0) return rc;
            if (rc == 0) {
                char what[40];
                snprintf(what, sizeof what, "<%s>", t->name);
                return ends_inside(r, what, t->line);
            }
            continue;
        }
        r->pos = (size_t)(lt - r->line);
        const int m = skip_markup(r);
        if (m < 0) return m;
        if (m) continue;
        tag u;
        const int rc = read_tag(r, &u);
        if (rc < 0) return rc;
        if (structural(&u))
            return BAD(r, "<%s> (line %ld) is not closed: <%s%s> comes before its </%s>",
                       t->name, t->line, u.closing ? "/" : "", u.name, t->name);
        if (strcmp(u.name, t->name) == 0) {
            if (u.closing) --depth;
            else if (!u.empty) ++depth;
            if (depth == 0) return 0;
        }
    }
}

/* ------------------------------------------------------------------------------------ */
/* weight declarations: <initrwgt>, <weightgroup>, <weight id=...>, <weightinfo name=...> */

static int find_weight(const gaps_lhe_init *in, const char *id, int hint)
{
    if (hint >= 0 && hint < in->n_weights && strcmp(in->weight_id[hint], id) == 0) return hint;
    for (int k = 0; k < in->n_weights; ++k)
        if (strcmp(in->weight_id[k], id) == 0) return k;
    return -1;
}

/* A new weight name, in group g (-1: none).  Its index, or an error. */
static int add_weight(gaps_lhe_reader *r, const char *id, int g)
{
    gaps_lhe_init *in = &r->init;
    if (find_weight(in, id, -1) >= 0) return BAD(r, "weight id '%s' declared twice", id);
    if (in->n_weights == GAPS_LHE_MAX_WEIGHTS)
        return BAD(r, "more than %d weights per event: this reader keeps at most %d",
                   GAPS_LHE_MAX_WEIGHTS, GAPS_LHE_MAX_WEIGHTS);
    snprintf(in->weight_id[in->n_weights], GAPS_LHE_NAME_MAX, "%s", id);
    in->weight_group[in->n_weights] = g;
    return in->n_weights++;
}

/* The error types of LHAPDF sets: a <weightgroup> whose combine= is one of them holds the
 * members of a PDF set and is named after it (MadGraph5_aMC@NLO's convention). */
static int pdf_combination(const char *c)
{
    return !strcmp(c, "replicas") || !strcmp(c, "hessian") || !strcmp(c, "symmhessian")
        || !strcmp(c, "gaussian");
}

/* A tag of the weight declarations: 1 handled, 0 not one of them, or an error.  *group is
 * the open <weightgroup> (-1: none) and *group_line its line. */
static int weight_declaration(gaps_lhe_reader *r, const tag *t, int *group, long *group_line)
{
    gaps_lhe_init *in = &r->init;
    char value[GAPS_LHE_NAME_MAX];
    int rc;
    if (strcmp(t->name, "weightgroup") == 0) {
        if (t->closing) {
            if (*group < 0) return BAD(r, "</weightgroup> without its <weightgroup>");
            *group = -1;
            return 1;
        }
        if (*group >= 0)
            return BAD(r, "<weightgroup> inside the <weightgroup> of line %ld", *group_line);
        if (t->empty) return 1;
        if (in->n_groups == GAPS_LHE_MAX_GROUPS)
            return BAD(r, "more than %d <weightgroup>s", GAPS_LHE_MAX_GROUPS);
        /* MadGraph5_aMC@NLO 2.5 called the name type= */
        char *name = in->group_name[in->n_groups];
        if ((rc = tag_attr(r, t, "name", name, GAPS_LHE_NAME_MAX)) < 0) return rc;
        if (rc == 0 && (rc = tag_attr(r, t, "type", name, GAPS_LHE_NAME_MAX)) < 0) return rc;
        if (rc == 0) name[0] = '\0';
        if ((rc = tag_attr(r, t, "combine", value, sizeof value)) < 0) return rc;
        if (rc == 1 && pdf_combination(value) && in->pdf_name[0] == '\0' && name[0])
            snprintf(in->pdf_name, sizeof in->pdf_name, "%s", name);
        *group = in->n_groups++;
        *group_line = t->line;
        return 1;
    }
    const int is_weight = strcmp(t->name, "weight") == 0;
    if (!is_weight && strcmp(t->name, "weightinfo") != 0) return 0;
    if (t->closing) return BAD(r, "</%s> without its <%s>", t->name, t->name);
    const char *key = is_weight ? "id" : "name";
    if ((rc = tag_attr(r, t, key, value, sizeof value)) < 0) return rc;
    if (rc == 0) return BAD(r, "<%s> without %s=\"...\"", t->name, key);
    const enum gaps_lhe_weight_names kind =
        is_weight ? GAPS_LHE_NAMES_INITRWGT : GAPS_LHE_NAMES_WEIGHTINFO;
    if (in->weight_names != GAPS_LHE_NAMES_NONE && in->weight_names != kind)
        return BAD(r, "weights declared both with <weight id=...> and <weightinfo name=...>");
    in->weight_names = kind;
    if ((rc = add_weight(r, value, *group)) < 0) return rc;
    r->declared = 1;
    return t->empty ? 1 : (rc = skip_element(r, t)) < 0 ? rc : 1;
}

/* After <initrwgt>: the declarations, up to </initrwgt>.  Text between the tags is
 * ignored (MadGraph5_aMC@NLO writes "# scale" after a </weightgroup>).  0, or an error. */
static int read_initrwgt(gaps_lhe_reader *r, const tag *open)
{
    int group = -1, rc;
    long group_line = 0;
    for (;;) {
        const char *lt = strchr(r->line + r->pos, '<');
        if (!lt) {
            if ((rc = next_line(r)) < 0) return rc;
            if (rc == 0)
                return ends_inside(r, "<initrwgt>", open->line);
            continue;
        }
        r->pos = (size_t)(lt - r->line);
        if ((rc = skip_markup(r)) < 0) return rc;
        if (rc) continue;
        tag t;
        if ((rc = read_tag(r, &t)) < 0) return rc;
        if (strcmp(t.name, "initrwgt") == 0 && t.closing) {
            if (group >= 0)
                return BAD(r, "<weightgroup> (line %ld) is not closed before </initrwgt>",
                           group_line);
            return 0;
        }
        if ((rc = weight_declaration(r, &t, &group, &group_line)) < 0) return rc;
        if (rc) continue;
        if (structural(&t) || strcmp(t.name, "initrwgt") == 0)
            return BAD(r, "<initrwgt> (line %ld) is not closed: <%s%s> comes before its "
                          "</initrwgt>", open->line, t.closing ? "/" : "", t.name);
        if (t.closing) return BAD(r, "</%s> without its <%s>", t.name, t.name);
        if (!t.empty && (rc = skip_element(r, &t)) < 0) return rc;
    }
}

/* ------------------------------------------------------------------------------------ */
/* <LesHouchesEvents> and <header> */

/* Whether the text at the cursor is the tag <name followed by the end of its name. */
static int at_tag(const gaps_lhe_reader *r, const char *name)
{
    const char *s = r->line + r->pos;
    const size_t n = strlen(name);
    if (s[0] != '<' || strncmp(s + 1, name, n) != 0) return 0;
    const char c = s[1 + n];
    return c == '>' || c == '/' || c == '\0' || is_space(c);
}

/* <generator name="..." version="...">: the first one names the generator.  0, or an
 * error. */
static int read_generator(gaps_lhe_reader *r, const tag *t)
{
    gaps_lhe_init *in = &r->init;
    int rc;
    if (in->generator[0] != '\0') return 0;
    if ((rc = tag_attr(r, t, "name", in->generator, sizeof in->generator)) < 0) return rc;
    if (rc == 0) snprintf(in->generator, sizeof in->generator, "(unnamed)");
    rc = tag_attr(r, t, "version", in->generator_version, sizeof in->generator_version);
    return rc < 0 ? rc : 0;
}

/* Attribute `name` of t as a number: 0, or an error naming the tag and attribute (missing,
 * or not a finite decimal number). */
static int tag_attr_real(gaps_lhe_reader *r, const tag *t, const char *name, double *v)
{
    char buf[72];
    const int rc = tag_attr(r, t, name, buf, sizeof buf);
    if (rc < 0) return rc;
    if (rc == 0) return BAD_AT(r, t->line, "<%s> has no attribute %s", t->name, name);
    if (parse_real(buf, strlen(buf), v) != 0)
        return BAD_AT(r, t->line, "<%s>: %s=\"%s\" is not a finite number", t->name, name, buf);
    return 0;
}

/* The header's <gaps process="..." weight_unit="..."/> of a file gaps wrote: 0, or an
 * error. */
static int read_gaps_header(gaps_lhe_reader *r, const tag *t)
{
    gaps_lhe_init *in = &r->init;
    int rc;
    if ((rc = tag_attr(r, t, "process", in->gaps_process, sizeof in->gaps_process)) < 0)
        return rc;
    if (rc == 0) return BAD_AT(r, t->line, "<gaps> has no attribute process");
    if ((rc = tag_attr_real(r, t, "weight_unit", &in->gaps_w_unit)) < 0) return rc;
    if (!(in->gaps_w_unit > 0.0))
        return BAD_AT(r, t->line, "<gaps>: weight_unit must be positive");
    char buf[32];
    if ((rc = tag_attr(r, t, "seed", buf, sizeof buf)) < 0) return rc;
    if (rc == 1) {
        double seed;
        if (parse_real(buf, strlen(buf), &seed) != 0 || !(seed >= 0.0 && seed <= 4294967295.0)
            || seed != floor(seed))
            return BAD_AT(r, t->line, "<gaps>: seed=\"%s\" is not an integer from 0 to "
                          "2^32 - 1", buf);
        in->gaps_has_seed = 1;
        in->gaps_seed = (unsigned)seed;
    }
    in->gaps_written = 1;
    return 0;
}

/* An event's <gaps event="N" draw="D" t="T" x1="X" x2="X"/>: 0, or an error. */
static int read_gaps_event(gaps_lhe_reader *r, gaps_lhe_event *ev, const tag *t)
{
    double v[5];
    static const char *const names[] = { "event", "draw", "t", "x1", "x2" };
    int rc;
    if (ev->has_gaps) return BAD_AT(r, t->line, "a second <gaps> in one event");
    for (int k = 0; k < 5; ++k)
        if ((rc = tag_attr_real(r, t, names[k], &v[k])) < 0) return rc;
    if (!(v[0] >= 0.0 && v[0] < 9.2e18 && v[0] == floor(v[0])))
        return BAD_AT(r, t->line, "<gaps>: event must be an integer from 0");
    if (!(v[1] >= 0.0 && v[1] <= 4294967295.0 && v[1] == floor(v[1])))
        return BAD_AT(r, t->line, "<gaps>: draw must be an integer from 0 to 2^32 - 1");
    if (!(v[2] >= 0.0) || !(v[3] >= 0.0 && v[3] <= 1.0) || !(v[4] >= 0.0 && v[4] <= 1.0))
        return BAD_AT(r, t->line, "<gaps>: t must be >= 0 and x1, x2 in [0, 1]");
    ev->has_gaps = 1;
    ev->gaps_event = (long long)v[0];
    ev->gaps_draw = (unsigned)v[1];
    ev->gaps_t = v[2];
    ev->gaps_x[0] = v[3];
    ev->gaps_x[1] = v[4];
    ev->gaps_line = t->line;
    return 0;
}

/* The header is free text to a reader (cards, comments, CDATA): only its weight
 * declarations are read, and </header> must come before any structural tag.  0, or an
 * error. */
static int read_header(gaps_lhe_reader *r, const tag *open)
{
    int rc;
    for (;;) {
        const char *lt = strchr(r->line + r->pos, '<');
        if (!lt) {
            if ((rc = next_line(r)) < 0) return rc;
            if (rc == 0) return ends_inside(r, "<header>", open->line);
            continue;
        }
        r->pos = (size_t)(lt - r->line);
        if ((rc = skip_markup(r)) < 0) return rc;
        if (rc) continue;
        tag t;
        if (at_tag(r, "/header")) {
            return read_tag(r, &t) < 0 ? r->error : 0;
        } else if (at_tag(r, "initrwgt")) {
            if ((rc = read_tag(r, &t)) < 0) return rc;
            if (!t.empty && (rc = read_initrwgt(r, &t)) < 0) return rc;
        } else if (at_tag(r, "generator")) {   /* LHEF 3.0 has it in <init>; some write it here */
            if ((rc = read_tag(r, &t)) < 0) return rc;
            if (!t.closing && (rc = read_generator(r, &t)) < 0) return rc;
        } else if (at_tag(r, "gaps")) {   /* a file gaps wrote (--lhe-out) */
            if ((rc = read_tag(r, &t)) < 0) return rc;
            if (!t.closing && (rc = read_gaps_header(r, &t)) < 0) return rc;
        } else if (at_tag(r, "init") || at_tag(r, "event") || at_tag(r, "/LesHouchesEvents")
                   || at_tag(r, "LesHouchesEvents") || at_tag(r, "header")) {
            if ((rc = read_tag(r, &t)) < 0) return rc;
            return BAD(r, "<header> (line %ld) is not closed: <%s%s> comes before its "
                          "</header>", open->line, t.closing ? "/" : "", t.name);
        } else {
            ++r->pos;   /* anything else in the header is the generator's business */
        }
    }
}

/* Up to and including the opening <LesHouchesEvents version="...">.  0, or an error. */
static int read_opening(gaps_lhe_reader *r)
{
    char ex[48];
    int rc;
    for (;;) {
        if ((rc = skip_space(r)) < 0) return rc;
        if (rc == 0)
            return BAD(r, "%s: not a Les Houches Event file (no <LesHouchesEvents> tag)",
                       r->lineno == 0 ? "the file is empty" : "the file has only blank lines");
        if (r->line[r->pos] != '<')
            return BAD(r, "not a Les Houches Event file: it starts with '%s', not with "
                          "<LesHouchesEvents version=\"...\">",
                       excerpt(r->line + r->pos, r->len - r->pos, ex, sizeof ex));
        if ((rc = skip_markup(r)) < 0) return rc;
        if (rc) continue;
        tag t;
        if ((rc = read_tag(r, &t)) < 0) return rc;
        if (strcmp(t.name, "LesHouchesEvents") != 0 || t.closing || t.empty)
            return BAD(r, "not a Les Houches Event file: its first tag is <%s%s>, not "
                          "<LesHouchesEvents version=\"...\">", t.closing ? "/" : "", t.name);
        char v[16];
        if ((rc = tag_attr(r, &t, "version", v, sizeof v)) < 0) return rc;
        if (rc == 0) return BAD(r, "<LesHouchesEvents> without version=\"...\"");
        if (strcmp(v, "1.0") && strcmp(v, "2.0") && strcmp(v, "3.0"))
            return BAD(r, "LHEF version \"%s\" is not read (1.0, 2.0 and 3.0 are)", v);
        memcpy(r->init.version, v, sizeof "1.0");   /* one of the three above */
        return 0;
    }
}

/* ------------------------------------------------------------------------------------ */
/* <init> */

const char *gaps_lhe_beam_name(int id)
{
    switch (id) {
    case 2212: return "p";
    case -2212: return "pbar";
    case 2112: return "n";
    case -2112: return "nbar";
    case 11: return "e-";
    case -11: return "e+";
    case 13: return "mu-";
    case -13: return "mu+";
    case 22: return "gamma";
    default: break;
    }
    if (id >= 1000000000 && id <= 1099999999) {
        const int z = id / 10000 % 1000, a = id / 10 % 1000;
        if (a >= 1 && z <= a) return "nucleus";
    }
    return NULL;
}

/* The first line of <init>, its processes, then its optional tags up to </init>.  0, or an
 * error. */
static int read_init(gaps_lhe_reader *r, const tag *open)
{
    gaps_lhe_init *in = &r->init;
    char ex[48];
    int rc;
    in->init_line = open->line;
    if (!rest_is_blank(r))
        return BAD(r, "text after <init> on its line: '%s' (the numbers go on the next line)",
                   excerpt(r->line + r->pos, r->len - r->pos, ex, sizeof ex));
    if ((rc = next_content_line(r)) < 0) return rc;
    if (rc == 0) return ends_inside(r, "<init>", open->line);
    if (r->line[r->pos] == '<')
        return BAD(r, "<init> (line %ld) has no line IDBMUP(1,2) EBMUP(1,2) PDFGUP(1,2) "
                      "PDFSUP(1,2) IDWTUP NPRUP", open->line);
    static const char *const names[] = {"IDBMUP(1)", "IDBMUP(2)", "EBMUP(1)", "EBMUP(2)",
                                        "PDFGUP(1)", "PDFGUP(2)", "PDFSUP(1)", "PDFSUP(2)",
                                        "IDWTUP", "NPRUP"};
    void *const out[] = {&in->beam_id[0], &in->beam_id[1], &in->beam_energy[0],
                         &in->beam_energy[1], &in->pdf_group[0], &in->pdf_group[1],
                         &in->pdf_set[0], &in->pdf_set[1], &in->weighting, &in->n_processes};
    if ((rc = parse_numbers(r, "the first line of <init>", 0, "iiddiiiiii", names, out)) < 0)
        return rc;
    for (int b = 0; b < 2; ++b) {
        if (!gaps_lhe_beam_name(in->beam_id[b]))
            return BAD(r, "IDBMUP(%d) = %d is not a beam particle this reader knows (p, n and "
                          "their antiparticles 2212 2112, e+- 11, mu+- 13, gamma 22, nuclei "
                          "10LZZZAAAI)", b + 1, in->beam_id[b]);
        if (!(in->beam_energy[b] > 0.0))
            return BAD(r, "EBMUP(%d) = %.10g GeV: a beam energy must be positive", b + 1,
                       in->beam_energy[b]);
    }
    in->sqrt_s = 2.0 * sqrt(in->beam_energy[0] * in->beam_energy[1]);
    const int w = in->weighting;
    if (w != 3 && w != -3 && w != 4 && w != -4)
        return BAD(r, "IDWTUP = %d is not read: gaps takes events whose XWGTUP is their weight, "
                      "IDWTUP +-3 (unweighted) or +-4 (weighted); +-1 and +-2 leave the "
                      "unweighting to the reader", w);
    if (in->n_processes < 1 || in->n_processes > GAPS_LHE_MAX_PROCESSES)
        return BAD(r, "NPRUP = %d: the number of processes must be 1 to %d", in->n_processes,
                   GAPS_LHE_MAX_PROCESSES);
    static const char *const pnames[] = {"XSECUP", "XERRUP", "XMAXUP", "LPRUP"};
    for (int k = 0; k < in->n_processes; ++k) {
        if ((rc = next_content_line(r)) < 0) return rc;
        if (rc == 0) return ends_inside(r, "<init>", open->line);
        if (r->line[r->pos] == '<' || r->line[r->pos] == '#')
            return BAD(r, "<init> has %d process lines, NPRUP = %d", k, in->n_processes);
        gaps_lhe_process *p = &in->process[k];
        void *const pout[] = {&p->xsec, &p->xerr, &p->xmax, &p->id};
        char what[48];
        snprintf(what, sizeof what, "process line %d of <init>", k + 1);
        if ((rc = parse_numbers(r, what, 0, "dddi", pnames, pout)) < 0) return rc;
        if (p->xerr < 0.0) return BAD(r, "%s: XERRUP = %.10g is negative", what, p->xerr);
        for (int j = 0; j < k; ++j)
            if (in->process[j].id == p->id)
                return BAD(r, "%s: LPRUP = %d is also process %d's", what, p->id, j + 1);
    }
    /* LHEF 2.0 and 3.0 tags (and comment lines) up to </init> */
    int group = -1;
    long group_line = 0;
    for (;;) {
        if ((rc = skip_space(r)) < 0) return rc;
        if (rc == 0) return ends_inside(r, "<init>", open->line);
        const char c = r->line[r->pos];
        if (c == '#') {
            r->pos = r->len;
            continue;
        }
        if (c != '<') {
            if ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.')
                return BAD(r, "more process lines in <init> than NPRUP = %d", in->n_processes);
            return BAD(r, "text in <init> outside any tag: '%s'",
                       excerpt(r->line + r->pos, r->len - r->pos, ex, sizeof ex));
        }
        if ((rc = skip_markup(r)) < 0) return rc;
        if (rc) continue;
        tag t;
        if ((rc = read_tag(r, &t)) < 0) return rc;
        if (strcmp(t.name, "init") == 0 && t.closing) {
            if (group >= 0)
                return BAD(r, "<weightgroup> (line %ld) is not closed before </init>",
                           group_line);
            return 0;
        }
        if ((rc = weight_declaration(r, &t, &group, &group_line)) < 0) return rc;
        if (rc) continue;
        if (structural(&t))
            return BAD(r, "<init> (line %ld) is not closed: <%s%s> comes before its </init>",
                       open->line, t.closing ? "/" : "", t.name);
        if (t.closing) return BAD(r, "</%s> without its <%s>", t.name, t.name);
        if (strcmp(t.name, "initrwgt") == 0) {
            if (!t.empty && (rc = read_initrwgt(r, &t)) < 0) return rc;
            continue;
        }
        if (strcmp(t.name, "generator") == 0 && (rc = read_generator(r, &t)) < 0) return rc;
        if (!t.empty && (rc = skip_element(r, &t)) < 0) return rc;
    }
}

/* ------------------------------------------------------------------------------------ */
/* opening and closing */

static gaps_lhe_reader *open_reader(const char *path, int *status, char *msg, size_t len)
{
    gaps_lhe_reader *r = calloc(1, sizeof *r);
    char *line = malloc(GAPS_LHE_LINE_MAX + 1);
    if (!r || !line) {
        free(r);
        free(line);
        *status = GAPS_LHE_FAILED;
        snprintf(msg, len, "out of memory for the event file reader");
        return NULL;
    }
    r->line = line;
    r->line[0] = '\0';
    r->fd = -1;
    r->view = r->out;
    if (strcmp(path, "-") == 0) {
        snprintf(r->shown, sizeof r->shown, "standard input");
    } else {
        size_t head, tail;
        const size_t n = strlen(path);
        if (gaps_shown_path_cut(path, n, &head, &tail))
            snprintf(r->shown, sizeof r->shown, "%.*s...%s", (int)head, path, path + tail);
        else
            snprintf(r->shown, sizeof r->shown, "%s", path);
        gaps_one_line(r->shown);
    }
    for (int k = 0; k < GAPS_LHE_MAX_WEIGHTS; ++k) r->init.weight_group[k] = -1;
    int rc = 0;
    if (strcmp(path, "-") == 0) {
        r->fd = 0;
    } else {
        /* non-blocking: a FIFO opens at once, without waiting for its writer (read_some
         * waits for it); O_NOCTTY: a terminal named here never becomes ours */
        r->fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
        struct stat st;
        if (r->fd < 0) {
            const int e = errno;
            rc = fail_at(r, e == EMFILE || e == ENFILE || e == ENOMEM ? GAPS_LHE_FAILED
                                                                       : GAPS_LHE_INVALID,
                         -1, "cannot open: %s", strerror(e));
        } else if (fstat(r->fd, &st) != 0) {
            rc = fail_at(r, GAPS_LHE_FAILED, -1, "cannot read its type: %s", strerror(errno));
        } else if (S_ISFIFO(st.st_mode)) {
            r->own_fd = r->fifo = 1;
        } else if (!S_ISREG(st.st_mode)) {
            r->own_fd = 1;
            rc = fail_at(r, GAPS_LHE_INVALID, -1, "is %s, not a file, FIFO or '-' (standard "
                                                 "input)",
                         S_ISDIR(st.st_mode) ? "a directory" : S_ISCHR(st.st_mode)
                         ? "a character device" : S_ISBLK(st.st_mode) ? "a block device"
                         : S_ISSOCK(st.st_mode) ? "a socket" : "not a regular file");
        } else {
            r->own_fd = 1;
            const int flags = fcntl(r->fd, F_GETFL);
            if (flags >= 0) (void)fcntl(r->fd, F_SETFL, flags & ~O_NONBLOCK);
        }
    }
    tag t;
    if (rc == 0) rc = sniff(r);
    if (rc == 0) rc = read_opening(r);
    /* comments and the header, then <init> */
    while (rc == 0) {
        char ex[48];
        if ((rc = skip_space(r)) < 0) break;
        if (rc == 0) {
            rc = BAD(r, "the file ends before its <init> block: it is truncated");
            break;
        }
        if (r->line[r->pos] != '<') {
            rc = BAD(r, "text outside any tag: '%s' (expected <header> or <init>)",
                     excerpt(r->line + r->pos, r->len - r->pos, ex, sizeof ex));
            break;
        }
        if ((rc = skip_markup(r)) < 0) break;
        if (rc) {
            rc = 0;
            continue;
        }
        if ((rc = read_tag(r, &t)) < 0) break;
        if (strcmp(t.name, "header") == 0 && !t.closing) {
            if (!t.empty) rc = read_header(r, &t);
        } else if (strcmp(t.name, "init") == 0 && !t.closing && !t.empty) {
            rc = read_init(r, &t);
            break;
        } else {
            rc = BAD(r, "expected <header> or <init>, found <%s%s>", t.closing ? "/" : "",
                     t.name);
        }
    }
    if (rc < 0) {
        *status = rc;
        snprintf(msg, len, "%s", r->message);
        gaps_lhe_close(r);
        return NULL;
    }
    *status = 0;
    return r;
}

/* The numbers are read with strtod, in the C locale whatever the caller's (io/c_locale.h). */
gaps_lhe_reader *gaps_lhe_open(const char *path, int *status, char *msg, size_t len)
{
    const gaps_c_locale saved = gaps_c_locale_enter();
    gaps_lhe_reader *r = open_reader(path, status, msg, len);
    gaps_c_locale_leave(saved);
    return r;
}

const gaps_lhe_init *gaps_lhe_init_of(const gaps_lhe_reader *r)
{
    return &r->init;
}

const char *gaps_lhe_shown_name(const gaps_lhe_reader *r)
{
    return r->shown;
}

void gaps_lhe_close(gaps_lhe_reader *r)
{
    if (!r) return;
    if (r->z_ready) inflateEnd(&r->z);
    if (r->own_fd && r->fd >= 0) close(r->fd);
    if (r->text_owned) free(r->text);
    free(r->carry);
    free(r->line);
    free(r);
}

/* ------------------------------------------------------------------------------------ */
/* the weights of an event */

/* Weight `id` (NULL: the next of a <weights> list) = v in *ev; k counts this event's
 * weights so far.  0, or an error. */
static int store_weight(gaps_lhe_reader *r, gaps_lhe_event *ev, const char *id, double v, int k)
{
    gaps_lhe_init *in = &r->init;
    int idx;
    if (!id) {
        if (k >= GAPS_LHE_MAX_WEIGHTS)
            return BAD(r, "more than %d weights in <weights>: this reader keeps at most %d",
                       GAPS_LHE_MAX_WEIGHTS, GAPS_LHE_MAX_WEIGHTS);
        idx = k;
    } else {
        idx = find_weight(in, id, k);
        if (idx < 0) {
            if (r->declared)
                return BAD(r, "weight id '%s' is not declared in the header's <initrwgt>", id);
            if (r->events > 0)
                return BAD(r, "weight id '%s' is not among the first event's weights", id);
            if ((idx = add_weight(r, id, -1)) < 0) return idx;
            in->weight_names = GAPS_LHE_NAMES_FIRST_EVENT;
        }
        if (r->seen[idx]) return BAD(r, "weight id '%s' twice in one event", id);
        r->seen[idx] = 1;
    }
    ev->weights[idx] = v;
    return 0;
}

/* A number token at the cursor (up to white space or '<'), into *v.  0, or an error. */
static int weight_value(gaps_lhe_reader *r, const char *what, double *v)
{
    char ex[48];
    const char *t = r->line + r->pos, *p = t;
    while (*p && !is_space(*p) && *p != '<') ++p;
    const int rc = parse_real(t, (size_t)(p - t), v);
    if (rc == -2) return BAD(r, "%s = '%s' is not finite", what, excerpt(t, (size_t)(p - t), ex, sizeof ex));
    if (rc != 0) return BAD(r, "%s = '%s' is not a number", what, excerpt(t, (size_t)(p - t), ex, sizeof ex));
    r->pos = (size_t)(p - r->line);
    return 0;
}

/* After <rwgt>: <wgt id="...">w</wgt> ... </rwgt>.  The number of weights, or an error. */
static int read_rwgt(gaps_lhe_reader *r, gaps_lhe_event *ev, const tag *open)
{
    int k = 0, rc;
    for (;;) {
        if ((rc = skip_space(r)) < 0) return rc;
        if (rc == 0) return ends_inside(r, "<rwgt>", open->line);
        if (r->line[r->pos] != '<')
            return BAD(r, "text in <rwgt> outside a <wgt> (line %ld)", open->line);
        if ((rc = skip_markup(r)) < 0) return rc;
        if (rc) continue;
        tag t;
        if ((rc = read_tag(r, &t)) < 0) return rc;
        if (t.closing && strcmp(t.name, "rwgt") == 0) return k;
        if (t.closing || t.empty || strcmp(t.name, "wgt") != 0)
            return BAD(r, "<%s%s%s> in <rwgt> (line %ld), where only <wgt id=\"...\">w</wgt> "
                          "and </rwgt> belong", t.closing ? "/" : "", t.name,
                       t.empty ? "/" : "", open->line);
        char id[GAPS_LHE_NAME_MAX], what[GAPS_LHE_NAME_MAX + 16];
        if ((rc = tag_attr(r, &t, "id", id, sizeof id)) < 0) return rc;
        if (rc == 0) return BAD(r, "<wgt> without id=\"...\"");
        snprintf(what, sizeof what, "weight '%s'", id);
        double v;
        if ((rc = skip_space(r)) < 0) return rc;
        if (rc == 0) return ends_inside(r, "<wgt>", t.line);
        if ((rc = weight_value(r, what, &v)) < 0) return rc;
        if ((rc = skip_space(r)) < 0) return rc;
        if (rc == 0) return ends_inside(r, "<wgt>", t.line);
        tag c;
        if (r->line[r->pos] != '<' || (rc = read_tag(r, &c)) < 0 || !c.closing
            || strcmp(c.name, "wgt") != 0)
            return r->error ? r->error
                            : BAD(r, "<wgt id=\"%s\"> (line %ld) holds more than one number, "
                                     "or its </wgt> is missing", id, t.line);
        if ((rc = store_weight(r, ev, id, v, k)) < 0) return rc;
        ++k;
    }
}

/* After <weights>: numbers up to </weights>.  The number of weights, or an error. */
static int read_weight_list(gaps_lhe_reader *r, gaps_lhe_event *ev, const tag *open)
{
    int k = 0, rc;
    for (;;) {
        if ((rc = skip_space(r)) < 0) return rc;
        if (rc == 0)
            return ends_inside(r, "<weights>", open->line);
        if (r->line[r->pos] == '<') {
            if ((rc = skip_markup(r)) < 0) return rc;
            if (rc) continue;
            tag t;
            if ((rc = read_tag(r, &t)) < 0) return rc;
            if (t.closing && strcmp(t.name, "weights") == 0) return k;
            return BAD(r, "<%s%s> inside <weights> (line %ld), where only numbers belong",
                       t.closing ? "/" : "", t.name, open->line);
        }
        char what[32];
        double v;
        snprintf(what, sizeof what, "weight %d", k + 1);
        if ((rc = weight_value(r, what, &v)) < 0) return rc;
        if ((rc = store_weight(r, ev, NULL, v, k)) < 0) return rc;
        ++k;
    }
}

/* This event's weights against the file's: the same form and number in every event (the
 * first event's make the rule where the file declares no names).  0, or an error. */
static int check_weights(gaps_lhe_reader *r, const gaps_lhe_event *ev,
                         enum gaps_lhe_weight_form form, int count, long wline)
{
    gaps_lhe_init *in = &r->init;
    static const char *const form_name[] = {"no extra weights", "<rwgt>", "<weights>"};
    if (r->events == 0) {
        if (!r->declared) {
            in->weight_form = form;
            in->n_weights = count;   /* <rwgt>: the names were added as they came */
            return 0;
        }
        if (form == GAPS_LHE_WEIGHTS_NONE && in->n_weights > 0)
            return BAD_AT(r, ev->line, "the event has no weights, the file declares %d (%s)",
                          in->n_weights, in->weight_names == GAPS_LHE_NAMES_INITRWGT
                          ? "<initrwgt>" : "<weightinfo>");
        in->weight_form = form;
    } else if (form != in->weight_form) {
        return BAD_AT(r, ev->line, "this event has %s, the earlier ones had %s",
                      form_name[form], form_name[in->weight_form]);
    }
    if (count != in->n_weights) {
        if (form == GAPS_LHE_WEIGHTS_RWGT)
            for (int k = 0; k < in->n_weights; ++k)
                if (!r->seen[k])
                    return BAD_AT(r, wline, "the event's <rwgt> has %d of the %d weights: '%s' "
                                            "is missing", count, in->n_weights, in->weight_id[k]);
        return BAD_AT(r, form == GAPS_LHE_WEIGHTS_NONE ? ev->line : wline,
                      "the event has %d weights, %s %d", count,
                   r->declared ? "the file declares" : "the first event has", in->n_weights);
    }
    return 0;
}

/* ------------------------------------------------------------------------------------ */
/* the checks of an event */

static int is_quark(int id) { return id != 0 && id >= -6 && id <= 6; }
static int is_coloured(int id) { return is_quark(id) || id == 21; }

/* An occurrence of a colour tag among the incoming and final-state particles, as an
 * outgoing colour (+1) or anticolour (-1). */
typedef struct colour_end {
    int tag, sense, particle;
} colour_end;

static int by_tag(const void *a, const void *b)
{
    const colour_end *x = a, *y = b;
    if (x->tag != y->tag) return x->tag < y->tag ? -1 : 1;
    return x->particle < y->particle ? -1 : x->particle > y->particle;
}

/* Each particle alone: code, status, mothers, colour tags for its kind.  0, or an error. */
static int check_particles(gaps_lhe_reader *r, const gaps_lhe_event *ev)
{
    const int n = ev->n;
    for (int i = 0; i < n; ++i) {
        const gaps_lhe_particle *p = &ev->particle[i];
        const long line = p->line;
        const int s = p->status;
        if (p->id == 0) return BAD_AT(r, line, "particle %d: IDUP = 0 is no particle", i + 1);
        if (s != -1 && s != 1 && s != 2 && s != 3 && s != -2 && s != -9)
            return BAD_AT(r, line, "particle %d: ISTUP = %d is not a status of the accord "
                                   "(-1 incoming, 1 final, 2 and 3 intermediate, -2 space-like, "
                                   "-9 beam)", i + 1, s);
        for (int m = 0; m < 2; ++m) {
            const int mo = p->mother[m];
            if (mo < 0 || mo > n)
                return BAD_AT(r, line, "particle %d: MOTHUP(%d) = %d is outside the event's "
                                       "particles 1..%d", i + 1, m + 1, mo, n);
            if (mo == i + 1)
                return BAD_AT(r, line, "particle %d is its own mother", i + 1);
            if (mo > 0 && ev->particle[mo - 1].status == 1)
                return BAD_AT(r, line, "particle %d: its mother %d is a final-state particle "
                                       "(status 1)", i + 1, mo);
            if (mo > 0 && s == -1 && ev->particle[mo - 1].status != -9)
                return BAD_AT(r, line, "particle %d is incoming (status -1) but has mother %d",
                              i + 1, mo);
        }
        if (p->mother[0] == 0 && p->mother[1] != 0)
            return BAD_AT(r, line, "particle %d: MOTHUP(2) = %d with MOTHUP(1) = 0", i + 1,
                          p->mother[1]);
        if (p->mother[1] != 0 && p->mother[1] < p->mother[0])
            return BAD_AT(r, line, "particle %d: MOTHUP(2) = %d is below MOTHUP(1) = %d (a "
                                   "range of mothers)", i + 1, p->mother[1], p->mother[0]);
        const int c = p->colour[0], a = p->colour[1];
        if (c < 0 || a < 0)
            return BAD_AT(r, line, "particle %d: negative colour tag %d (the sextet convention; "
                                   "colour sextets are not read)", i + 1, c < 0 ? c : a);
        if ((c || a) && !is_coloured(p->id))
            return BAD_AT(r, line, "particle %d: PDG %d has colour tags %d %d, but only quarks "
                                   "(1 to 6) and gluons (21) are coloured here", i + 1, p->id,
                          c, a);
        if (is_quark(p->id) && p->id > 0 && (c == 0 || a != 0))
            return BAD_AT(r, line, "particle %d: a quark (PDG %d) has colour tags %d %d, not "
                                   "one colour and no anticolour", i + 1, p->id, c, a);
        if (is_quark(p->id) && p->id < 0 && (c != 0 || a == 0))
            return BAD_AT(r, line, "particle %d: an antiquark (PDG %d) has colour tags %d %d, "
                                   "not one anticolour and no colour", i + 1, p->id, c, a);
        if (p->id == 21 && (c == 0 || a == 0 || c == a))
            return BAD_AT(r, line, "particle %d: a gluon has colour tags %d %d, not two "
                                   "different ones", i + 1, c, a);
    }
    return 0;
}

/* Colour lines among the incoming and final-state particles.  An incoming colour counts as
 * an outgoing anticolour and the other way round; then every tag must appear exactly twice,
 * once as a colour and once as an anticolour.  A tag on three particles in one sense is an
 * epsilon tensor: valid, and *epsilon is set (the shower cannot take it).  ends has room for
 * 2 n entries.  0, or an error. */
static int check_colour_lines(gaps_lhe_reader *r, const gaps_lhe_event *ev, colour_end *ends,
                              int *epsilon)
{
    int m = 0;
    *epsilon = 0;
    for (int i = 0; i < ev->n; ++i) {
        const gaps_lhe_particle *p = &ev->particle[i];
        if (p->status != -1 && p->status != 1) continue;
        const int flip = p->status == -1 ? -1 : 1;
        if (p->colour[0]) ends[m++] = (colour_end){p->colour[0], flip, i};
        if (p->colour[1]) ends[m++] = (colour_end){p->colour[1], -flip, i};
    }
    qsort(ends, (size_t)m, sizeof *ends, by_tag);
    for (int k = 0; k < m;) {
        int j = k, sum = 0;
        while (j < m && ends[j].tag == ends[k].tag) sum += ends[j++].sense;
        const int count = j - k;
        const gaps_lhe_particle *first = &ev->particle[ends[k].particle];
        if (count == 1)
            return BAD_AT(r, first->line, "colour tag %d appears on particle %d only: a colour "
                                          "line without its other end", ends[k].tag,
                          ends[k].particle + 1);
        if (count == 2 && sum != 0)
            return BAD_AT(r, first->line, "colour tag %d is an outgoing %s of both particles %d "
                                          "and %d (an incoming colour counts as an outgoing "
                                          "anticolour): a colour line joins a colour to an "
                                          "anticolour", ends[k].tag,
                          sum > 0 ? "colour" : "anticolour", ends[k].particle + 1,
                          ends[k + 1].particle + 1);
        if (count == 3 && (sum == 3 || sum == -3)) *epsilon = 1;
        else if (count > 2)
            return BAD_AT(r, first->line, "colour tag %d appears %d times (first on particle "
                                          "%d): a tag joins two ends, or three of one sense",
                          ends[k].tag, count, ends[k].particle + 1);
        k = j;
    }
    return 0;
}

/* Whether particle j (0-based) is a daughter of particle i (0-based). */
static int daughter_of(const gaps_lhe_particle *pj, int i)
{
    const int m1 = pj->mother[0], m2 = pj->mother[1], mo = i + 1;
    if (m1 == 0) return 0;
    return m2 == 0 ? m1 == mo : m1 <= mo && mo <= m2;
}

/* Each intermediate resonance (status 2 or 3) has decay products, and without an epsilon
 * tensor its colour flows into them: the tags its products leave open (those not joining
 * two of them) are its own colour and anticolour.  0, or an error. */
static int check_resonances(gaps_lhe_reader *r, const gaps_lhe_event *ev, colour_end *ends,
                            int epsilon)
{
    for (int i = 0; i < ev->n; ++i) {
        const gaps_lhe_particle *res = &ev->particle[i];
        if (res->status != 2 && res->status != 3) continue;
        int m = 0, products = 0;
        for (int j = 0; j < ev->n; ++j) {
            const gaps_lhe_particle *d = &ev->particle[j];
            if (j == i || !daughter_of(d, i)) continue;
            ++products;
            if (d->colour[0]) ends[m++] = (colour_end){d->colour[0], 1, j};
            if (d->colour[1]) ends[m++] = (colour_end){d->colour[1], -1, j};
        }
        if (products == 0)
            return BAD_AT(r, res->line, "particle %d (PDG %d) has status %d (an intermediate "
                                        "resonance) but no particle has it as mother", i + 1,
                          res->id, res->status);
        if (epsilon) continue;
        qsort(ends, (size_t)m, sizeof *ends, by_tag);
        int open_c = 0, open_a = 0, n_c = 0, n_a = 0;
        for (int k = 0; k < m;) {
            int j = k, sum = 0;
            while (j < m && ends[j].tag == ends[k].tag) sum += ends[j++].sense;
            if (sum > 0) open_c = ends[k].tag, n_c += sum;
            if (sum < 0) open_a = ends[k].tag, n_a -= sum;
            k = j;
        }
        const int c = res->colour[0], a = res->colour[1];
        if (n_c != (c != 0) || n_a != (a != 0) || (c && open_c != c) || (a && open_a != a))
            return BAD_AT(r, res->line, "colour does not flow through particle %d (PDG %d, "
                                        "colour tags %d %d) into its decay products: they "
                                        "leave %d colour%s and %d anticolour%s open",
                          i + 1, res->id, c, a, n_c, n_c == 1 ? "" : "s", n_a,
                          n_a == 1 ? "" : "s");
    }
    return 0;
}

/* The incoming (status -1) minus the final-state (status 1) four-momenta, relative to the
 * incoming energy.  0, or an error. */
static int check_balance(gaps_lhe_reader *r, const gaps_lhe_event *ev)
{
    double d[4] = {0, 0, 0, 0}, e_in = 0.0;
    int incoming = 0, final = 0;
    for (int i = 0; i < ev->n; ++i) {
        const gaps_lhe_particle *p = &ev->particle[i];
        if (p->status == -1) {
            ++incoming;
            e_in += p->p[3];
            for (int k = 0; k < 4; ++k) d[k] += p->p[k];
        } else if (p->status == 1) {
            ++final;
            for (int k = 0; k < 4; ++k) d[k] -= p->p[k];
        }
    }
    if (incoming < 1 || incoming > 2)
        return BAD_AT(r, r->info_line, "the event has %d incoming particles (status -1): one "
                                       "(a decay) or two (a collision)", incoming);
    if (final == 0)
        return BAD_AT(r, r->info_line, "the event has no final-state particle (status 1)");
    if (!(e_in > 0.0))
        return BAD_AT(r, r->info_line, "the incoming energy is %.10g GeV, not positive", e_in);
    double worst = 0.0;
    for (int k = 0; k < 4; ++k) worst = fmax(worst, fabs(d[k]));
    if (!(worst <= BALANCE_TOLERANCE * e_in))
        return BAD_AT(r, r->info_line, "momentum is not conserved: incoming minus final-state "
                                       "(px, py, pz, E) = (%.6g, %.6g, %.6g, %.6g) GeV, beyond "
                                       "%g of the incoming energy %.10g GeV",
                      d[0], d[1], d[2], d[3], BALANCE_TOLERANCE, e_in);
    return 0;
}

/* Everything that makes an event valid, in the order of doc/formats.md.  0, or an error. */
static int check_event(gaps_lhe_reader *r, const gaps_lhe_event *ev)
{
    const gaps_lhe_init *in = &r->init;
    int known = 0;
    for (int k = 0; k < in->n_processes; ++k) known |= in->process[k].id == ev->process_id;
    if (!known)
        return BAD_AT(r, r->info_line, "IDPRUP = %d is none of the processes of <init> (LPRUP "
                                       "%d%s)", ev->process_id, in->process[0].id,
                      in->n_processes > 1 ? ", ..." : "");
    if (in->weighting > 0 && ev->weight < 0.0)
        return BAD_AT(r, r->info_line, "negative weight XWGTUP = %.10g with IDWTUP = %d "
                                       "(negative weights need IDWTUP = %d)", ev->weight,
                      in->weighting, -in->weighting);
    int rc, epsilon;
    colour_end ends[2 * GAPS_LHE_MAX_PARTICLES];
    if ((rc = check_particles(r, ev)) < 0) return rc;
    if ((rc = check_colour_lines(r, ev, ends, &epsilon)) < 0) return rc;
    if ((rc = check_resonances(r, ev, ends, epsilon)) < 0) return rc;
    return check_balance(r, ev);
}

/* ------------------------------------------------------------------------------------ */
/* <event> */

/* After the <event> tag: its first line, NUP particle lines, then optional weights, other
 * elements and comment lines up to </event>.  0, or an error. */
static int read_event(gaps_lhe_reader *r, gaps_lhe_event *ev, const tag *open)
{
    char ex[48];
    int rc;
    ev->number = r->events;
    ev->line = open->line;
    ev->n_weights = 0;
    ev->has_gaps = 0;
    if (!rest_is_blank(r))
        return BAD(r, "text after <event> on its line: '%s' (the numbers go on the next line)",
                   excerpt(r->line + r->pos, r->len - r->pos, ex, sizeof ex));
    if ((rc = next_content_line(r)) < 0) return rc;
    if (rc == 0) return ends_inside(r, "<event>", open->line);
    r->info_line = r->lineno;
    if (r->line[r->pos] == '<' || r->line[r->pos] == '#')
        return BAD(r, "<event> (line %ld) has no line NUP IDPRUP XWGTUP SCALUP AQEDUP AQCDUP",
                   open->line);
    static const char *const names[] = {"NUP", "IDPRUP", "XWGTUP", "SCALUP", "AQEDUP",
                                        "AQCDUP"};
    void *const out[] = {&ev->n, &ev->process_id, &ev->weight, &ev->scale, &ev->alpha_qed,
                         &ev->alpha_qcd};
    if ((rc = parse_numbers(r, "the event's first line", 0, "iidddd", names, out)) < 0) return rc;
    if (ev->n < 1)
        return BAD(r, "NUP = %d: an event has at least one particle", ev->n);
    if (ev->n > GAPS_LHE_MAX_PARTICLES)
        return BAD(r, "NUP = %d: more particles than this reader takes (%d)", ev->n,
                   GAPS_LHE_MAX_PARTICLES);
    static const char *const pnames[] = {"IDUP", "ISTUP", "MOTHUP(1)", "MOTHUP(2)",
                                         "ICOLUP(1)", "ICOLUP(2)", "PUP(1)", "PUP(2)",
                                         "PUP(3)", "PUP(4)", "PUP(5)", "VTIMUP", "SPINUP"};
    for (int i = 0; i < ev->n; ++i) {
        gaps_lhe_particle *p = &ev->particle[i];
        if ((rc = next_content_line(r)) < 0) return rc;
        if (rc == 0) return ends_inside(r, "<event>", open->line);
        if (r->line[r->pos] == '<' || r->line[r->pos] == '#')
            return BAD(r, "the event (line %ld) has %d particle lines, NUP = %d", open->line, i,
                       ev->n);
        void *const pout[] = {&p->id, &p->status, &p->mother[0], &p->mother[1], &p->colour[0],
                              &p->colour[1], &p->p[0], &p->p[1], &p->p[2], &p->p[3],
                              &p->mass, &p->lifetime, &p->spin};
        if ((rc = parse_numbers(r, "particle", i + 1, "iiiiiiddddddd", pnames, pout)) < 0)
            return rc;
        p->line = r->lineno;
    }
    /* what follows the particles */
    memset(r->seen, 0, sizeof r->seen);
    enum gaps_lhe_weight_form form = GAPS_LHE_WEIGHTS_NONE;
    int count = 0;
    long wline = 0;
    for (;;) {
        if ((rc = skip_space(r)) < 0) return rc;
        if (rc == 0) return ends_inside(r, "<event>", open->line);
        const char c = r->line[r->pos];
        if (c == '#') {   /* a comment line (POWHEG-BOX, aMC@NLO write such) */
            r->pos = r->len;
            continue;
        }
        if (c != '<') {
            if ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.')
                return BAD(r, "more particle lines than NUP = %d (event at line %ld)", ev->n,
                           open->line);
            return BAD(r, "text in <event> outside any tag: '%s'",
                       excerpt(r->line + r->pos, r->len - r->pos, ex, sizeof ex));
        }
        if ((rc = skip_markup(r)) < 0) return rc;
        if (rc) continue;
        tag t;
        if ((rc = read_tag(r, &t)) < 0) return rc;
        if (t.closing && strcmp(t.name, "event") == 0) break;
        if (structural(&t))
            return BAD(r, "<event> (line %ld) is not closed: <%s%s> comes before its </event>",
                       open->line, t.closing ? "/" : "", t.name);
        if (t.closing) return BAD(r, "</%s> without its <%s>", t.name, t.name);
        const int rw = strcmp(t.name, "rwgt") == 0, wl = strcmp(t.name, "weights") == 0;
        if ((rw || wl) && form != GAPS_LHE_WEIGHTS_NONE)
            return BAD(r, "a second set of weights (<%s>) in one event", t.name);
        if (rw || wl) wline = t.line;
        if (rw) {
            form = GAPS_LHE_WEIGHTS_RWGT;
            if (!t.empty && (count = read_rwgt(r, ev, &t)) < 0) return count;
        } else if (wl) {
            form = GAPS_LHE_WEIGHTS_LIST;
            if (!t.empty && (count = read_weight_list(r, ev, &t)) < 0) return count;
        } else if (strcmp(t.name, "gaps") == 0) {
            if ((rc = read_gaps_event(r, ev, &t)) < 0) return rc;
            if (!t.empty && (rc = skip_element(r, &t)) < 0) return rc;
        } else if (!t.empty && (rc = skip_element(r, &t)) < 0) {
            return rc;
        }
    }
    if ((rc = check_weights(r, ev, form, count, wline)) < 0) return rc;
    ev->n_weights = r->init.n_weights;
    if ((rc = check_event(r, ev)) < 0) return rc;
    r->events++;
    return 0;
}

static int next_event(gaps_lhe_reader *r, gaps_lhe_event *ev, char *msg, size_t len)
{
    int rc = 0;
    char ex[48];
    while (!r->error && !r->ended) {
        if ((rc = skip_space(r)) < 0) break;
        if (rc == 0 && r->text_only && !r->piece_last) return GAPS_LHE_END;   /* a piece's end */
        if (rc == 0) {
            if (r->in_group)
                ends_inside(r, "<eventgroup>", r->group_line);
            else
                BAD(r, "the file ends after %ld events without </LesHouchesEvents>: it is "
                       "truncated", r->events);
            break;
        }
        if (r->line[r->pos] != '<') {
            BAD(r, "text between events: '%s'",
                excerpt(r->line + r->pos, r->len - r->pos, ex, sizeof ex));
            break;
        }
        if ((rc = skip_markup(r)) < 0) break;
        if (rc) continue;
        tag t;
        if (read_tag(r, &t) < 0) break;
        if (strcmp(t.name, "event") == 0 && !t.closing && !t.empty) {
            if (read_event(r, ev, &t) < 0) break;
            return GAPS_LHE_EVENT;
        } else if (strcmp(t.name, "eventgroup") == 0 && !t.closing) {
            if (r->in_group)
                BAD(r, "<eventgroup> inside the <eventgroup> of line %ld", r->group_line);
            r->in_group = !t.empty;
            r->group_line = r->piece_group_line = t.line;
        } else if (strcmp(t.name, "eventgroup") == 0) {
            if (!r->in_group) BAD(r, "</eventgroup> without its <eventgroup>");
            r->in_group = 0;
        } else if (strcmp(t.name, "LesHouchesEvents") == 0 && t.closing) {
            if (r->in_group) {
                BAD(r, "<eventgroup> (line %ld) is not closed before </LesHouchesEvents>",
                    r->group_line);
                break;
            }
            /* nothing but white space and comments after the end */
            while ((rc = skip_space(r)) > 0) {
                if (r->line[r->pos] == '<' && (rc = skip_markup(r)) != 0) {
                    if (rc < 0) break;
                    continue;
                }
                BAD(r, "text after </LesHouchesEvents>: '%s' (two files joined into one?)",
                    excerpt(r->line + r->pos, r->len - r->pos, ex, sizeof ex));
                break;
            }
            if (rc == 0) r->ended = 1;
        } else {
            BAD(r, "expected <event> or </LesHouchesEvents>, found <%s%s%s>",
                t.closing ? "/" : "", t.name, t.empty ? "/" : "");
        }
    }
    if (r->error) {
        snprintf(msg, len, "%s", r->message);
        return r->error;
    }
    return GAPS_LHE_END;
}

int gaps_lhe_read_event(gaps_lhe_reader *r, gaps_lhe_event *ev, char *msg, size_t len)
{
    const gaps_c_locale saved = gaps_c_locale_enter();
    const int rc = next_event(r, ev, msg, len);
    gaps_c_locale_leave(saved);
    return rc;
}

/* ------------------------------------------------------------------------------------ */
/* pieces, for parsing in parallel (lhe.h, "Reading in parallel") */

enum { LEX_NONE, LEX_COMMENT, LEX_CDATA, LEX_PI };
enum { PIECE_MAX = 64 << 20, READ_STEP = 1 << 20 };

long gaps_lhe_lines(const gaps_lhe_reader *r)
{
    return r->lineno;
}

long gaps_lhe_group_line(const gaps_lhe_reader *r)
{
    return r->group_line;
}

int gaps_lhe_carry_group(const gaps_lhe_reader *r)
{
    return r->carry_group;
}

int gaps_lhe_can_cut(gaps_lhe_reader *r)
{
    if (r->error || r->ended || r->text_only || r->text_pos != r->text_len || r->carry_len
        || !rest_is_blank(r))
        return 0;
    r->carry_group = r->lex_group = r->in_group;
    return 1;
}

/* Room for `more` bytes after the carry's text: 0, or -1 out of memory. */
static int carry_room(gaps_lhe_reader *r, size_t more)
{
    if (r->carry_cap - r->carry_len >= more) return 0;
    size_t cap = r->carry_cap ? r->carry_cap : READ_STEP;
    while (cap - r->carry_len < more) cap *= 2;
    char *grown = realloc(r->carry, cap);
    if (!grown) return -1;
    r->carry = grown;
    r->carry_cap = cap;
    return 0;
}

/* More text onto the carry: 1, 0 at the end of the input, or an error (which the caller
 * keeps pending: the serial reader raises it where it would have met it). */
static int carry_more(gaps_lhe_reader *r)
{
    if (r->out_pos < r->out_end) {   /* what the reader had buffered */
        const size_t n = r->out_end - r->out_pos;
        if (carry_room(r, n) != 0)
            return fail_at(r, GAPS_LHE_FAILED, r->lineno + 1, "out of memory for the text");
        memcpy(r->carry + r->carry_len, r->view + r->out_pos, n);
        r->carry_len += n;
        r->out_pos = r->out_end;
        return 1;
    }
    if (r->out_eof) return 0;
    if (carry_room(r, READ_STEP) != 0)
        return fail_at(r, GAPS_LHE_FAILED, r->lineno + 1, "out of memory for the text");
    if (r->gzip) {
        const int rc = inflate_more(r);
        return rc <= 0 ? rc : carry_more(r);
    }
    /* plain text: read straight into the carry */
    const ssize_t n = read_some(r, r->carry + r->carry_len, READ_STEP);
    if (n < 0) return read_failed(r);
    if (n == 0) return r->out_eof = 1, 0;
    r->carry_len += (size_t)n;
    return 1;
}

/* The first s in c[0, n), or NULL. */
static const char *find_text(const char *c, size_t n, const char *s)
{
    const size_t k = strlen(s);
    while (n >= k) {
        const char *q = memchr(c, s[0], n - k + 1);
        if (!q) return NULL;
        if (!memcmp(q, s, k)) return q;
        n -= (size_t)(q + 1 - c);
        c = q + 1;
    }
    return NULL;
}

static int tag_named(const char *c, const char *end, const char *name)
{
    const size_t n = strlen(name);
    if ((size_t)(end - c) <= n || memcmp(c, name, n) != 0) return 0;
    const char d = c[n];
    return d == ' ' || d == '\t' || d == '\r' || d == '\n' || d == '>' || d == '/';
}

/* Lex the carry from r->scan on, as the serial reader sees the text between events:
 * comments, CDATA sections and processing instructions (where no cut may fall), event groups
 * (whose state the next piece starts in), and lines that open an <event>.  The first such
 * line at or after `target` bytes: its offset (> 0); 0 if none in the text so far (scan
 * stops short of a token that the text's end may cut). */
static size_t find_cut(gaps_lhe_reader *r, size_t target, int at_end)
{
    if (r->carry_len == 0) return 0;
    const char *c0 = r->carry, *end = r->carry + r->carry_len;
    const char *stop = at_end ? end : r->carry_len > 16 ? end - 16 : c0;
    const char *c = c0 + r->scan;
    static const char *const close[] = {"", "-->", "]]>", "?>"};
    while (c < stop) {
        if (r->lex != LEX_NONE) {
            const char *q = find_text(c, (size_t)(end - c), close[r->lex]);
            if (!q) {
                if ((size_t)(end - c) > 2) c = end - 2;
                break;
            }
            c = q + strlen(close[r->lex]);
            r->lex = LEX_NONE;
            continue;
        }
        const char *lt = memchr(c, '<', (size_t)(stop - c));
        if (!lt) {
            c = stop;
            break;
        }
        c = lt;
        if ((size_t)(end - c) >= 4 && !memcmp(c, "<!--", 4)) r->lex = LEX_COMMENT, c += 4;
        else if ((size_t)(end - c) >= 9 && !memcmp(c, "<![CDATA[", 9)) r->lex = LEX_CDATA, c += 9;
        else if ((size_t)(end - c) >= 2 && c[1] == '?') r->lex = LEX_PI, c += 2;
        else if (tag_named(c, end, "<eventgroup")) {
            const char *gt = memchr(c, '>', (size_t)(end - c));
            if (!gt) break;   /* its end is not read yet */
            r->lex_group = gt[-1] != '/';
            c = gt + 1;
        } else if (tag_named(c, end, "</eventgroup")) {
            r->lex_group = 0;
            c += 12;
        } else if (tag_named(c, end, "<event")) {
            const char *b = c;
            while (b > c0 && (b[-1] == ' ' || b[-1] == '\t')) --b;
            const size_t at = (size_t)(b - c0);
            if (at >= target && at > 0 && b[-1] == '\n') {
                r->scan = at;
                return at;
            }
            c += 6;
        } else {
            c += 1;
        }
    }
    r->scan = (size_t)(c - c0);
    return 0;
}

int gaps_lhe_cut(gaps_lhe_reader *r, gaps_lhe_piece *pc, size_t target)
{
    pc->len = 0;
    pc->in_group = r->carry_group;
    pc->last = pc->serial = 0;
    if (target < 1) target = 1;
    size_t cut = 0;
    for (;;) {
        if ((cut = find_cut(r, target, r->source_done)) > 0) break;
        if (r->source_done) {   /* the rest is the last piece */
            cut = r->carry_len;
            pc->last = 1;
            pc->serial = r->pending != 0;
            break;
        }
        if (r->carry_len > PIECE_MAX) {   /* no event in sight: the rest is read serially */
            cut = r->carry_len;
            pc->serial = 1;
            break;
        }
        const int rc = carry_more(r);
        if (rc < 0) {
            /* raised by the serial reader when it gets there (gaps_lhe_put_back) */
            r->pending = r->error;
            snprintf(r->pending_what, sizeof r->pending_what, "%s", r->what);
            r->error = 0;
            r->source_done = 1;
        } else if (rc == 0) {
            r->source_done = 1;
        }
    }
    /* hand out carry[0, cut); the rest starts the next piece, lexed afresh */
    if (pc->cap < cut + 1) {
        char *grown = realloc(pc->text, cut + 1);
        if (!grown) return -1;
        pc->text = grown;
        pc->cap = cut + 1;
    }
    memcpy(pc->text, r->carry, cut);
    pc->text[cut] = '\0';
    pc->len = cut;
    pc->end_group = r->lex_group;
    memmove(r->carry, r->carry + cut, r->carry_len - cut);
    r->carry_len -= cut;
    r->scan = 0;
    r->lex = LEX_NONE;
    r->carry_group = r->lex_group;
    return 0;
}

gaps_lhe_reader *gaps_lhe_piece_reader(const gaps_lhe_reader *r)
{
    gaps_lhe_reader *p = calloc(1, sizeof *p);
    char *line = malloc(GAPS_LHE_LINE_MAX + 1);
    if (!p || !line) {
        free(p);
        free(line);
        return NULL;
    }
    p->line = line;
    p->fd = -1;
    p->text_only = 1;
    memcpy(p->shown, r->shown, sizeof p->shown);
    p->init = r->init;
    p->declared = r->declared;
    return p;
}

void gaps_lhe_piece_begin(gaps_lhe_reader *p, const gaps_lhe_piece *pc)
{
    p->text = pc->text;
    p->text_len = pc->len;
    p->text_pos = 0;
    p->view = p->out;
    p->out_pos = p->out_end = 0;
    p->out_eof = 0;
    p->piece_last = pc->last;
    p->lineno = 0;
    p->line[0] = '\0';
    p->len = p->pos = 0;
    p->cut = 0;
    p->events = 1;   /* never the file's first event: that one is read before the pieces */
    p->in_group = pc->in_group;
    p->piece_group_line = -1;
    p->ended = 0;
    p->error = 0;
}

void gaps_lhe_piece_end(const gaps_lhe_reader *p, int *in_group, int *ended, long *lines,
                        long *group_line)
{
    *in_group = p->in_group;
    *ended = p->ended;
    *lines = p->lineno;
    *group_line = p->piece_group_line;
}

int gaps_lhe_put_back(gaps_lhe_reader *r, const char *text, size_t len, long lines_before,
                      long events_before, int in_group, long group_line)
{
    /* the text given, then what the cutter holds, then the input */
    const size_t n = len + r->carry_len;
    char *all = malloc(n + 1);
    if (!all) return -1;
    memcpy(all, text, len);
    memcpy(all + len, r->carry, r->carry_len);
    if (r->text_owned) free(r->text);
    r->text = all;
    r->text_len = n;
    r->text_pos = 0;
    r->text_owned = 1;
    r->carry_len = 0;
    r->scan = 0;
    r->lex = LEX_NONE;
    r->out_pos = r->out_end = 0;
    r->lineno = lines_before;
    r->line[0] = '\0';
    r->len = r->pos = 0;
    r->cut = 0;
    r->events = events_before;
    r->in_group = in_group;
    r->group_line = group_line;
    return 0;
}

/* ------------------------------------------------------------------------------------ */
/* the shower's verdict */

static const char *quark_name(int id)
{
    static const char *const q[] = {"", "down", "up", "strange", "charm", "bottom", "top"};
    return id == 21 ? "gluon" : q[id < 0 ? -id : id];
}

static int is_lepton_beam(int a, int b)
{
    return (a == 11 && b == -11) || (a == -11 && b == 11);
}

static int is_hadron_beam(int id)
{
    return id == 2212 || id == -2212;
}

int gaps_lhe_decay_resonance(const gaps_lhe_event *ev, int i)
{
    const gaps_lhe_particle *p = &ev->particle[i];
    const int m = p->mother[0];
    if (p->status != 1 || !(p->colour[0] || p->colour[1]) || m <= 0 || m > ev->n
        || !(p->mother[1] == 0 || p->mother[1] == m))
        return -1;
    const gaps_lhe_particle *res = &ev->particle[m - 1];
    return res->status == 2 && !res->colour[0] && !res->colour[1] ? m - 1 : -1;
}

enum gaps_lhe_refusal gaps_lhe_showerable(const gaps_lhe_init *init, const gaps_lhe_event *ev,
                                          int max_particles, char *why, size_t len,
                                          long *line)
{
    *line = ev->line;
    if (ev->n > max_particles)
        return snprintf(why, len, "the event has %d particles, more than the shower's record "
                                  "holds (%d)", ev->n, max_particles),
               GAPS_LHE_TOO_MANY_PARTICLES;
    const int b0 = init->beam_id[0], b1 = init->beam_id[1];
    if (!(is_hadron_beam(b0) && is_hadron_beam(b1)) && !is_lepton_beam(b0, b1))
        return snprintf(why, len, "the beams are PDG %d and %d: the built-in shower starts from "
                                  "p p, p pbar and e+ e- collisions", b0, b1),
               GAPS_LHE_BEAMS;
    int incoming = 0;
    for (int i = 0; i < ev->n; ++i) {
        const gaps_lhe_particle *p = &ev->particle[i];
        if (p->status == -9 || p->status == -2) {
            *line = p->line;
            snprintf(why, len, "particle %d has status %d (%s), which the built-in shower does "
                               "not take", i + 1, p->status,
                     p->status == -9 ? "a beam in the event" : "a space-like propagator");
            return GAPS_LHE_UNSUPPORTED_STATUS;
        }
        incoming += p->status == -1;
    }
    if (incoming != 2)
        return snprintf(why, len, "the event has %d incoming particle: the built-in shower "
                                  "starts from collisions of two", incoming),
               GAPS_LHE_NOT_TWO_INCOMING;
    for (int i = 0; i < ev->n; ++i) {
        const gaps_lhe_particle *p = &ev->particle[i];
        if (!is_coloured(p->id)) continue;
        if (p->id == 6 || p->id == -6 || p->mass > GAPS_LHE_MASSLESS_BELOW) {
            *line = p->line;
            snprintf(why, len, "particle %d is a%s %s%s (PDG %d, status %d) of mass %.6g GeV: "
                               "the built-in shower has massless quarks and gluons only (no "
                               "top quarks, no massive b or c quarks)", i + 1,
                     p->id < 0 ? "n anti-" : "", quark_name(p->id),
                     p->id == 21 ? "" : " quark", p->id, p->status, p->mass);
            return GAPS_LHE_MASSIVE_COLOURED;
        }
    }
    /* three ends of one tag (the event is valid, so that is an epsilon tensor) */
    for (int i = 0; i < ev->n; ++i) {
        const gaps_lhe_particle *p = &ev->particle[i];
        if (p->status != -1 && p->status != 1) continue;
        for (int c = 0; c < 2; ++c) {
            const int t = p->colour[c];
            if (!t) continue;
            int seen = 0;
            for (int j = 0; j < ev->n; ++j) {
                const gaps_lhe_particle *q = &ev->particle[j];
                if (q->status == -1 || q->status == 1)
                    seen += (q->colour[0] == t) + (q->colour[1] == t);
            }
            if (seen >= 3) {
                *line = p->line;
                snprintf(why, len, "colour tag %d joins three partons (first particle %d): an "
                                   "epsilon tensor (baryon-number violation), which colour "
                                   "dipoles cannot represent", t, i + 1);
                return GAPS_LHE_EPSILON;
            }
        }
    }
    /* A colourless resonance's coloured decay products (Z -> q qbar, H -> b bbar) form a
     * colour singlet (the reader checked the colour flow through it): their dipoles are
     * final-final ones among themselves, whose recoil stays inside the pair, and the
     * initial-initial recoil moves them as a whole, so their invariant mass stays the
     * resonance's exactly.  A coloured resonance, or a coloured product that decays on, has
     * no such guarantee. */
    for (int i = 0; i < ev->n; ++i) {
        const gaps_lhe_particle *res = &ev->particle[i];
        if (res->status != 2 && res->status != 3) continue;
        for (int j = 0; j < ev->n; ++j) {
            const gaps_lhe_particle *d = &ev->particle[j];
            if (j == i || !daughter_of(d, i) || !is_coloured(d->id)) continue;
            if (!is_coloured(res->id) && d->status == 1) continue;
            *line = res->line;
            snprintf(why, len, "particle %d (PDG %d, status %d) decays into %s (particle %d): "
                               "the built-in shower keeps the mass only of a colourless "
                               "resonance decaying into final quarks and gluons", i + 1,
                     res->id, res->status,
                     is_coloured(res->id) ? "quarks or gluons" : "a coloured resonance",
                     j + 1);
            return GAPS_LHE_COLOURED_DECAY;
        }
    }
    for (int i = 0; i < ev->n; ++i) {
        const gaps_lhe_particle *p = &ev->particle[i];
        if (p->status != -1) continue;
        *line = p->line;
        if (fabs(p->p[0]) > BALANCE_TOLERANCE * p->p[3]
            || fabs(p->p[1]) > BALANCE_TOLERANCE * p->p[3])
            return snprintf(why, len, "incoming particle %d has transverse momentum (%.6g, "
                                      "%.6g) GeV: the built-in shower needs incoming partons "
                                      "along the beams", i + 1, p->p[0], p->p[1]),
                   GAPS_LHE_INCOMING_OFF_AXIS;
        const int beam = p->p[2] >= 0.0 ? 0 : 1;
        if (p->p[3] > init->beam_energy[beam] * (1.0 + BALANCE_TOLERANCE))
            return snprintf(why, len, "incoming particle %d has energy %.10g GeV, more than "
                                      "beam %d's %.10g GeV (momentum fraction above 1)", i + 1,
                            p->p[3], beam + 1, init->beam_energy[beam]),
                   GAPS_LHE_MOMENTUM_FRACTION;
    }
    *line = ev->line;
    if (len > 0) why[0] = '\0';
    return GAPS_LHE_SHOWERABLE;
}
