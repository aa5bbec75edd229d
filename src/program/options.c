/* options.c -- the command line and run card of `gaps` and `gaps merge` (see options.h).
 *
 * A small loop of our own rather than getopt_long: getopt_long accepts abbreviations (--ev),
 * keeps its state in globals (optind, and hidden ones that only a GNU-specific reset clears),
 * permutes argv, and cannot tell "--foo" from "--foo=bar" in its errors.  One table below
 * describes every option for the command line, the run card and the error messages alike.
 */
#define _POSIX_C_SOURCE 200809L
#include "program/options.h"
#include "program/shown_path.h"
#include "gaps/analysis.h"
#include "gaps/constants.h"
#include "gaps/parameters.h"
#include "gaps/process.h"
#include "gaps_runtime.h"
#include "io/input_file.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#ifndef GAPS_VERSION
#define GAPS_VERSION "0.0"
#endif

#if defined(__clang__)
#define GAPS_COMPILER "clang " __clang_version__
#elif defined(__GNUC__)
#define GAPS_COMPILER "GCC " __VERSION__
#else
#define GAPS_COMPILER "unknown compiler"
#endif

/* ------------------------------------------------------------------------------------------
 * The option table
 * ------------------------------------------------------------------------------------------ */

enum kind {
    K_FLAG,     /* no value on the command line; true/false/yes/no/1/0 in a card */
    K_INT,      /* exact integer in [lo, hi] */
    K_REAL,     /* finite decimal number; range by lo (enum real_range) */
    K_FILE,     /* file name; "-" allowed where lo is 1 */
    K_LOOPS,    /* steps | fused */
    K_VARY,     /* the names of --vary (gaps/vary.h) */
    K_PARAM,    /* a physics parameter of gaps/parameters.h; lo = its id */
    K_CARD,     /* --card: command line only */
    K_HELP,
    K_VERSION
};

enum real_range { R_POSITIVE, R_OPEN_UNIT };

/* What an option sets.  Two options that set the same field (--progress, --no-progress)
 * override each other, and count as one key in a card. */
enum field {
    F_EVENTS, F_FIRST_EVENT, F_LHE,
    F_PARAM_BASE,   /* parameter id sets field F_PARAM_BASE + id */
    F_PARAM_END = F_PARAM_BASE + GAPS_N_PARAMS - 1,
    F_OUTPUT, F_JSON, F_OBSERVABLES, F_CYCLES_OUT, F_HEPMC, F_LHE_OUT, F_QUIET, F_PROGRESS,
    F_STATE_OUT, F_CHECKPOINT, F_CHECKPOINT_EVERY, F_RESUME,
    F_POOL, F_THREADS, F_LHE_THREADS, F_LHE_PIECE, F_LHE_BATCH, F_LHE_STRICT_PDF, F_LOOPS,
    F_CYCLES_PER_LAUNCH, F_SPLIT_EVERY, F_REFILL, F_ALLOW_HOST, F_ENERGY, F_CARD, F_HELP,
    F_VERSION, F_VARY, F_SHOWER_MUR,
    /* gaps merge */
    F_M_OUTPUT, F_M_JSON, F_M_STATE_OUT, F_M_QUIET, F_M_HELP,
    F_COUNT
};

typedef struct opt_def {
    const char *name;   /* long name without "--" */
    char short_name;    /* 0 if none */
    enum kind kind;
    enum field field;
    int64_t lo, hi;     /* K_INT: range.  K_REAL: lo = enum real_range.  K_FLAG: lo = value
                           stored when set.  K_FILE: lo = 1 if "-" (standard output) is ok. */
} opt_def;

static const opt_def gaps_table[] = {
    { "events", 'n', K_INT, F_EVENTS, 1, GAPS_MAX_EVENT_NUMBER },
    { "first-event", 0, K_INT, F_FIRST_EVENT, 0, GAPS_MAX_EVENT_NUMBER - 1 },
    { "lhe", 0, K_FILE, F_LHE, 1, 0 },
    { "lhe-strict-pdf", 0, K_FLAG, F_LHE_STRICT_PDF, 1, 0 },
    /* not in GAPS_PARAMETERS (yet): the state does not record them, so the runs that use them
     * write no state (check_together) */
    { "vary", 0, K_VARY, F_VARY, 0, 0 },
    { "shower-mur-factor", 0, K_REAL, F_SHOWER_MUR, R_POSITIVE, 0 },
    /* the physics parameters (gaps/parameters.h) */
#define GAPS_OPTION_ROW_(key, option, short_name, ...)                                          \
    { option, short_name, K_PARAM, (enum field)(F_PARAM_BASE + GAPS_P_##key), GAPS_P_##key, 0 },
    GAPS_PARAMETERS(GAPS_OPTION_ROW_)
#undef GAPS_OPTION_ROW_
    { "output", 'o', K_FILE, F_OUTPUT, 1, 0 },
    { "json", 0, K_FILE, F_JSON, 1, 0 },
    { "observables-out", 0, K_FILE, F_OBSERVABLES, 1, 0 },
    { "cycles-out", 0, K_FILE, F_CYCLES_OUT, 1, 0 },
    { "hepmc", 0, K_FILE, F_HEPMC, 1, 0 },
    { "lhe-out", 0, K_FILE, F_LHE_OUT, 1, 0 },
    { "quiet", 'q', K_FLAG, F_QUIET, 1, 0 },
    { "progress", 0, K_FLAG, F_PROGRESS, 1, 0 },
    { "no-progress", 0, K_FLAG, F_PROGRESS, 0, 0 },
    { "state-out", 0, K_FILE, F_STATE_OUT, 1, 0 },
    { "checkpoint", 0, K_FILE, F_CHECKPOINT, 0, 0 },
    { "checkpoint-every", 0, K_INT, F_CHECKPOINT_EVERY, 1, GAPS_MAX_EVENT_NUMBER },
    { "resume", 0, K_FILE, F_RESUME, 0, 0 },
    { "pool", 0, K_INT, F_POOL, 1, GAPS_MAX_SLOTS },
    { "threads", 't', K_INT, F_THREADS, 1, GAPS_MAX_THREADS },
    { "lhe-threads", 0, K_INT, F_LHE_THREADS, 0, GAPS_MAX_LHE_THREADS },
    { "lhe-piece", 0, K_INT, F_LHE_PIECE, 1, GAPS_MAX_LHE_PIECE },
    { "lhe-batch", 0, K_INT, F_LHE_BATCH, 1, GAPS_MAX_LHE_BATCH },
    { "loops", 0, K_LOOPS, F_LOOPS, 0, 0 },
    { "cycles-per-launch", 0, K_INT, F_CYCLES_PER_LAUNCH, 1, GAPS_MAX_CYCLES_PER_LAUNCH },
    { "split-every", 0, K_INT, F_SPLIT_EVERY, 1, GAPS_MAX_CYCLES_PER_LAUNCH },
    { "no-refill", 0, K_FLAG, F_REFILL, 0, 0 },
    { "allow-host", 0, K_FLAG, F_ALLOW_HOST, 1, 0 },
    { "energy", 0, K_FLAG, F_ENERGY, 1, 0 },
    { "card", 'c', K_CARD, F_CARD, 0, 0 },
    { "help", 'h', K_HELP, F_HELP, 0, 0 },
    { "version", 'V', K_VERSION, F_VERSION, 0, 0 },
    { NULL, 0, 0, 0, 0, 0 }
};

static const opt_def merge_table[] = {
    { "output", 'o', K_FILE, F_M_OUTPUT, 1, 0 },
    { "json", 0, K_FILE, F_M_JSON, 1, 0 },
    { "state-out", 0, K_FILE, F_M_STATE_OUT, 1, 0 },
    { "quiet", 'q', K_FLAG, F_M_QUIET, 1, 0 },
    { "help", 'h', K_HELP, F_M_HELP, 0, 0 },
    { NULL, 0, 0, 0, 0, 0 }
};

static const opt_def *find_long(const opt_def *t, const char *name, size_t n)
{
    for (; t->name; ++t)
        if (strlen(t->name) == n && memcmp(t->name, name, n) == 0) return t;
    return NULL;
}

static const opt_def *find_short(const opt_def *t, char c)
{
    for (; t->name; ++t)
        if (t->short_name && t->short_name == c) return t;
    return NULL;
}

/* The edit distance between s[0..n) and t (insertions, deletions, substitutions and swaps
 * of two neighbours count 1 each), or a large number when either is longer than the names
 * compared here. */
#define SUGGEST_MAX 40
static int edit_distance(const char *s, size_t n, const char *t)
{
    const size_t m = strlen(t);
    if (n > SUGGEST_MAX || m > SUGGEST_MAX) return 1000;
    int d[SUGGEST_MAX + 1][SUGGEST_MAX + 1];
    for (size_t i = 0; i <= n; ++i) d[i][0] = (int)i;
    for (size_t j = 0; j <= m; ++j) d[0][j] = (int)j;
    for (size_t i = 1; i <= n; ++i)
        for (size_t j = 1; j <= m; ++j) {
            int v = d[i - 1][j - 1] + (s[i - 1] != t[j - 1]);
            if (d[i - 1][j] + 1 < v) v = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < v) v = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && s[i - 1] == t[j - 2] && s[i - 2] == t[j - 1]
                && d[i - 2][j - 2] + 1 < v)
                v = d[i - 2][j - 2] + 1;
            d[i][j] = v;
        }
    return d[n][m];
}

/* Is `name` close enough to `s[0..n)` to suggest it?  At most 1 edit for short words, 2 for
 * words of 6 letters or more; never a name that is half edits. */
static int close_enough(int dist, size_t n)
{
    return dist > 0 && dist <= (n >= 6 ? 2 : 1) && 2 * (size_t)dist < n;
}

/* The closest of `count` names to s[0..n), or NULL when none is close (or two are equally
 * close). */
static const char *closest_name(const char *s, size_t n, const char *const *names, int count)
{
    const char *best = NULL;
    int best_d = 1000, ties = 0;
    for (int i = 0; i < count; ++i) {
        const int dist = edit_distance(s, n, names[i]);
        if (dist < best_d) best = names[i], best_d = dist, ties = 0;
        else if (dist == best_d) ++ties;
    }
    return best && !ties && close_enough(best_d, n) ? best : NULL;
}

/* The long option of table t closest to name[0..n), or NULL. */
static const char *closest_option(const opt_def *t, const char *name, size_t n)
{
    const char *names[128];
    int count = 0;
    for (; t->name && count < 128; ++t) names[count++] = t->name;
    return closest_name(name, n, names, count);
}

/* ------------------------------------------------------------------------------------------
 * Messages
 * ------------------------------------------------------------------------------------------ */

/* A user's string made safe for a one-line message: control characters as \xNN, at most
 * SHOW_MAX bytes of a value (cut before a UTF-8 continuation byte, "..." when cut).  A file
 * name is cut as every message cuts one (shown_path.h). */
#define SHOW_MAX 64
typedef struct shown { char s[4 * GAPS_SHOWN_PATH_MAX + 8]; } shown;

static int is_utf8_continuation(unsigned char c) { return (c & 0xc0) == 0x80; }

static size_t show_bytes(char *out, const char *s, size_t n)
{
    size_t o = 0;
    for (size_t i = 0; i < n; ++i) {
        unsigned char c = (unsigned char)s[i];
        /* characters that print as nothing (a byte-order mark, zero-width spaces and joiners)
         * are shown by their code point, or "unknown key 'events'" would make no sense */
        const unsigned char *u = (const unsigned char *)s + i;
        unsigned cp = 0;
        if (i + 2 < n && u[0] == 0xef && u[1] == 0xbb && u[2] == 0xbf) cp = 0xfeff;
        else if (i + 2 < n && u[0] == 0xe2 && u[1] == 0x80 && u[2] >= 0x8b && u[2] <= 0x8f)
            cp = 0x2000 + (u[2] - 0x80);
        else if (i + 2 < n && u[0] == 0xe2 && u[1] == 0x81 && u[2] == 0xa0) cp = 0x2060;
        if (cp) {
            o += (size_t)sprintf(out + o, "\\u%04X", cp);
            i += 2;
        } else if (c < 0x20 || c == 0x7f) {
            o += (size_t)sprintf(out + o, "\\x%02x", c);
        } else {
            out[o++] = (char)c;
        }
    }
    return o;
}

static shown show_n(const char *s, size_t n)
{
    shown r;
    size_t keep = n < SHOW_MAX ? n : SHOW_MAX;
    if (keep < n) /* do not leave half a UTF-8 character before the ellipsis */
        while (keep > 0 && is_utf8_continuation((unsigned char)s[keep])) --keep;
    size_t o = show_bytes(r.s, s, keep);
    if (keep < n) {
        memcpy(r.s + o, "...", 3);
        o += 3;
    }
    r.s[o] = '\0';
    return r;
}

static shown show(const char *s) { return show_n(s, strlen(s)); }

static shown show_path(const char *s)
{
    const size_t n = strlen(s);
    size_t head, tail;
    shown r;
    if (!gaps_shown_path_cut(s, n, &head, &tail)) {
        r.s[show_bytes(r.s, s, n)] = '\0';
        return r;
    }
    size_t o = show_bytes(r.s, s, head);
    memcpy(r.s + o, "...", 3);
    o += 3;
    r.s[o + show_bytes(r.s + o, s + tail, n - tail)] = '\0';
    return r;
}

/* Where an error is: the command line, or a line of the run card. */
typedef struct where {
    const char *card;   /* NULL: command line */
    long line;
} where;

static int fail(char *msg, size_t len, const where *w, const char *fmt, ...)
{
    if (msg && len) {
        int n;
        if (w && w->card)
            n = snprintf(msg, len, "%s:%ld: ", show_path(w->card).s, w->line);
        else
            n = 0;
        if (n >= 0 && (size_t)n < len) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(msg + n, len - (size_t)n, fmt, ap);
            va_end(ap);
        }
    }
    return 2;
}

/* The names a PROCESS or COMPAT parameter takes, joined by sep. */
static void param_names(const gaps_param *p, const char *sep, char *buf, size_t len)
{
    size_t o = 0;
    buf[0] = '\0';
    const int n = p->type == GAPS_PT_PROCESS ? GAPS_N_PROCESSES
                  : p->type == GAPS_PT_COMPAT ? GAPS_N_COMPAT : GAPS_N_ANALYSES;
    for (int i = 0; i < n && o < len; ++i) {
        /* a process fed from a file is chosen by --lhe, not named */
        if (p->type == GAPS_PT_PROCESS && gaps_process_table[i].from_file) continue;
        const char *name = p->type == GAPS_PT_PROCESS ? gaps_process_table[i].name
                           : p->type == GAPS_PT_COMPAT ? gaps_compat_names[i]
                                                       : gaps_analysis_table[i].name;
        const int w = snprintf(buf + o, len - o, "%s%s", o ? sep : "", name);
        if (w < 0) break;
        o += (size_t)w;
    }
}

static void expected_param(const gaps_param *p, char *buf, size_t len)
{
    int n;
    switch (p->type) {
    case GAPS_PT_REAL: snprintf(buf, len, "expected a finite decimal number greater than 0"); break;
    case GAPS_PT_UNIT:
        snprintf(buf, len, "expected a decimal number between 0 and 1 (exclusive)");
        break;
    case GAPS_PT_INT:
    case GAPS_PT_U32:
        snprintf(buf, len, "expected an integer from %lld to %lld", (long long)p->lo,
                 (long long)p->hi);
        break;
    case GAPS_PT_PROCESS:
    case GAPS_PT_COMPAT:
    case GAPS_PT_ANALYSIS:
        /* the names straight into buf: a copy through a buffer of its own could be cut */
        n = snprintf(buf, len, "expected one of ");
        if (n >= 0 && (size_t)n < len) param_names(p, ", ", buf + n, len - (size_t)n);
        break;
    case GAPS_PT_ABLATE:
        n = snprintf(buf, len, "expected none, or names separated by commas, each at most "
                               "once, of");
        for (int i = 0; i < GAPS_N_ABLATE && n >= 0 && (size_t)n < len; ++i)
            n += snprintf(buf + n, len - (size_t)n, "%s%s", i ? ", " : " ", gaps_ablate_names[i]);
        break;
    case GAPS_PT_CHOICE:
        n = snprintf(buf, len, "expected one of");
        for (int i = 0; i < gaps_param_choice_count(p) && n >= 0 && (size_t)n < len; ++i) {
            char name[64];
            gaps_param_choice_name(p, i, name, sizeof name);
            n += snprintf(buf + n, len - (size_t)n, "%s%s", i ? ", " : " ", name);
        }
        break;
    case GAPS_PT_PDF:
        snprintf(buf, len, "expected NAME or NAME/MEMBER (a set name of letters, digits and "
                           ". _ + -, a member from 0 to %d)", GAPS_PDF_MAX_MEMBER);
        break;
    case GAPS_PT_PATH:
        snprintf(buf, len, "expected a directory, or directories separated by ':'");
        break;
    }
}

/* The valid values of an option, for "invalid value" messages. */
static void expected(const opt_def *d, char *buf, size_t len)
{
    switch (d->kind) {
    case K_INT:
        snprintf(buf, len, "expected an integer from %lld to %lld", (long long)d->lo,
                 (long long)d->hi);
        break;
    case K_REAL:
        snprintf(buf, len, "%s", d->lo == R_POSITIVE
                                     ? "expected a finite decimal number greater than 0"
                                     : "expected a decimal number between 0 and 1 (exclusive)");
        break;
    case K_LOOPS: snprintf(buf, len, "expected 'steps', 'trials' or 'fused'"); break;
    case K_VARY: snprintf(buf, len, "expected shower"); break;
    case K_PARAM: expected_param(&gaps_params[d->lo], buf, len); break;
    case K_FLAG: snprintf(buf, len, "expected true, false, yes, no, 1 or 0"); break;
    default: snprintf(buf, len, "expected a file name"); break;
    }
}

/* For an option whose values are names (--process, --compat, --loops): " (did you mean
 * NAME?)" after the reason in why, when one name is close to text. */
static void suggest_value(const opt_def *d, const char *text, char *why, size_t len)
{
    static const char *const loops[] = { "steps", "trials", "fused" };
    const char *names[GAPS_N_PROCESSES + GAPS_N_COMPAT + GAPS_N_ANALYSES + 1];
    char choices[8][64];
    const char *const *list = names;
    int count = 0;
    if (d->kind == K_PARAM && gaps_params[d->lo].type == GAPS_PT_CHOICE) {
        const gaps_param *p = &gaps_params[d->lo];
        for (; count < gaps_param_choice_count(p) && count < 8; ++count) {
            gaps_param_choice_name(p, count, choices[count], sizeof choices[count]);
            names[count] = choices[count];
        }
    } else if (d->kind == K_LOOPS) {
        list = loops;
        count = 3;
    } else if (d->kind == K_PARAM && gaps_params[d->lo].type == GAPS_PT_PROCESS) {
        for (int i = 0; i < GAPS_N_PROCESSES; ++i)
            if (!gaps_process_table[i].from_file) names[count++] = gaps_process_table[i].name;
    } else if (d->kind == K_PARAM && gaps_params[d->lo].type == GAPS_PT_COMPAT) {
        for (; count < GAPS_N_COMPAT; ++count) names[count] = gaps_compat_names[count];
    } else if (d->kind == K_PARAM && gaps_params[d->lo].type == GAPS_PT_ANALYSIS) {
        for (; count < GAPS_N_ANALYSES; ++count) names[count] = gaps_analysis_table[count].name;
    } else if (d->kind == K_PARAM && gaps_params[d->lo].type == GAPS_PT_ABLATE) {
        /* the item that is not a name, against the names */
        int bits;
        const char *bad;
        size_t bad_len;
        if (gaps_ablate_parse(text, &bits, &bad, &bad_len) == 0 || bad_len == 0) return;
        const char *near = closest_name(bad, bad_len, gaps_ablate_names, GAPS_N_ABLATE);
        const size_t used = strlen(why);
        if (near && used < len)
            snprintf(why + used, len - used, " ('%.*s': did you mean %s?)", (int)bad_len, bad,
                     near);
        return;
    } else {
        return;
    }
    const char *near = closest_name(text, strlen(text), list, count);
    const size_t used = strlen(why);
    if (near && used < len) snprintf(why + used, len - used, " (did you mean %s?)", near);
}

/* ------------------------------------------------------------------------------------------
 * Numbers
 * ------------------------------------------------------------------------------------------ */

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* A decimal number: digits [. digits] [e|E [+|-] digits], at least one mantissa digit. */
typedef struct number {
    const char *ip, *fp;   /* integer and fraction digits */
    size_t il, fl;
    int64_t exp;           /* saturated at +-EXP_CAP: beyond it every value is out of range */
} number;
#define EXP_CAP ((int64_t)1000000000000)

static int lex_number(const char *s, number *n)
{
    const char *p = s;
    n->ip = p;
    while (is_digit(*p)) ++p;
    n->il = (size_t)(p - n->ip);
    n->fp = p;
    n->fl = 0;
    if (*p == '.') {
        n->fp = ++p;
        while (is_digit(*p)) ++p;
        n->fl = (size_t)(p - n->fp);
    }
    if (n->il + n->fl == 0) return -1;
    n->exp = 0;
    if (*p == 'e' || *p == 'E') {
        ++p;
        int neg = 0;
        if (*p == '+' || *p == '-') neg = *p++ == '-';
        if (!is_digit(*p)) return -1;
        for (; is_digit(*p); ++p)
            if (n->exp < EXP_CAP) n->exp = 10 * n->exp + (*p - '0');
        if (n->exp > EXP_CAP) n->exp = EXP_CAP;
        if (neg) n->exp = -n->exp;
    }
    return *p == '\0' ? 0 : -1;
}

/* The exact integer value of s if it is one and lies in [lo, hi] (lo >= 0): digits times a
 * power of ten, with no rounding anywhere. */
static int parse_integer(const char *s, int64_t lo, int64_t hi, int64_t *out)
{
    number n;
    if (lex_number(s, &n) != 0) return -1;
    const size_t total = n.il + n.fl;
#define DIGIT(i) ((i) < n.il ? n.ip[(i)] : n.fp[(i) - n.il])
    size_t a = 0, b = total;
    while (a < total && DIGIT(a) == '0') ++a;
    uint64_t v = 0;
    if (a < total) {
        /* value = digits[a, b) * 10^k; drop trailing zeros while k < 0 */
        int64_t k = n.exp - (int64_t)n.fl;
        while (k < 0 && DIGIT(b - 1) == '0') --b, ++k;   /* DIGIT(a) != '0' stops it */
        if (k < 0) return -1;                             /* a fraction remains */
        /* 19 digits are below 10^19 < 2^64: no overflow below; beyond, > INT64_MAX */
        if ((int64_t)(b - a) + k > 19) return -1;
        for (size_t i = a; i < b; ++i) v = 10 * v + (uint64_t)(DIGIT(i) - '0');
        for (int64_t j = 0; j < k; ++j) v *= 10;
    }
#undef DIGIT
    if (v < (uint64_t)lo || v > (uint64_t)hi) return -1;
    *out = (int64_t)v;
    return 0;
}

/* A finite real in decimal or exponent notation.  The grammar is checked here; strtod only
 * converts (it would also take hex, inf, nan and leading spaces).  gaps never calls
 * setlocale, so strtod's decimal point is '.'. */
static int parse_real(const char *s, double *out)
{
    number n;
    if (lex_number(s, &n) != 0) return -1;
    char *end;
    double v = strtod(s, &end);
    if (*end != '\0' || !isfinite(v)) return -1;
    *out = v;
    return 0;
}

/* ------------------------------------------------------------------------------------------
 * Values
 * ------------------------------------------------------------------------------------------ */

typedef struct value {
    int64_t i;
    double d;
    const char *s;
    int on;   /* flags: 1 set, 0 "false" in a card (as if absent) */
} value;

/* Parse text for option d.  0, or -1 with the reason (the part after "for --x: ") in why. */
static int parse_value(const opt_def *d, const char *text, int in_card, value *v, char *why,
                       size_t wlen)
{
    memset(v, 0, sizeof *v);
    v->s = text;
    switch (d->kind) {
    case K_INT:
        if (parse_integer(text, d->lo, d->hi, &v->i) == 0) return 0;
        break;
    case K_REAL:
        if (parse_real(text, &v->d) == 0 &&
            (d->lo == R_POSITIVE ? v->d > 0.0 : (v->d > 0.0 && v->d < 1.0)))
            return 0;
        break;
    case K_PARAM: {
        const gaps_param *p = &gaps_params[d->lo];
        switch (p->type) {
        case GAPS_PT_REAL:
            if (parse_real(text, &v->d) == 0 && v->d > 0.0) return 0;
            break;
        case GAPS_PT_UNIT:
            if (parse_real(text, &v->d) == 0 && v->d > 0.0 && v->d < 1.0) return 0;
            break;
        case GAPS_PT_INT:
        case GAPS_PT_U32:
            if (parse_integer(text, (int64_t)p->lo, (int64_t)p->hi, &v->i) == 0) return 0;
            break;
        case GAPS_PT_PROCESS:
            if ((v->i = gaps_process_lookup(text)) >= 0) return 0;
            break;
        case GAPS_PT_COMPAT:
            for (v->i = 0; v->i < GAPS_N_COMPAT; ++v->i)
                if (!strcmp(text, gaps_compat_names[v->i])) return 0;
            break;
        case GAPS_PT_ANALYSIS:
            for (v->i = 0; v->i < GAPS_N_ANALYSES; ++v->i)
                if (!strcmp(text, gaps_analysis_table[v->i].name)) return 0;
            break;
        case GAPS_PT_ABLATE: {
            int bits;
            const char *bad;
            size_t bad_len;
            if (gaps_ablate_parse(text, &bits, &bad, &bad_len) == 0) {
                v->i = bits;
                return 0;
            }
            break;
        }
        case GAPS_PT_CHOICE:
            if ((v->i = gaps_param_choice_lookup(p, text, strlen(text))) >= 0) return 0;
            break;
        case GAPS_PT_PDF: {
            char name[GAPS_PDF_NAME_MAX];
            int member;
            if (gaps_pdf_spec_parse(text, name, &member) == 0) return 0;
            break;
        }
        case GAPS_PT_PATH:
            if (text[0] == '-') {
                snprintf(why, wlen, "expected a directory, not an option (write a directory "
                                    "that starts with '-' as ./-name)");
                return -1;
            }
            if (text[0] && strlen(text) < p->size) return 0;
            break;
        }
        break;
    }
    case K_VARY: {
        int bits;
        if (gaps_vary_parse(text, &bits, why, wlen) != 0) return -1;
        v->i = bits;
        return 0;
    }
    case K_LOOPS:
        if (!strcmp(text, "steps")) { v->i = GAPS_LOOPS_STEPS; return 0; }
        if (!strcmp(text, "fused")) { v->i = GAPS_LOOPS_FUSED; return 0; }
        if (!strcmp(text, "trials")) { v->i = GAPS_LOOPS_TRIALS; return 0; }
        break;
    case K_FLAG:
        if (!in_card) { v->on = 1; return 0; }
        if (!strcasecmp(text, "true") || !strcasecmp(text, "yes") || !strcmp(text, "1")) {
            v->on = 1;
            return 0;
        }
        if (!strcasecmp(text, "false") || !strcasecmp(text, "no") || !strcmp(text, "0"))
            return 0;
        break;
    case K_FILE:
    case K_CARD:
        if (text[0] == '\0') break;
        if (text[0] == '-' && text[1] == '\0') {
            if (d->kind == K_FILE && d->lo) return 0;
            snprintf(why, wlen, "expected a file name ('-' is not allowed here)");
            return -1;
        }
        if (text[0] == '-') {
            snprintf(why, wlen, "expected a file name, not an option (write a file name "
                                "that starts with '-' as ./-name)");
            return -1;
        }
        return 0;
    default:
        return 0;
    }
    expected(d, why, wlen);
    suggest_value(d, text, why, wlen);
    return -1;
}

/* A physics parameter's value into its field of the configuration. */
static void store_param(gaps_config *c, const gaps_param *p, const value *v)
{
    void *field = (char *)c + p->cfg_offset;
    switch (p->type) {
    case GAPS_PT_REAL:
    case GAPS_PT_UNIT: memcpy(field, &v->d, sizeof v->d); break;
    case GAPS_PT_INT:
    case GAPS_PT_PROCESS:
    case GAPS_PT_COMPAT:
    case GAPS_PT_ABLATE:
    case GAPS_PT_ANALYSIS:
    case GAPS_PT_CHOICE: {
        const int i = (int)v->i;
        memcpy(field, &i, sizeof i);
        break;
    }
    case GAPS_PT_U32: {
        const uint32_t u = (uint32_t)v->i;
        memcpy(field, &u, sizeof u);
        break;
    }
    case GAPS_PT_PDF:
    case GAPS_PT_PATH:
        memset(field, 0, p->size);
        memcpy(field, v->s, strlen(v->s));   /* parse_value checked that it fits */
        break;
    }
}

static void store(gaps_options *o, const opt_def *d, const value *v)
{
    gaps_config *c = &o->cfg;
    if (d->kind == K_PARAM) {
        store_param(c, &gaps_params[d->lo], v);
        return;
    }
    switch (d->field) {
    case F_EVENTS: c->events = v->i; break;
    case F_FIRST_EVENT: c->first_event = v->i; break;
    case F_LHE: o->lhe = v->s; break;
    case F_OUTPUT: o->output = strcmp(v->s, "none") ? v->s : NULL; break;
    case F_JSON: o->json = v->s; break;
    case F_OBSERVABLES: o->observables_out = v->s; break;
    case F_CYCLES_OUT: o->cycles_out = v->s; break;
    case F_HEPMC: o->hepmc = v->s; break;
    case F_LHE_OUT: o->lhe_out = v->s; break;
    case F_STATE_OUT: o->state_out = v->s; break;
    case F_CHECKPOINT: o->checkpoint = v->s; break;
    case F_CHECKPOINT_EVERY: o->checkpoint_every = v->i; break;
    case F_RESUME: o->resume = v->s; break;
    case F_POOL: c->slots = (int)v->i; break;
    case F_THREADS: c->threads = (int)v->i; break;
    case F_LHE_THREADS: o->lhe_threads = (int)v->i; break;
    case F_LHE_PIECE: o->lhe_piece = v->i; break;
    case F_LHE_BATCH: c->file_batch = (int)v->i; break;
    case F_LOOPS: c->loop_mode = (int)v->i; break;
    case F_CYCLES_PER_LAUNCH: c->cycles_per_launch = (int)v->i; break;
    case F_SPLIT_EVERY: c->split_every = (int)v->i; break;
    case F_VARY: c->vary = (int)v->i; break;
    case F_SHOWER_MUR: c->shower_mur_factor = v->d; break;
    /* flags: "false" in a card leaves the default */
    case F_QUIET: if (v->on) o->quiet = (int)d->lo; break;
    case F_PROGRESS: if (v->on) o->progress = (int)d->lo; break;
    case F_REFILL: if (v->on) c->refill = (int)d->lo; break;
    case F_ALLOW_HOST: if (v->on) c->allow_host = (int)d->lo; break;
    case F_ENERGY: if (v->on) o->energy = (int)d->lo; break;
    case F_LHE_STRICT_PDF: if (v->on) o->lhe_strict_pdf = (int)d->lo; break;
    default: break;
    }
}

/* ------------------------------------------------------------------------------------------
 * The command-line loop, shared by gaps and gaps merge
 * ------------------------------------------------------------------------------------------ */

/* Called for each option with its value (NULL for flags) and for each operand (d NULL).
 * Returns 0 to go on, or the parser's result (1 or 2) to stop. */
typedef int (*argv_handler)(void *ctx, const opt_def *d, const char *spelled, const char *val,
                            char *msg, size_t len);

static int walk_argv(int argc, char **argv, const opt_def *table, argv_handler h, void *ctx,
                     char *msg, size_t len)
{
    int ended = 0;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        int r;
        if (ended || a[0] != '-' || a[1] == '\0') {   /* an operand ("-" is one) */
            if ((r = h(ctx, NULL, NULL, a, msg, len)) != 0) return r;
            continue;
        }
        if (a[1] == '-' && a[2] == '\0') { ended = 1; continue; }
        if (a[1] == '-') {
            const char *name = a + 2, *eq = strchr(name, '=');
            const size_t n = eq ? (size_t)(eq - name) : strlen(name);
            const opt_def *d = find_long(table, name, n);
            char spelled[80];
            if (!d) {
                const char *near = closest_option(table, name, n);
                if (near)
                    return fail(msg, len, NULL, "unknown option '--%s' (did you mean --%s?)",
                                show_n(name, n).s, near);
                return fail(msg, len, NULL, "unknown option '--%s'", show_n(name, n).s);
            }
            snprintf(spelled, sizeof spelled, "--%s", d->name);
            const char *val = NULL;
            if (d->kind == K_FLAG || d->kind == K_HELP || d->kind == K_VERSION) {
                if (eq) return fail(msg, len, NULL, "option '%s' takes no value", spelled);
            } else if (eq) {
                val = eq + 1;
            } else if (i + 1 < argc) {
                val = argv[++i];
            } else {
                return fail(msg, len, NULL, "option '%s' needs a value", spelled);
            }
            if ((r = h(ctx, d, spelled, val, msg, len)) != 0) return r;
            continue;
        }
        /* a group of short options: -qn10, -q -n 10 */
        for (const char *p = a + 1; *p; ++p) {
            const opt_def *d = find_short(table, *p);
            char spelled[3] = { '-', *p, '\0' };
            if (!d) return fail(msg, len, NULL, "unknown option '-%s'", show_n(p, 1).s);
            const char *val = NULL;
            if (d->kind != K_FLAG && d->kind != K_HELP && d->kind != K_VERSION) {
                if (p[1]) val = p + 1;
                else if (i + 1 < argc) val = argv[++i];
                else return fail(msg, len, NULL, "option '%s' (--%s) needs a value", spelled,
                                 d->name);
            }
            if ((r = h(ctx, d, spelled, val, msg, len)) != 0) return r;
            if (val) break;   /* the rest of the word was the value */
        }
    }
    return 0;
}

/* ------------------------------------------------------------------------------------------
 * gaps
 * ------------------------------------------------------------------------------------------ */

typedef struct gaps_ctx {
    gaps_options *o;
    unsigned char cl_set[F_COUNT];   /* set on the command line: the card may not change it */
    long card_line[F_COUNT];         /* line of the card that set it (duplicates) */
    const opt_def *card_def[F_COUNT];
} gaps_ctx;

static void print_version(FILE *f)
{
    fprintf(f, "gaps %s (%s backend, %s)\n", GAPS_VERSION, gaps_runtime_backend_name(),
            GAPS_COMPILER);
#ifdef GAPS_GPU_ARCH
    /* -DGAPS_GPU_ARCH=sm_90 or -DGAPS_GPU_ARCH="sm_90": printed without quotes either way */
#define GAPS_STRING_(x) #x
#define GAPS_STRING(x) GAPS_STRING_(x)
    const char *arch = GAPS_STRING(GAPS_GPU_ARCH);
    const size_t n = strlen(arch);
    if (n >= 2 && arch[0] == '"' && arch[n - 1] == '"')
        fprintf(f, "GPU architecture %.*s\n", (int)(n - 2), arch + 1);
    else
        fprintf(f, "GPU architecture %s\n", arch);
#endif
#ifdef GAPS_GPU_REGISTER_CAPS
    /* a string literal, "NAME=N,..." (doc/gpu.md, register caps) */
    fprintf(f, "GPU register caps %s\n", GAPS_GPU_REGISTER_CAPS);
#endif
}

static int gaps_handler(void *vctx, const opt_def *d, const char *spelled, const char *val,
                        char *msg, size_t len)
{
    gaps_ctx *ctx = vctx;
    gaps_options *o = ctx->o;
    if (!d) return fail(msg, len, NULL, "unexpected argument '%s'", show(val).s);
    if (d->kind == K_HELP) { gaps_options_usage(stdout); return 1; }
    if (d->kind == K_VERSION) { print_version(stdout); return 1; }
    value v;
    char why[320];
    if (parse_value(d, val ? val : "", 0, &v, why, sizeof why) != 0)
        return fail(msg, len, NULL, "invalid value '%s' for --%s: %s", show(val).s, d->name,
                    why);
    if (d->kind == K_CARD) {
        if (o->card)
            return fail(msg, len, NULL, "option '%s' given twice: one run card per run",
                        spelled);
        o->card = val;
        return 0;
    }
    store(o, d, &v);
    ctx->cl_set[d->field] = 1;
    return 0;
}

static void trim(char **s, char *end)
{
    while (**s == ' ' || **s == '\t' || **s == '\r' || **s == '\f' || **s == '\v') ++*s;
    while (end > *s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r' ||
                        end[-1] == '\f' || end[-1] == '\v'))
        --end;
    *end = '\0';
}

/* Read the whole card (at most GAPS_CARD_MAX_BYTES) into a NUL-terminated heap buffer. */
static int read_card(const char *path, char **text, size_t *size, char *msg, size_t len)
{
    /* a regular file only: a FIFO would block the open for ever, a device never ends
     * (io/input_file.h) */
    const char *not_regular;
    FILE *f = gaps_open_input(path, &not_regular);
    if (!f && not_regular)
        return fail(msg, len, NULL, "cannot read run card '%s': not a regular file (%s)",
                    show_path(path).s, not_regular);
    if (!f) {
        const int e = errno;
        fail(msg, len, NULL, "cannot read run card '%s': %s", show_path(path).s, strerror(e));
        /* out of descriptors or memory: the system failed, not the card (exit 1) */
        return e == EMFILE || e == ENFILE || e == ENOMEM ? 3 : 2;
    }
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap + 1);
    int err = 0;
    while (buf) {
        if (n == cap) {
            if (cap > GAPS_CARD_MAX_BYTES) break;
            char *nb = realloc(buf, 2 * cap + 1);
            if (!nb) { free(buf); buf = NULL; break; }
            buf = nb;
            cap *= 2;
        }
        errno = 0;
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) {
            if (ferror(f)) err = errno ? errno : EIO;
            break;
        }
    }
    fclose(f);
    if (!buf) {
        fail(msg, len, NULL, "cannot read run card '%s': out of memory", show_path(path).s);
        return 3;
    }
    if (err) {
        free(buf);
        return fail(msg, len, NULL, "cannot read run card '%s': %s", show_path(path).s,
                    strerror(err));
    }
    if (n > GAPS_CARD_MAX_BYTES) {
        free(buf);
        return fail(msg, len, NULL, "cannot read run card '%s': larger than %d bytes",
                    show_path(path).s, GAPS_CARD_MAX_BYTES);
    }
    buf[n] = '\0';
    *text = buf;
    *size = n;
    return 0;
}

static int apply_card(gaps_ctx *ctx, char *msg, size_t len)
{
    gaps_options *o = ctx->o;
    size_t size = 0;
    int r = read_card(o->card, &o->card_text_, &size, msg, len);
    if (r) return r;
    o->card_size_ = size;
    char *text = o->card_text_;
    where w = { o->card, 0 };
    /* A UTF-8 byte-order mark, which some editors put at the start of a file, is not part of
     * the first key (it would make an unknown key that looks like a known one). */
    size_t start = size >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
    for (; start < size;) {
        char *nl = memchr(text + start, '\n', size - start);
        size_t end = nl ? (size_t)(nl - text) : size;
        char *line = text + start;
        size_t n = end - start;
        start = end + 1;
        ++w.line;
        if (n > 0 && line[n - 1] == '\r') --n;   /* CRLF files: the CR is not counted */
        if (n > GAPS_CARD_MAX_LINE)
            return fail(msg, len, &w, "line longer than %d characters", GAPS_CARD_MAX_LINE);
        if (memchr(line, '\0', n)) return fail(msg, len, &w, "line contains a NUL byte");
        line[n] = '\0';
        char *hash = strchr(line, '#');
        if (hash) *hash = '\0';
        trim(&line, line + strlen(line));
        if (!*line) continue;
        char *eq = strchr(line, '=');
        if (!eq)
            return fail(msg, len, &w, "missing '=' in '%s' (expected 'key = value')",
                        show(line).s);
        char *key = line, *val = eq + 1;
        trim(&key, eq);
        trim(&val, val + strlen(val));
        if (!*key) return fail(msg, len, &w, "missing key before '='");
        const opt_def *d = find_long(gaps_table, key, strlen(key));
        if (!d) {
            if (key[0] == '-' && key[1] == '-' && find_long(gaps_table, key + 2, strlen(key + 2)))
                return fail(msg, len, &w, "unknown key '%s' (write the option name without "
                                          "'--': '%s = ...')", show(key).s, show(key + 2).s);
            const char *near = closest_option(gaps_table, key, strlen(key));
            if (near)
                return fail(msg, len, &w, "unknown key '%s' (did you mean '%s'?)", show(key).s,
                            near);
            return fail(msg, len, &w, "unknown key '%s'", show(key).s);
        }
        if (d->kind == K_CARD)
            return fail(msg, len, &w, "'card' cannot be used inside a run card");
        if (d->kind == K_HELP || d->kind == K_VERSION)
            return fail(msg, len, &w, "'%s' cannot be used in a run card", d->name);
        if (ctx->card_line[d->field]) {
            const opt_def *first = ctx->card_def[d->field];
            if (first == d)
                return fail(msg, len, &w, "key '%s' given twice (first on line %ld)", d->name,
                            ctx->card_line[d->field]);
            return fail(msg, len, &w, "key '%s' conflicts with '%s' on line %ld", d->name,
                        first->name, ctx->card_line[d->field]);
        }
        value v;
        char why[320];
        if (parse_value(d, val, 1, &v, why, sizeof why) != 0)
            return fail(msg, len, &w, "invalid value '%s' for %s: %s", show(val).s, d->name,
                        why);
        ctx->card_line[d->field] = w.line;
        ctx->card_def[d->field] = d;
        if (!ctx->cl_set[d->field]) store(o, d, &v);
    }
    return 0;
}

/* Checks that involve several options, after the card. */
static int check_together(const gaps_options *o, char *msg, size_t len)
{
    const gaps_config *c = &o->cfg;
    if (c->first_event > GAPS_MAX_EVENT_NUMBER - c->events)   /* no overflow: both in range */
        return fail(msg, len, NULL,
                    "--first-event %lld plus --events %lld is more than %lld (event numbers "
                    "must stay below 2^62)", (long long)c->first_event, (long long)c->events,
                    (long long)GAPS_MAX_EVENT_NUMBER);
    if ((o->lhe_threads >= 0 || o->lhe_piece > 0 || c->file_batch > 0 || o->lhe_strict_pdf)
        && !o->lhe)
        return fail(msg, len, NULL, "%s needs --lhe FILE",
                    o->lhe_threads >= 0 ? "--lhe-threads"
                    : o->lhe_piece > 0 ? "--lhe-piece"
                    : c->file_batch > 0 ? "--lhe-batch" : "--lhe-strict-pdf");
    if (o->checkpoint_every && !o->checkpoint)
        return fail(msg, len, NULL, "--checkpoint-every needs --checkpoint FILE");
    if (o->lhe && o->lhe_out)
        return fail(msg, len, NULL, "--lhe-out with --lhe: the hard events are the file's "
                                    "already (--lhe-out writes those of a built-in process)");
    if (o->lhe && c->nlo)
        return fail(msg, len, NULL, "--lhe with --nlo 1: the file's events carry their own "
                                    "order (an NLO generator's S and H events are showered "
                                    "as they are); leave --nlo out");
    /* two outputs on standard output would interleave */
    const char *names[] = { "--output", "--json", "--observables-out", "--hepmc",
                            "--cycles-out", "--state-out", "--lhe-out" };
    const char *paths[] = { o->output, o->json, o->observables_out, o->hepmc, o->cycles_out,
                            o->state_out, o->lhe_out };
    int first = -1;
    for (int k = 0; k < 7; ++k) {
        if (!paths[k] || strcmp(paths[k], "-")) continue;
        if (first >= 0)
            return fail(msg, len, NULL, "%s and %s both write to standard output ('-'): at "
                                        "most one output may", names[first], names[k]);
        first = k;
    }
    return 0;
}

static void options_defaults(gaps_options *o)
{
    memset(o, 0, sizeof *o);
    gaps_config_defaults(&o->cfg);
    o->output = "gaps.yoda";
    o->progress = -1;
    o->lhe_threads = -1;
}

int gaps_options_parse(int argc, char **argv, gaps_options *o, char *msg, size_t len)
{
    gaps_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.o = o;
    options_defaults(o);
    if (msg && len) msg[0] = '\0';
    int r = walk_argv(argc, argv, gaps_table, gaps_handler, &ctx, msg, len);
    if (r == 0 && o->card) r = apply_card(&ctx, msg, len);
    /* --lhe: the process is the file's, lhe-pp until the file's beams are read (which may make
     * it lhe-ee, src/program/lhe_feed.c); the pass below gives lhe-pp's defaults */
    const int process_given = ctx.cl_set[F_PARAM_BASE + GAPS_P_process]
                              || ctx.card_line[F_PARAM_BASE + GAPS_P_process];
    if (r == 0 && o->lhe && process_given)
        r = fail(msg, len, NULL, "--lhe takes the hard events, and so the process, from the "
                                 "file: leave --process out");
    if (r == 0 && o->lhe) o->cfg.process = GAPS_PROCESS_LHE_PP;
    o->events_given = ctx.cl_set[F_EVENTS] || ctx.card_line[F_EVENTS];
    for (int id = 0; id < GAPS_N_PARAMS; ++id)
        o->param_given[id] = ctx.cl_set[F_PARAM_BASE + id] || ctx.card_line[F_PARAM_BASE + id];
    /* a parameter whose default depends on the process, and that neither the command line
     * nor the card gave, takes the default of the process chosen (--ecm, --pdf) */
    for (int id = 0; r == 0 && id < GAPS_N_PARAMS; ++id)
        if ((gaps_params[id].flags & GAPS_PF_PROCESS_DEFAULT) && !ctx.cl_set[F_PARAM_BASE + id]
            && !ctx.card_line[F_PARAM_BASE + id])
            gaps_param_set_default(id, &o->cfg);
    if (r == 0) r = check_together(o, msg, len);
    if (r != 0) gaps_options_free(o);
    return r;
}

void gaps_options_free(gaps_options *o)
{
    if (!o) return;
    char *text = o->card_text_;
    o->card_text_ = NULL;
    if (!text) return;
    /* strings of the card are gone: do not leave pointers into freed memory */
    const char **strs[] = { &o->output, &o->json, &o->observables_out, &o->hepmc,
                            &o->cycles_out, &o->state_out, &o->checkpoint, &o->resume,
                            &o->lhe, &o->lhe_out };
    for (size_t k = 0; k < sizeof strs / sizeof strs[0]; ++k) {
        const char *s = *strs[k];
        /* compared as addresses: s may point into argv, another object */
        if (s && (uintptr_t)s >= (uintptr_t)text &&
            (uintptr_t)s <= (uintptr_t)(text + o->card_size_))
            *strs[k] = NULL;
    }
    free(text);
}

/* One option of --help: "  -s, --seed S" padded to column 27, then the text; '\n' in the text
 * continues it on the next line, at column 27.  An option too long to leave two spaces
 * before column 27 has its text start on the next line.  A suffix (the default) goes on the
 * last line if it fits within 88 columns, else on a line of its own. */
#define HELP_COLUMN 27
static void usage_option(FILE *f, char short_name, const char *name, const char *metavar,
                         const char *text, const char *suffix)
{
    int col = fprintf(f, "  %c%c%c --%s%s%s", short_name ? '-' : ' ',
                      short_name ? short_name : ' ', short_name ? ',' : ' ', name,
                      metavar ? " " : "", metavar ? metavar : "");
    if (col <= HELP_COLUMN - 2) fprintf(f, "%*s", HELP_COLUMN - col, "");
    else fprintf(f, "\n%*s", HELP_COLUMN, "");
    col = HELP_COLUMN;
    for (const char *t = text;;) {
        const char *nl = strchr(t, '\n');
        const int n = nl ? (int)(nl - t) : (int)strlen(t);
        fprintf(f, "%.*s", n, t);
        col += n;
        if (!nl) break;
        fprintf(f, "\n%*s", HELP_COLUMN, "");
        col = HELP_COLUMN;
        t = nl + 1;
    }
    if (suffix && suffix[0]) {
        if (col + 1 + (int)strlen(suffix) > 88) fprintf(f, "\n%*s%s", HELP_COLUMN, "", suffix);
        else fprintf(f, " %s", suffix);
    }
    fputc('\n', f);
}

/* "(default X)", or for a default that depends on the process "(default X for ee-qq, Y for
 * pp-z, pp-ll)". */
static void param_default_text(const gaps_param *p, char *buf, size_t len)
{
    gaps_config d;
    gaps_config_defaults(&d);
    char v[160];
    if (p->type == GAPS_PT_PATH) {
        buf[0] = '\0';
        return;
    }
    if (p->type == GAPS_PT_ANALYSIS) {   /* the introduction lists each process's */
        snprintf(buf, len, "(default: the process's, listed above)");
        return;
    }
    if (!(p->flags & GAPS_PF_PROCESS_DEFAULT)) {
        gaps_param_format(p, gaps_param_in_config(p, &d), GAPS_STYLE_SHORT, v, sizeof v);
        snprintf(buf, len, "(default %s)", v);
        return;
    }
    char values[GAPS_N_PROCESSES][160];
    size_t o = (size_t)snprintf(buf, len, "(default");
    int done[GAPS_N_PROCESSES] = { 0 };
    for (int i = 0; i < GAPS_N_PROCESSES; ++i) {
        gaps_config_set_process(&d, i);
        gaps_param_format(p, gaps_param_in_config(p, &d), GAPS_STYLE_SHORT, values[i],
                          sizeof values[i]);
    }
    for (int i = 0; i < GAPS_N_PROCESSES && o < len; ++i) {
        if (done[i] || gaps_process_table[i].from_file) continue;
        o += (size_t)snprintf(buf + o, len - o, "%s %s for %s", i ? "," : "", values[i],
                              gaps_process_table[i].name);
        for (int j = i + 1; j < GAPS_N_PROCESSES && o < len; ++j)
            if (!done[j] && !gaps_process_table[j].from_file && !strcmp(values[i], values[j])) {
                done[j] = 1;
                o += (size_t)snprintf(buf + o, len - o, ", %s", gaps_process_table[j].name);
            }
    }
    if (o < len) snprintf(buf + o, len - o, ")");
}

/* A default of the backend that may differ for hadron collisions: "X", or "X, Y for hadron
 * collisions". */
static void by_process_default(const char *lep, const char *hadronic, char *buf, size_t len)
{
    if (!strcmp(lep, hadronic)) snprintf(buf, len, "%s", lep);
    else snprintf(buf, len, "%s, %s for hadron collisions", lep, hadronic);
}

void gaps_options_usage(FILE *f)
{
    gaps_config d;
    gaps_config_defaults(&d);
    char names[256], analyses[512];
    param_names(&gaps_params[GAPS_P_process], ", ", names, sizeof names);
    /* each analysis that a process uses, with its processes: "lep (ee-qq), lhc (pp-z, ...)" */
    size_t o = 0;
    analyses[0] = '\0';
    for (int a = 0; a < GAPS_N_ANALYSES && o < sizeof analyses; ++a) {
        int first = 1;
        for (int i = 0; i < GAPS_N_PROCESSES && o < sizeof analyses; ++i) {
            if (gaps_process_table[i].analysis != a || gaps_process_table[i].from_file) continue;
            o += (size_t)snprintf(analyses + o, sizeof analyses - o, "%s%s%s",
                                  first ? (o ? "), " : "") : ", ",
                                  first ? gaps_analysis_table[a].name : "", first ? " (" : "");
            if (o < sizeof analyses)
                o += (size_t)snprintf(analyses + o, sizeof analyses - o, "%s",
                                      gaps_process_table[i].name);
            first = 0;
        }
    }
    if (o > 0 && o < sizeof analyses) snprintf(analyses + o, sizeof analyses - o, ")");
    fprintf(f,
        "Usage: gaps [options]\n"
        "       gaps merge [options] STATE...   combine the --state-out files of split runs\n"
        "                                       (see gaps merge --help)\n"
        "       gaps pdf [options] X Q          parton distributions of a PDF set\n"
        "       gaps lhe-check [--quiet] FILE   check a Les Houches Event file (plain or gzip)\n"
        "Event generator with a dipole shower (parallel veto algorithm); processes:\n"
        "%s.\n"
        "YODA histograms: each process's own analysis (doc/physics.md):\n%s.\n"
        "\n"
        "Physics:\n"
        "  -n, --events N           events to generate, 1..2^62 = %lld\n"
        "                           (default %lld)\n"
        "      --first-event K      number of the first event, 0..2^62-1, with K + N <= 2^62\n"
        "                           (default 0); runs with the same seed and adjacent ranges\n"
        "                           give exactly the events of one longer run; with --lhe:\n"
        "                           events of the file skipped first\n"
        "      --lhe FILE           shower the hard events of a Les Houches Event file (p p\n"
        "                           or e+ e- beams; plain or gzip, a FIFO, '-' standard\n"
        "                           input): sqrt(s) from the file; without --events, all\n"
        "                           its events (doc/lhe.md)\n"
        "      --lhe-strict-pdf     --lhe: refuse a file whose PDF set (its LHAPDF ID) is not\n"
        "                           --pdf's (default: a warning in the summary and JSON)\n",
        names, analyses, (long long)GAPS_MAX_EVENT_NUMBER, (long long)d.events);
    /* the physics parameters, from their list (gaps/parameters.h) */
    for (int id = 0; id < GAPS_N_PARAMS; ++id) {
        const gaps_param *p = &gaps_params[id];
        char metavar[256], def[256];
        if (p->metavar) snprintf(metavar, sizeof metavar, "%s", p->metavar);
        else param_names(p, "|", metavar, sizeof metavar);
        param_default_text(p, def, sizeof def);
        usage_option(f, p->short_name, p->option, metavar, p->help, def);
    }
    fprintf(f,
        "Output (FILE '-' is standard output, for at most one output):\n"
        "  -o, --output FILE        YODA histograms, /_XSEC and /_EVTCOUNT (default gaps.yoda);\n"
        "                           'none' writes no histograms (note: '-' used to mean none,\n"
        "                           it now means standard output)\n"
        "      --json FILE          run summary as JSON\n"
        "      --observables-out FILE\n"
        "                           one CSV line per event (event number order)\n"
        "      --cycles-out FILE    CSV: veto cycle, events completed so far\n"
        "      --hepmc FILE         every event (beams, Z/gamma*, final partons with colour\n"
        "                           flow) in the HepMC3 ASCII format\n"
        "      --lhe-out FILE       the hard events (LO; NLO: S, H and M events) as a Les\n"
        "                           Houches Event file (LHEF 3.0) that --lhe showers again\n"
        "  -q, --quiet              no summary and no progress\n"
        "      --progress           show progress on standard error (default: on, unless\n"
        "                           --quiet; a refreshed line on a terminal, a line per 10 %%\n"
        "                           in a log, nothing in runs under 2 s)\n"
        "      --no-progress        never show progress\n"
        "Checkpoints and merging:\n"
        "      --state-out FILE     exact accumulators of the run, for gaps merge\n"
        "      --checkpoint FILE    save the state of the run to FILE as it goes\n"
        "      --checkpoint-every N\n"
        "                           events between checkpoints, 1..2^62 (default: chosen by\n"
        "                           the backend; needs --checkpoint)\n"
        "      --resume FILE        continue the run saved in the checkpoint FILE\n"
        "  gaps merge -o OUT.yoda A.state B.state ...  adds the state files of several runs\n");
    /* the backend's defaults, named once where they do not depend on the process */
    char loops[80], cycles[80], steps[80], split[80], def[256], text[256];
    by_process_default(gaps_runtime_default_loops_fused(0) ? "fused" : "trials",
                       gaps_runtime_default_loops_fused(1) ? "fused" : "trials", loops,
                       sizeof loops);
    snprintf(cycles, sizeof cycles, "%d", gaps_runtime_default_cycles_per_launch());
    char lep[24], had[24];
    snprintf(lep, sizeof lep, "%d", gaps_runtime_default_step_cycles(0));
    snprintf(had, sizeof had, "%d", gaps_runtime_default_step_cycles(1));
    by_process_default(lep, had, steps, sizeof steps);
    snprintf(lep, sizeof lep, "%d", gaps_runtime_default_split_every(0));
    snprintf(had, sizeof had, "%d", gaps_runtime_default_split_every(1));
    by_process_default(lep, had, split, sizeof split);
    fprintf(f,
        "Uncertainty bands (doc/physics.md section 17; not with --compat gaps21 or --ablate):\n"
        "      --vary LIST          variation weights, comma-separated: shower (the shower's\n"
        "                           mu_R x 1/2 and x 2 in FSR, ISR and both: MUR_FSR=0.5,\n"
        "                           ...), scales (the hard process's mu_R and mu_F, the\n"
        "                           7-point envelope: MUR=0.5_MUF=0.5, ...; not with --lhe),\n"
        "                           alphas (alpha_s(M_Z) -+ 0.001 in shower and hard process:\n"
        "                           ALPHAS_MZ=0.117, ...; not with --lhe), pdf (every\n"
        "                           member of --pdf's set in hard process and ISR: PDF=ID by\n"
        "                           LHAPDF ID, and the band by its ErrorType in the JSON;\n"
        "                           not with --lhe)\n"
        "      --shower-mur-factor K\n"
        "                           the shower's alpha_s at (K p_T)^2, %g..%g (default 1)\n",
        GAPS_SHOWER_MUR_FACTOR_MIN, GAPS_SHOWER_MUR_FACTOR_MAX);
    fprintf(f,
        "Execution (the defaults are this build's):\n"
        "      --pool N             event slots in the pool, 1..%lld (2^28)\n"
        "                           (default: 128 per CPU thread, 2^20 on a GPU)\n"
        "  -t, --threads N          OpenMP threads, 1..%d (openmp build; default: OpenMP's)\n",
        (long long)GAPS_MAX_SLOTS, GAPS_MAX_THREADS);
    snprintf(def, sizeof def, "(default %s)", loops);
    usage_option(f, 0, "loops", "steps|trials|fused",
                 "steps: one loop per veto step (the paper's structure);\n"
                 "trials: per veto cycle one loop for the trial (steps 1-3),\n"
                 "one for the splitting; fused: whole cycles per loop", def);
    snprintf(text, sizeof text, "veto cycles per fused launch, or with --loops steps or\n"
                                "trials between refills, 1..%lld (2^20)",
             (long long)GAPS_MAX_CYCLES_PER_LAUNCH);
    snprintf(def, sizeof def, "(default fused %s; steps, trials %s)", cycles, steps);
    usage_option(f, 0, "cycles-per-launch", "K", text, def);
    snprintf(text, sizeof text, "fused launches: accepted trials wait and are split\n"
                                "together every M-th veto cycle (1: at once; the events\n"
                                "do not change), 1..%lld",
             (long long)GAPS_MAX_CYCLES_PER_LAUNCH);
    snprintf(def, sizeof def, "(default %s)", split);
    usage_option(f, 0, "split-every", "M", text, def);
    fprintf(f,
        "      --lhe-threads N      --lhe: threads that read the file's events, 0..%d, while\n"
        "                           one more reads the input and the run showers (0: the\n"
        "                           run's own thread reads; the events are the same)\n"
        "                           (default: the CPUs less one, at most 16)\n"
        "      --lhe-piece BYTES    --lhe: text each thread reads at a time, 1..%lld (2^26)\n"
        "                           (default 1048576)\n"
        "      --lhe-batch N        --lhe: hard events handed to the shower at a time, 1..%d;\n"
        "                           the next batch is read while one showers (default: twice\n"
        "                           the pool, 16384..1048576; the events are the same)\n"
        "      --no-refill          run the pool in batches instead of refilling free slots\n"
        "      --allow-host         offload build: run on the host if no GPU is usable\n"
        "      --energy             measure the GPU's energy during the run\n",
        GAPS_MAX_LHE_THREADS, (long long)GAPS_MAX_LHE_PIECE, GAPS_MAX_LHE_BATCH);
    fprintf(f,
        "Other:\n"
        "  -c, --card FILE          read options from a run card: one 'key = value' a line,\n"
        "                           key = a long option without '--' (events = 1e6,\n"
        "                           no-refill = true); '#' starts a comment; options on the\n"
        "                           command line win over the card\n"
        "  -h, --help               this text\n"
        "  -V, --version            version, backend and compiler\n"
        "\n"
        "Write options as --name VALUE or --name=VALUE, in full.  Numbers are decimal: an\n"
        "integer may be written 1000000, 1e6 or 2.5e6 when its value is exact; no sign, no\n"
        "hexadecimal, no inf or nan, no spaces.  Errors end the program with status 2.\n");
}

/* ------------------------------------------------------------------------------------------
 * gaps merge
 * ------------------------------------------------------------------------------------------ */

static int merge_handler(void *vctx, const opt_def *d, const char *spelled, const char *val,
                         char *msg, size_t len)
{
    (void)spelled;
    gaps_merge_options *m = vctx;
    if (!d) {
        if (val[0] == '-' && val[1] == '\0')
            return fail(msg, len, NULL, "merge reads state files by name: '-' (standard input) "
                                        "is not supported");
        m->inputs[m->n_inputs++] = val;
        return 0;
    }
    if (d->kind == K_HELP) { gaps_merge_options_usage(stdout); return 1; }
    if (d->kind == K_FLAG) { m->quiet = 1; return 0; }
    value v;
    char why[320];
    if (parse_value(d, val, 0, &v, why, sizeof why) != 0)
        return fail(msg, len, NULL, "invalid value '%s' for --%s: %s", show(val).s, d->name,
                    why);
    if (d->field == F_M_OUTPUT) m->output = strcmp(val, "none") ? val : NULL;
    else if (d->field == F_M_JSON) m->json = val;
    else m->state_out = val;
    return 0;
}

static int compare_strings(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int gaps_merge_options_parse(int argc, char **argv, gaps_merge_options *m, char *msg,
                             size_t len)
{
    memset(m, 0, sizeof *m);
    m->output = "merged.yoda";
    if (msg && len) msg[0] = '\0';
    m->inputs = malloc((argc > 0 ? (size_t)argc : 1) * sizeof *m->inputs);
    if (!m->inputs) return fail(msg, len, NULL, "out of memory");
    int r = walk_argv(argc, argv, merge_table, merge_handler, m, msg, len);
    if (r == 0 && m->n_inputs == 0)
        r = fail(msg, len, NULL, "merge needs at least one state file (gaps merge -o OUT.yoda "
                                 "A.state B.state ...)");
    if (r == 0 && !m->output && !m->json && !m->state_out)
        r = fail(msg, len, NULL, "merge has nothing to write: --output none and neither "
                                 "--json nor --state-out");
    if (r == 0) {
        int n = 0;
        const char *p[3] = { m->output, m->json, m->state_out };
        for (int k = 0; k < 3; ++k) n += p[k] && !strcmp(p[k], "-");
        if (n > 1)
            r = fail(msg, len, NULL, "at most one of --output, --json and --state-out may be "
                                     "'-' (standard output)");
    }
    if (r == 0 && m->n_inputs > 1) {
        /* the same file twice would add its events twice */
        const char **sorted = malloc((size_t)m->n_inputs * sizeof *sorted);
        if (!sorted) {
            r = fail(msg, len, NULL, "out of memory");
        } else {
            memcpy(sorted, m->inputs, (size_t)m->n_inputs * sizeof *sorted);
            qsort(sorted, (size_t)m->n_inputs, sizeof *sorted, compare_strings);
            for (int k = 1; k < m->n_inputs && r == 0; ++k)
                if (!strcmp(sorted[k - 1], sorted[k]))
                    r = fail(msg, len, NULL, "state file '%s' given twice: its events would "
                                             "count twice", show(sorted[k]).s);
            free(sorted);
        }
    }
    if (r != 0) gaps_merge_options_free(m);
    return r;
}

void gaps_merge_options_free(gaps_merge_options *m)
{
    if (!m) return;
    free((void *)m->inputs);
    m->inputs = NULL;
    m->n_inputs = 0;
}

void gaps_merge_options_usage(FILE *f)
{
    fprintf(f,
        "Usage: gaps merge [options] STATE...\n"
        "Add the exact accumulators of runs written with --state-out (for example runs with\n"
        "the same seed and adjacent --first-event ranges) and write the histograms of the\n"
        "combined run: the same bytes as one run over all the events.\n"
        "\n"
        "  -o, --output FILE   merged YODA histograms (default merged.yoda; '-' standard\n"
        "                      output; 'none' no histograms)\n"
        "      --json FILE     summary of the merged run as JSON\n"
        "      --state-out FILE  merged state, to merge again later\n"
        "  -q, --quiet         no summary on standard output\n"
        "  -h, --help          this text\n"
        "At least one STATE file; each may be given once.  '--' ends the options.\n");
}

/* ------------------------------------------------------------------------------------------
 * The options that every process of a shared run must agree on (options.h)
 * ------------------------------------------------------------------------------------------ */

/* The options that are not physics parameters, then the parameters in list order. */
#define N_OTHER (GAPS_OPTIONS_FINGERPRINT - GAPS_N_PARAMS)
static const char *const fingerprint_names[GAPS_OPTIONS_FINGERPRINT] = {
    "--events", "--first-event", "--output", "--json", "--observables-out", "--hepmc",
    "--lhe-out", "--cycles-out", "--state-out", "--checkpoint", "--checkpoint-every", "--resume", "--loops",
    "--cycles-per-launch", "--split-every", "--no-refill", "--allow-host", "--energy",
    "--quiet", "--progress", "--vary", "--shower-mur-factor",
#define GAPS_FP_NAME_(key, option, ...) "--" option,
    GAPS_PARAMETERS(GAPS_FP_NAME_)
#undef GAPS_FP_NAME_
};

/* FNV-1a, 64 bits: enough to tell two values apart, and the same on every host. */
static uint64_t fnv(const void *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325u;
    for (size_t i = 0; i < n; ++i) h = (h ^ ((const unsigned char *)p)[i]) * 0x100000001b3u;
    return h;
}
static uint64_t fp_int(int64_t v) { return fnv(&v, sizeof v); }
static uint64_t fp_double(double v) { return fnv(&v, sizeof v); }   /* the bits: exact */
static uint64_t fp_str(const char *s) { return s ? fnv(s, strlen(s) + 1) : 0; }

void gaps_options_fingerprint(const gaps_options *o, uint64_t fp[GAPS_OPTIONS_FINGERPRINT])
{
    const gaps_config *c = &o->cfg;
    const uint64_t v[N_OTHER] = {
        fp_int(c->events), fp_int(c->first_event), fp_str(o->output), fp_str(o->json),
        fp_str(o->observables_out), fp_str(o->hepmc), fp_str(o->lhe_out),
        fp_str(o->cycles_out), fp_str(o->state_out), fp_str(o->checkpoint), fp_int(o->checkpoint_every),
        fp_str(o->resume), fp_int(c->loop_mode), fp_int(c->cycles_per_launch),
        fp_int(c->split_every), fp_int(c->refill), fp_int(c->allow_host), fp_int(o->energy),
        fp_int(o->quiet), fp_int(o->progress), fp_int(c->vary), fp_double(c->shower_mur_factor)
    };
    memcpy(fp, v, sizeof v);
    for (int id = 0; id < GAPS_N_PARAMS; ++id) {
        const gaps_param *p = &gaps_params[id];
        const void *field = gaps_param_in_config(p, c);
        uint64_t h;
        if (p->type == GAPS_PT_REAL || p->type == GAPS_PT_UNIT) {
            double d;
            memcpy(&d, field, sizeof d);
            h = fp_double(d);
        } else if (p->type == GAPS_PT_PDF || p->type == GAPS_PT_PATH) {
            h = fp_str(field);
        } else if (p->type == GAPS_PT_U32) {
            uint32_t u;
            memcpy(&u, field, sizeof u);
            h = fp_int(u);
        } else {
            int i;
            memcpy(&i, field, sizeof i);
            h = fp_int(i);
        }
        fp[N_OTHER + id] = h;
    }
}

const char *gaps_options_fingerprint_name(int i)
{
    return i >= 0 && i < GAPS_OPTIONS_FINGERPRINT ? fingerprint_names[i] : "?";
}
