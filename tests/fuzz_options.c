/* fuzz_options.c -- fuzzing the command line and run card parsers (src/program/options.c).
 *
 * One input is used four ways: split at newlines into argv words (words may hold spaces),
 * split at any white space, written to a file and read as a run card, and its first line as
 * the value of every numeric option.  After each parse the result is checked, not only for
 * crashes: status 0, 1 or 2; an error is one non-empty line (main() prints "gaps: " before
 * it); a successful parse gives values inside every documented range; an integer is
 * accepted exactly when an independent oracle (moving the decimal point in the string) says
 * it is an exact integer in range, with the same value; a run card line `key = X` and
 * `--key=X` agree.  Any violation aborts with the input printed.
 *
 * Two builds:
 *   libFuzzer:  clang-19 -fsanitize=fuzzer,address,undefined ... (LLVMFuzzerTestOneInput)
 *   standalone: -DGAPS_FUZZ_STANDALONE, any C compiler, no libFuzzer: generates inputs from a
 *               seed by mutating valid command lines and cards (option names, numbers at and
 *               past each limit in many spellings, '=', garbage bytes) for a given time.
 *     fuzz_options [--seconds S] [--iterations N] [--seed X] [--corpus DIR]
 *     --corpus DIR writes the first 2000 generated inputs to DIR (a libFuzzer seed corpus)
 *     and exits.
 * tests/fuzz_options.sh builds and runs either.
 */
#define _POSIX_C_SOURCE 200809L
#include "program/options.h"
#include "gaps/compat.h"
#include "gaps/constants.h"
#include "gaps/process.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_INPUT 65536
#define MAX_WORDS 256

static const uint8_t *cur_data;   /* the input being checked, printed on failure */
static size_t cur_size;
static char card_path[512];
static long stats[3][3];          /* [gaps, merge, card][status 0, 1, 2] */

static void print_input(void)
{
    fprintf(stderr, "input (%zu bytes): \"", cur_size);
    for (size_t i = 0; i < cur_size && i < 4096; ++i) {
        unsigned char c = cur_data[i];
        if (c == '\n') fputs("\\n", stderr);
        else if (c == '\\' || c == '"') fprintf(stderr, "\\%c", c);
        else if (c < 0x20 || c >= 0x7f) fprintf(stderr, "\\x%02x", c);
        else fputc(c, stderr);
    }
    fputs("\"\n", stderr);
}

static void fuzz_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("fuzz_options: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    print_input();
    abort();
}

/* ---- checks of one parse ---- */

static void check_status(int r, const char *msg, size_t len, const char *who)
{
    if (r < 0 || r > 2) fuzz_fail("%s returned %d", who, r);
    if (!memchr(msg, '\0', len)) fuzz_fail("%s: message not terminated", who);
    if (r == 2) {
        if (msg[0] == '\0' || strncmp(msg, "gaps: ", 6) == 0)
            fuzz_fail("%s: message '%s'", who, msg);
        if (strchr(msg, '\n') || strchr(msg, '\r')) fuzz_fail("%s: message of two lines", who);
        for (const char *p = msg; *p; ++p)
            if ((unsigned char)*p < 0x20 || *p == 0x7f)
                fuzz_fail("%s: control character in the message: %s", who, msg);
    } else if (msg[0]) {
        fuzz_fail("%s: status %d with a message '%s'", who, r, msg);
    }
}

static void check_string(const char *s, const char *what)
{
    /* touching every byte lets ASan catch a dangling pointer */
    if (s && strlen(s) == 0) fuzz_fail("%s is empty", what);
}

static void check_options(const gaps_options *o)
{
    const gaps_config *c = &o->cfg;
    const int64_t max = GAPS_MAX_EVENT_NUMBER;
    if (c->events < 1 || c->events > max) fuzz_fail("events %" PRId64, c->events);
    if (c->first_event < 0 || c->first_event > max - c->events)
        fuzz_fail("first_event %" PRId64 " events %" PRId64, c->first_event, c->events);
    if (!(c->ecm > 0) || !isfinite(c->ecm)) fuzz_fail("ecm %g", c->ecm);
    if (!(c->t_cut > 0) || !isfinite(c->t_cut)) fuzz_fail("tcut %g", c->t_cut);
    if (!(c->alphas_mz > 0 && c->alphas_mz < 1)) fuzz_fail("alphas_mz %g", c->alphas_mz);
    if (c->alphas_order < 0 || c->alphas_order > 2) fuzz_fail("order %d", c->alphas_order);
    if (c->process < 0 || c->process >= GAPS_N_PROCESSES) fuzz_fail("process %d", c->process);
    if (c->compat < 0 || c->compat >= GAPS_N_COMPAT) fuzz_fail("compat %d", c->compat);
    if (c->ablate < 0 || c->ablate > GAPS_ABLATE_ALL) fuzz_fail("ablate %d", c->ablate);
    if (!memchr(c->pdf, '\0', sizeof c->pdf) || !memchr(c->pdf_path, '\0', sizeof c->pdf_path))
        fuzz_fail("pdf or pdf_path not terminated");
    char pdf_name[GAPS_PDF_NAME_MAX];
    int pdf_member;
    if (c->pdf[0] && gaps_pdf_spec_parse(c->pdf, pdf_name, &pdf_member) != 0)
        fuzz_fail("pdf '%s' is no set name", c->pdf);
    if (c->slots < 0 || c->slots > GAPS_MAX_SLOTS) fuzz_fail("slots %d", c->slots);
    if (c->threads < 0 || c->threads > GAPS_MAX_THREADS) fuzz_fail("threads %d", c->threads);
    if (c->max_partons < 3 || c->max_partons > GAPS_MAX_PARTONS)
        fuzz_fail("max_partons %d", c->max_partons);
    if (c->cycles_per_launch < 0 || c->cycles_per_launch > GAPS_MAX_CYCLES_PER_LAUNCH)
        fuzz_fail("cycles_per_launch %d", c->cycles_per_launch);
    if (c->split_every < 0 || c->split_every > GAPS_MAX_CYCLES_PER_LAUNCH)
        fuzz_fail("split_every %d", c->split_every);   /* 0: the process default */
    if (c->loop_mode != GAPS_LOOPS_STEPS && c->loop_mode != GAPS_LOOPS_FUSED
        && c->loop_mode != GAPS_LOOPS_TRIALS && c->loop_mode != GAPS_LOOPS_AUTO)
        fuzz_fail("loop_mode %d", c->loop_mode);
    if (c->refill != 0 && c->refill != 1) fuzz_fail("refill %d", c->refill);
    if (o->progress < -1 || o->progress > 1) fuzz_fail("progress %d", o->progress);
    if (o->checkpoint_every < 0 || o->checkpoint_every > max)
        fuzz_fail("checkpoint_every %" PRId64, o->checkpoint_every);
    if (o->checkpoint_every && !o->checkpoint) fuzz_fail("checkpoint_every without checkpoint");
    const char *s[] = { o->output, o->json, o->observables_out, o->hepmc, o->cycles_out,
                        o->state_out, o->checkpoint, o->resume, o->card };
    int dash = 0;
    for (int k = 0; k < 9; ++k) {
        check_string(s[k], "a file name");
        if (s[k] && s[k][0] == '-' && s[k][1]) fuzz_fail("file name '%s' accepted", s[k]);
        dash += s[k] && !strcmp(s[k], "-");
    }
    if (dash > 1) fuzz_fail("%d outputs on standard output", dash);
    if ((o->checkpoint && !strcmp(o->checkpoint, "-")) || (o->resume && !strcmp(o->resume, "-")))
        fuzz_fail("checkpoint or resume '-'");
}

static int run_gaps(int argc, char **argv, gaps_options *keep)
{
    gaps_options o;
    char msg[512];
    memset(msg, 'x', sizeof msg);
    int r = gaps_options_parse(argc, argv, &o, msg, sizeof msg);
    check_status(r, msg, sizeof msg, "gaps_options_parse");
    ++stats[0][r];
    if (r == 0) check_options(&o);
    if (r != 0 && o.card_text_) fuzz_fail("status %d left the card allocated", r);
    if (keep && r == 0) *keep = o;
    else gaps_options_free(&o);
    return r;
}

static void run_merge(int argc, char **argv)
{
    gaps_merge_options m;
    char msg[512];
    memset(msg, 'x', sizeof msg);
    int r = gaps_merge_options_parse(argc, argv, &m, msg, sizeof msg);
    check_status(r, msg, sizeof msg, "gaps_merge_options_parse");
    ++stats[1][r];
    if (r == 0) {
        if (m.n_inputs < 1 || m.n_inputs >= argc) fuzz_fail("merge: %d inputs", m.n_inputs);
        for (int i = 0; i < m.n_inputs; ++i) {
            if (!strcmp(m.inputs[i], "-")) fuzz_fail("merge: input '-'");
            for (int j = 0; j < i; ++j)
                if (!strcmp(m.inputs[i], m.inputs[j])) fuzz_fail("merge: duplicate input");
        }
        check_string(m.output, "merge output");
        check_string(m.json, "merge json");
        check_string(m.state_out, "merge state");
        if (!m.output && !m.json && !m.state_out) fuzz_fail("merge writes nothing");
    } else if (m.inputs) {
        fuzz_fail("merge: status %d left inputs allocated", r);
    }
    gaps_merge_options_free(&m);
}

/* ---- the number oracle ---- */

/* Grammar: digits [. digits] [e|E [+|-] digits], at least one mantissa digit.  Written as a
 * plain scan, independently of options.c's lexer. */
typedef struct split_number {
    char digits[MAX_INPUT];   /* mantissa digits, point removed */
    long point;               /* position of the decimal point in digits after the exponent */
    int huge_exp;             /* exponent beyond +-10^7: sign in point (+1 / -1) */
} split_number;

static int oracle_split(const char *s, split_number *n)
{
    size_t nd = 0, i = 0;
    long before = 0;
    int seen_digit = 0;
    while (s[i] >= '0' && s[i] <= '9') n->digits[nd++] = s[i++], ++before, seen_digit = 1;
    if (s[i] == '.') {
        ++i;
        while (s[i] >= '0' && s[i] <= '9') n->digits[nd++] = s[i++], seen_digit = 1;
    }
    if (!seen_digit) return -1;
    n->digits[nd] = '\0';
    long e = 0;
    int huge = 0, sign = 1;
    if (s[i] == 'e' || s[i] == 'E') {
        ++i;
        if (s[i] == '+' || s[i] == '-') sign = s[i++] == '-' ? -1 : 1;
        if (!(s[i] >= '0' && s[i] <= '9')) return -1;
        for (; s[i] >= '0' && s[i] <= '9'; ++i) {
            if (e > 10000000) huge = 1;
            else e = 10 * e + (s[i] - '0');
        }
    }
    if (s[i] != '\0') return -1;
    n->huge_exp = huge ? sign : 0;
    n->point = before + sign * e;
    return 0;
}

/* 1 if s is an exact integer in [lo, hi] (value in *v), 0 if not, by moving the point. */
static int oracle_integer(const char *s, int64_t lo, int64_t hi, int64_t *v)
{
    static split_number n;
    if (oracle_split(s, &n) != 0) return 0;
    const long nd = (long)strlen(n.digits);
    int all_zero = 1;
    for (long i = 0; i < nd; ++i) all_zero &= n.digits[i] == '0';
    uint64_t value = 0;
    if (!all_zero) {
        if (n.huge_exp) return 0;   /* far beyond 2^64, or a tiny fraction */
        /* fraction digits: those at or after the point must all be zero */
        for (long i = n.point < 0 ? 0 : n.point; i < nd; ++i)
            if (n.digits[i] != '0') return 0;
        /* integer digits: digits[0, point), padded with zeros when point > nd */
        char intpart[64];
        long k = 0, i = 0;
        while (i < n.point && i < nd && n.digits[i] == '0') ++i;   /* leading zeros */
        for (; i < n.point; ++i) {
            if (k >= 20) return 0;
            intpart[k++] = i < nd ? n.digits[i] : '0';
        }
        intpart[k] = '\0';
        if (k == 0 || k > 19) return 0;   /* k == 0: the value is zero... but not all_zero */
        value = strtoull(intpart, NULL, 10);   /* <= 19 digits: exact */
    }
    if (value < (uint64_t)lo || value > (uint64_t)hi) return 0;
    *v = (int64_t)value;
    return 1;
}

static int oracle_real_syntax(const char *s)
{
    static split_number n;
    return oracle_split(s, &n) == 0;
}

/* ---- one input ---- */

typedef struct int_opt {
    const char *name;
    int64_t lo, hi;
    int64_t (*get)(const gaps_options *);
    const char *extra[3];
} int_opt;

static int64_t g_events(const gaps_options *o) { return o->cfg.events; }
static int64_t g_first(const gaps_options *o) { return o->cfg.first_event; }
static int64_t g_seed(const gaps_options *o) { return o->cfg.seed; }
static int64_t g_pool(const gaps_options *o) { return o->cfg.slots; }
static int64_t g_threads(const gaps_options *o) { return o->cfg.threads; }
static int64_t g_maxp(const gaps_options *o) { return o->cfg.max_partons; }
static int64_t g_cpl(const gaps_options *o) { return o->cfg.cycles_per_launch; }
static int64_t g_order(const gaps_options *o) { return o->cfg.alphas_order; }
static int64_t g_every(const gaps_options *o) { return o->checkpoint_every; }

static const int_opt int_opts[] = {
    { "events", 1, GAPS_MAX_EVENT_NUMBER, g_events, { NULL } },
    { "first-event", 0, GAPS_MAX_EVENT_NUMBER - 1, g_first, { "--events", "1", NULL } },
    { "seed", 0, 4294967295LL, g_seed, { NULL } },
    { "pool", 1, GAPS_MAX_SLOTS, g_pool, { NULL } },
    { "threads", 1, GAPS_MAX_THREADS, g_threads, { NULL } },
    { "max-partons", 3, GAPS_MAX_PARTONS, g_maxp, { NULL } },
    { "cycles-per-launch", 1, GAPS_MAX_CYCLES_PER_LAUNCH, g_cpl, { NULL } },
    { "alphas-order", 0, 2, g_order, { NULL } },
    { "checkpoint-every", 1, GAPS_MAX_EVENT_NUMBER, g_every, { "--checkpoint", "ck", NULL } },
};

static void write_card(const char *text, size_t n)
{
    FILE *f = fopen(card_path, "wb");
    if (!f) { perror(card_path); abort(); }
    if (n) fwrite(text, 1, n, f);
    fclose(f);
}

/* Is this text free of what a card line trims or cuts (so that `key = X` means X)? */
static int card_safe(const char *x)
{
    if (!*x) return 0;
    for (const char *p = x; *p; ++p)
        if (*p == '#' || *p == ' ' || *p == '\t' || *p == '\r' || *p == '\f' || *p == '\v' ||
            *p == '\n')
            return 0;
    return 1;
}

/* The first line of the input as the value of every numeric option, against the oracle,
 * on the command line and in a card. */
static void check_numbers(const char *x)
{
    static char arg[MAX_INPUT + 64], text[MAX_INPUT + 64];
    char a0[] = "gaps", ca[] = "--card";
    const int safe = card_safe(x);
    for (size_t k = 0; k < sizeof int_opts / sizeof int_opts[0]; ++k) {
        const int_opt *t = &int_opts[k];
        snprintf(arg, sizeof arg, "--%s=%s", t->name, x);
        char *argv[8] = { a0, arg };
        int argc = 2;
        for (int e = 0; t->extra[e]; ++e) argv[argc++] = (char *)t->extra[e];
        argv[argc] = NULL;
        int64_t want = 0;
        const int ok = oracle_integer(x, t->lo, t->hi, &want);
        gaps_options o;
        int r = run_gaps(argc, argv, &o);
        if (r == 1) continue;   /* cannot happen: no --help here */
        if ((r == 0) != ok) fuzz_fail("--%s=%s: parser %d, oracle %d", t->name, x, r, ok);
        if (r == 0) {
            if (t->get(&o) != want)
                fuzz_fail("--%s=%s: parser %" PRId64 ", oracle %" PRId64, t->name, x,
                          t->get(&o), want);
            gaps_options_free(&o);
        }
        if (!safe) continue;
        /* the same in a card */
        int n = snprintf(text, sizeof text, "%s = %s\n", t->name, x);
        write_card(text, (size_t)n);
        char *cargv[8] = { a0, ca, card_path };
        int cargc = 3;
        for (int e = 0; t->extra[e]; ++e) cargv[cargc++] = (char *)t->extra[e];
        cargv[cargc] = NULL;
        int rc = run_gaps(cargc, cargv, &o);
        if ((rc == 0) != ok) fuzz_fail("card '%s = %s': parser %d, oracle %d", t->name, x, rc,
                                       ok);
        if (rc == 0) {
            if (t->get(&o) != want) fuzz_fail("card %s = %s: %" PRId64, t->name, x, t->get(&o));
            gaps_options_free(&o);
        }
    }
    /* reals: the grammar and the ranges */
    const struct { const char *name; int unit; } reals[] = {
        { "ecm", 0 }, { "tcut", 0 }, { "alphas-mz", 1 } };
    for (int k = 0; k < 3; ++k) {
        snprintf(arg, sizeof arg, "--%s=%s", reals[k].name, x);
        char *argv[3] = { a0, arg, NULL };
        gaps_options o;
        int r = run_gaps(2, argv, &o);
        int ok = 0;
        if (oracle_real_syntax(x)) {
            double d = strtod(x, NULL);
            ok = isfinite(d) && d > 0 && (!reals[k].unit || d < 1);
        }
        if ((r == 0) != ok) fuzz_fail("--%s=%s: parser %d, oracle %d", reals[k].name, x, r, ok);
        if (r == 0) gaps_options_free(&o);
    }
}

static int split(char *buf, const char *seps, char **words, int max)
{
    int n = 0;
    for (char *p = buf; *p && n < max;) {
        while (*p && strchr(seps, *p)) ++p;
        if (!*p) break;
        words[n++] = p;
        while (*p && !strchr(seps, *p)) ++p;
        if (*p) *p++ = '\0';
    }
    return n;
}

static char name_gaps[] = "gaps", name_merge[] = "merge";

static void fuzz_one(const uint8_t *data, size_t size)
{
    static char buf[MAX_INPUT + 1], copy[MAX_INPUT + 1];
    static char *words[MAX_WORDS + 2];
    if (size > MAX_INPUT) size = MAX_INPUT;
    cur_data = data;
    cur_size = size;
    memcpy(buf, data, size);
    buf[size] = '\0';   /* an embedded NUL ends the text for the argv splits */

    /* argv split at newlines: words keep their spaces (empty words too, as "" arguments) */
    memcpy(copy, buf, size + 1);
    int n = 1;
    words[0] = name_gaps;
    for (char *p = copy; n <= MAX_WORDS;) {
        words[n++] = p;
        char *nl = strchr(p, '\n');
        if (!nl) break;
        *nl = '\0';
        p = nl + 1;
    }
    words[n] = NULL;
    run_gaps(n, words, NULL);
    words[0] = name_merge;
    run_merge(n, words);

    /* argv split at white space */
    memcpy(copy, buf, size + 1);
    n = 1 + split(copy, " \t\n\r\f\v", words + 1, MAX_WORDS);
    words[0] = name_gaps;
    words[n] = NULL;
    run_gaps(n, words, NULL);
    words[0] = name_merge;
    run_merge(n, words);

    /* the input as a run card, alone and after the white-space words */
    write_card((const char *)data, size);
    char a0[] = "gaps", ca[] = "--card";
    char *cargv[] = { a0, ca, card_path, NULL };
    int r = run_gaps(3, cargv, NULL);
    ++stats[2][r];
    if (n + 2 <= MAX_WORDS) {
        words[0] = name_gaps;
        words[n] = ca;
        words[n + 1] = card_path;
        words[n + 2] = NULL;
        run_gaps(n + 2, words, NULL);
    }

    /* the first line as a number */
    memcpy(copy, buf, size + 1);
    char *nl = strchr(copy, '\n');
    if (nl) *nl = '\0';
    if (strlen(copy) <= 4096) check_numbers(copy);
}

static void setup(void)
{
    if (card_path[0]) return;
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(card_path, sizeof card_path, "%s/fuzz_options_card.XXXXXX", tmp);
    int fd = mkstemp(card_path);
    if (fd < 0) { perror(card_path); abort(); }
    close(fd);
    /* --help and --version print: keep standard output quiet */
    int nul = open("/dev/null", O_WRONLY);
    if (nul >= 0) { fflush(stdout); dup2(nul, 1); close(nul); }
}

static void cleanup(void)
{
    if (card_path[0]) unlink(card_path);
}

#ifndef GAPS_FUZZ_STANDALONE

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    setup();
    atexit(cleanup);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_one(data, size);
    return 0;
}

#else /* ---- standalone generator ---- */

static uint64_t rng;
static uint64_t rnd(void)   /* xorshift64* */
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return rng * 2685821657736338717ULL;
}
static uint64_t below(uint64_t n) { return n ? rnd() % n : 0; }

static const char *long_names[] = {
    "events", "first-event", "ecm", "alphas-mz", "alphas-order", "tcut", "seed", "output",
    "json", "observables-out", "cycles-out", "hepmc", "quiet", "progress", "no-progress",
    "state-out", "checkpoint", "checkpoint-every", "resume", "pool", "max-partons", "threads",
    "loops", "cycles-per-launch", "no-refill", "allow-host", "energy", "card", "help",
    "version", "frobnicate", "ev", "Events", "", "-", "=", "state", "merge", "quiet=",
    "process", "compat", "pdf", "pdf-path", "pdf-path=", "ee-qq", "pp-z", "pp-ll", "gaps21",
    "CT14lo", "CT14lo/0", "ablate", "fi-kernels", "fi-kernels,if-kernels", "none," };
static const char short_names[] = "nsotqcxhVe5-=";

static const char *specials[] = {
    "0x10", " 5", "5 ", "1e6", "2.5e6", "1.5", "4611686018427387904", "4611686018427387905",
    "4611686018427387903", "4.611686018427387904e18", "4.611686018427387905e18",
    "461168601842738790400e-2", "9223372036854775807", "9223372036854775808",
    "18446744073709551615", "18446744073709551616", "99999999999999999999", "1e19",
    "1e999999999999999999",
    "1e-999999999999999", "0e999999999999", "-1", "+1", "-0", "inf", "nan", "0x1p3", ".", "",
    "e", "1e", "1e+", ".5", "5.", "0", "1", "2", "3", "64", "65", "4096", "4097", "268435456",
    "268435457", "1048576", "1048577", "4294967295", "4294967296", "0.118", "91.2", "1e-400",
    "1e309", "none", "-", "--", "steps", "trials", "fused", "true", "false", "yes", "no", "TRUE", "a.yoda",
    "./-x", "-x", "--quiet", "=", "==", "#", "a#b", "a=b", " ", "\t", "\r", "\x01", "\xff",
    "\xc3\xa9", "0.5", "1.0", "0.9999999999999999999", "1000e-3", "7.0", "007", "1E6", "1e+6",
};

/* Append a number near a limit, in a random spelling. */
static void number_at_limit(char *out, size_t len)
{
    static const int64_t limits[] = { 0, 1, 2, 3, 64, 4096, (int64_t)1 << 20, (int64_t)1 << 28,
                                      4294967295LL, (int64_t)1 << 62, INT64_MAX };
    int64_t base = limits[below(sizeof limits / sizeof limits[0])];
    uint64_t v = (uint64_t)base + (uint64_t)(int64_t)((int)below(5) - 2);   /* +-2 */
    char d[32];
    snprintf(d, sizeof d, "%" PRIu64, v);
    size_t nd = strlen(d);
    switch (below(7)) {
    case 0: snprintf(out, len, "%s", d); break;
    case 1: snprintf(out, len, "%s.0", d); break;
    case 2: snprintf(out, len, "%s0e-1", d); break;
    case 3: snprintf(out, len, "%c.%se%zu", d[0], d + 1, nd - 1); break;
    case 4: snprintf(out, len, "0.%se%zu", d, nd); break;
    case 5: snprintf(out, len, "%s%se-%d", d, "000", 3); break;
    default: snprintf(out, len, "%s%c", d, "05.e"[below(4)]); break;
    }
}

static void random_value(char *out, size_t len)
{
    switch (below(4)) {
    case 0: number_at_limit(out, len); break;
    case 1: {
        size_t n = below(12);
        for (size_t i = 0; i < n && i + 1 < len; ++i) out[i] = "0123456789.eE+-x #=\t"[below(20)];
        out[n < len ? n : len - 1] = '\0';
        break;
    }
    default: snprintf(out, len, "%s", specials[below(sizeof specials / sizeof specials[0])]);
    }
}

/* One input: argv words joined by newlines, or a card. */
static size_t generate(char *buf, size_t cap)
{
    size_t n = 0;
    char val[128], word[512];
    const int card = below(3) == 0;
    const int nwords = (int)below(card ? 12 : 9);
    for (int w = 0; w < nwords; ++w) {
        const char *name = long_names[below(sizeof long_names / sizeof long_names[0])];
        random_value(val, sizeof val);
        if (card) {
            switch (below(10)) {
            case 0: snprintf(word, sizeof word, "# %s", val); break;
            case 1: snprintf(word, sizeof word, "%s", ""); break;
            case 2: snprintf(word, sizeof word, "%s %s", name, val); break;
            case 3: snprintf(word, sizeof word, "  %s\t=  %s  # c\r", name, val); break;
            default: snprintf(word, sizeof word, "%s = %s", name, val); break;
            }
        } else {
            switch (below(8)) {
            case 0: snprintf(word, sizeof word, "--%s=%s", name, val); break;
            case 1: snprintf(word, sizeof word, "--%s\n%s", name, val); break;
            case 2: snprintf(word, sizeof word, "--%s", name); break;
            case 3: {   /* one call to below() per statement: the same inputs on every compiler */
                const char c = short_names[below(sizeof short_names - 1)];
                snprintf(word, sizeof word, "-%c%s", c, below(2) ? val : "");
                break;
            }
            case 4: {
                const char c1 = short_names[below(sizeof short_names - 1)];
                const char c2 = short_names[below(sizeof short_names - 1)];
                snprintf(word, sizeof word, "-%c%c", c1, c2);
                break;
            }
            case 5: snprintf(word, sizeof word, "%s", val); break;
            default: snprintf(word, sizeof word, "--%s\n%s", name, val); break;
            }
        }
        size_t wl = strlen(word);
        if (n + wl + 2 >= cap) break;
        memcpy(buf + n, word, wl);
        n += wl;
        buf[n++] = '\n';
    }
    /* mutations: garbage bytes, deletions, duplicated spans, NULs, a very long line */
    for (int m = (int)below(4); m > 0 && n > 0; --m) {
        size_t at = below(n);
        switch (below(6)) {
        case 0: buf[at] = (char)below(256); break;
        case 1: memmove(buf + at, buf + at + 1, n - at - 1); --n; break;
        case 2: {
            size_t span = below(n - at) + 1;
            if (n + span < cap) { memmove(buf + n, buf + at, span); n += span; }
            break;
        }
        case 3: buf[at] = "=\n#- \0"[below(6)]; break;
        case 4: n = at; break;
        default:
            if (below(20) == 0 && n + 5000 < cap) {   /* past the card's line limit */
                size_t len = 4090 + below(12);
                memset(buf + n, 'a', len);
                n += len;
            }
        }
    }
    return n;
}

int main(int argc, char **argv)
{
    double seconds = 15;
    long iterations = -1;
    uint64_t seed = 1;
    const char *corpus = NULL;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--seconds") && i + 1 < argc) seconds = atof(argv[++i]);
        else if (!strcmp(argv[i], "--iterations") && i + 1 < argc) iterations = atol(argv[++i]);
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--corpus") && i + 1 < argc) corpus = argv[++i];
        else {
            fprintf(stderr, "usage: fuzz_options [--seconds S] [--iterations N] [--seed X] "
                            "[--corpus DIR]\n");
            return 2;
        }
    }
    rng = seed * 0x9e3779b97f4a7c15ULL + 0x2545f4914f6cdd1dULL;
    static char buf[MAX_INPUT];
    if (corpus) {
        mkdir(corpus, 0777);
        for (int k = 0; k < 2000; ++k) {
            size_t n = generate(buf, sizeof buf);
            char path[1024];
            snprintf(path, sizeof path, "%s/gen-%04d", corpus, k);
            FILE *f = fopen(path, "wb");
            if (!f) { perror(path); return 1; }
            fwrite(buf, 1, n, f);
            fclose(f);
        }
        printf("fuzz_options: wrote 2000 inputs to %s\n", corpus);
        return 0;
    }
    setup();
    atexit(cleanup);
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    long it = 0;
    for (;; ++it) {
        if (iterations >= 0 && it >= iterations) break;
        if (iterations < 0 && it % 256 == 0) {
            clock_gettime(CLOCK_MONOTONIC, &t);
            if ((double)(t.tv_sec - t0.tv_sec) + 1e-9 * (double)(t.tv_nsec - t0.tv_nsec) >= seconds)
                break;
        }
        size_t n = generate(buf, sizeof buf);
        fuzz_one((const uint8_t *)buf, n);
    }
    fprintf(stderr,
            "fuzz_options: %ld inputs from seed %" PRIu64 ", no failure\n"
            "  gaps  argv: %ld run, %ld help/version, %ld errors\n"
            "  merge argv: %ld run, %ld help, %ld errors\n"
            "  card alone: %ld run, %ld -, %ld errors\n",
            it, seed, stats[0][0], stats[0][1], stats[0][2], stats[1][0], stats[1][1],
            stats[1][2], stats[2][0], stats[2][1], stats[2][2]);
    return 0;
}

#endif
