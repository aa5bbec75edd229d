/* test_options.c -- the command line and run card of gaps (src/program/options.c).
 *
 * Every rule of options.h: exact integers in every spelling, each bound and one past it,
 * real numbers, short and long forms, errors (one line, no "gaps: " of its own, naming the
 * option, the value and the range), run cards (precedence, each error with its line), help,
 * version and gaps merge.
 * Exit status: 0 if everything passed, 1 otherwise (each failure is printed).
 */
#define _POSIX_C_SOURCE 200809L
#include "program/options.h"
#include "gaps/analysis.h"
#include "gaps/compat.h"
#include "gaps/constants.h"
#include "gaps/process.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

static int failures = 0, checks = 0;

#define CHECK(cond, ...)                                                                  \
    do {                                                                                  \
        ++checks;                                                                         \
        if (!(cond)) {                                                                    \
            ++failures;                                                                   \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                          \
            fprintf(stderr, __VA_ARGS__);                                                 \
            fputc('\n', stderr);                                                          \
        }                                                                                 \
    } while (0)

/* ---- running the parser ---- */

#define MAX_ARGS 64
static char msg[1024];
static char cmdline[4096];   /* for failure messages */

static void describe(int argc, char **argv)
{
    size_t o = 0;
    cmdline[0] = '\0';
    for (int i = 0; i < argc && o < sizeof cmdline - 8; ++i)
        o += (size_t)snprintf(cmdline + o, sizeof cmdline - o, "%s'%.200s'", i ? " " : "",
                              argv[i]);
}

/* Every error: one line, without the "gaps: " that main() prints before it. */
static void check_message(int r)
{
    if (r == 2) {
        CHECK(strncmp(msg, "gaps", 4) != 0, "[%s] message with its own 'gaps': %s", cmdline,
              msg);
        CHECK(strchr(msg, '\n') == NULL && strchr(msg, '\r') == NULL,
              "[%s] message of more than one line: %s", cmdline, msg);
        CHECK(strlen(msg) > 10, "[%s] empty message", cmdline);
    } else {
        CHECK(msg[0] == '\0', "[%s] returned %d with a message: %s", cmdline, r, msg);
    }
}

/* Standard output goes to /dev/null while the parser runs (--help would print). */
static int devnull = -1;
static int stdout_off(void)
{
    fflush(stdout);
    if (devnull < 0) devnull = open("/dev/null", O_WRONLY);
    int saved = dup(1);
    dup2(devnull, 1);
    return saved;
}
static void stdout_on(int saved)
{
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
}

static int parse_v(gaps_options *o, int argc, char **argv)
{
    describe(argc, argv);
    memset(msg, 'x', sizeof msg);   /* the parser must write a terminated string */
    msg[sizeof msg - 1] = '\0';
    int saved = stdout_off();
    int r = gaps_options_parse(argc, argv, o, msg, sizeof msg);
    stdout_on(saved);
    check_message(r);
    return r;
}

/* parse("--events", "10", NULL): argv[0] is "gaps".  argv strings are copied to writable
 * memory, as a real argv is. */
static char argbuf[MAX_ARGS][8192];
static int parse(gaps_options *o, ...)
{
    char *argv[MAX_ARGS + 1];
    int argc = 0;
    snprintf(argbuf[argc], sizeof argbuf[0], "gaps");
    argv[argc] = argbuf[argc];
    ++argc;
    va_list ap;
    va_start(ap, o);
    for (const char *a; (a = va_arg(ap, const char *)) != NULL && argc < MAX_ARGS; ++argc) {
        snprintf(argbuf[argc], sizeof argbuf[0], "%s", a);
        argv[argc] = argbuf[argc];
    }
    va_end(ap);
    argv[argc] = NULL;
    return parse_v(o, argc, argv);
}

/* Expect status 2 and every NULL-terminated fragment in the message. */
static void expect_error(int r, ...)
{
    CHECK(r == 2, "[%s] expected an error, got %d", cmdline, r);
    va_list ap;
    va_start(ap, r);
    for (const char *s; (s = va_arg(ap, const char *)) != NULL;)
        CHECK(strstr(msg, s) != NULL, "[%s] message lacks '%s': %s", cmdline, s, msg);
    va_end(ap);
}

/* ---- integer options ---- */

typedef struct int_option {
    const char *name;
    char short_name;
    int64_t lo, hi;
    int64_t (*get)(const gaps_options *);
    const char *extra[4];   /* other options needed for the value to be usable */
} int_option;

static int64_t get_events(const gaps_options *o) { return o->cfg.events; }
static int64_t get_first(const gaps_options *o) { return o->cfg.first_event; }
static int64_t get_seed(const gaps_options *o) { return o->cfg.seed; }
static int64_t get_pool(const gaps_options *o) { return o->cfg.slots; }
static int64_t get_threads(const gaps_options *o) { return o->cfg.threads; }
static int64_t get_maxp(const gaps_options *o) { return o->cfg.max_partons; }
static int64_t get_cpl(const gaps_options *o) { return o->cfg.cycles_per_launch; }
static int64_t get_split(const gaps_options *o) { return o->cfg.split_every; }
static int64_t get_order(const gaps_options *o) { return o->cfg.alphas_order; }
static int64_t get_every(const gaps_options *o) { return o->checkpoint_every; }

#define TWO62 ((int64_t)1 << 62)
static const int_option int_options[] = {
    { "events", 'n', 1, TWO62, get_events, { NULL } },
    /* first-event with --events 1 so that first + events stays within 2^62 */
    { "first-event", 0, 0, TWO62 - 1, get_first, { "--events", "1", NULL } },
    { "seed", 's', 0, 4294967295LL, get_seed, { NULL } },
    { "pool", 0, 1, (int64_t)1 << 28, get_pool, { NULL } },
    { "threads", 't', 1, 4096, get_threads, { NULL } },
    { "max-partons", 0, 3, GAPS_MAX_PARTONS, get_maxp, { NULL } },
    { "cycles-per-launch", 0, 1, (int64_t)1 << 20, get_cpl, { NULL } },
    { "split-every", 0, 1, (int64_t)1 << 20, get_split, { NULL } },
    { "alphas-order", 0, 0, 2, get_order, { NULL } },
    { "checkpoint-every", 0, 1, TWO62, get_every, { "--checkpoint", "ck.state", NULL } },
};
#define N_INT_OPTIONS (sizeof int_options / sizeof int_options[0])

/* Exact spellings of v: plain, with zeros and exponents, in scientific notation. */
#define N_SPELL 12
static int spellings(uint64_t v, char out[N_SPELL][96])
{
    char d[32];
    snprintf(d, sizeof d, "%" PRIu64, v);
    const int nd = (int)strlen(d);
    int n = 0;
    snprintf(out[n++], 96, "%s", d);
    snprintf(out[n++], 96, "%s.0", d);
    snprintf(out[n++], 96, "%s0e-1", d);
    snprintf(out[n++], 96, "%se0", d);
    snprintf(out[n++], 96, "%sE+0", d);
    snprintf(out[n++], 96, "000%s", d);
    snprintf(out[n++], 96, "%s00e-2", d);
    snprintf(out[n++], 96, "0.%se%d", d, nd);
    snprintf(out[n++], 96, "%s000000000000000000000000000000e-30", d);
    /* d.ddd e(nd-1), trailing zeros of the mantissa removed: 2500000 -> 2.5e6 */
    int last = nd - 1;
    while (last > 0 && d[last] == '0') --last;
    if (last == 0) snprintf(out[n++], 96, "%ce%d", d[0], nd - 1);
    else snprintf(out[n++], 96, "%c.%.*se%d", d[0], last, d + 1, nd - 1);
    snprintf(out[n++], 96, "%c.%sE%d", d[0], d + 1, nd - 1);   /* 1.000E3 or 5.E0 */
    snprintf(out[n++], 96, ".%s0e+%d", d, nd);
    return n;
}

static int run_int(const int_option *t, const char *form, const char *val, gaps_options *o)
{
    char eq[8300], sh[8300], lo[80];
    snprintf(lo, sizeof lo, "--%s", t->name);
    if (!strcmp(form, "eq")) {
        snprintf(eq, sizeof eq, "--%s=%s", t->name, val);
        return parse(o, eq, t->extra[0], t->extra[1], t->extra[2], (char *)NULL);
    }
    if (!strcmp(form, "short")) {   /* -n10 */
        snprintf(sh, sizeof sh, "-%c%s", t->short_name, val);
        return parse(o, sh, t->extra[0], t->extra[1], t->extra[2], (char *)NULL);
    }
    if (!strcmp(form, "short-sep")) {
        snprintf(sh, sizeof sh, "-%c", t->short_name);
        return parse(o, sh, val, t->extra[0], t->extra[1], t->extra[2], (char *)NULL);
    }
    return parse(o, lo, val, t->extra[0], t->extra[1], t->extra[2], (char *)NULL);
}

static void expect_int_ok(const int_option *t, const char *val, int64_t want)
{
    const char *forms[] = { "sep", "eq", "short", "short-sep" };
    for (int f = 0; f < (t->short_name ? 4 : 2); ++f) {
        gaps_options o;
        int r = run_int(t, forms[f], val, &o);
        CHECK(r == 0, "[%s] refused: %s", cmdline, msg);
        if (r == 0)
            CHECK(t->get(&o) == want, "[%s] gave %" PRId64 ", expected %" PRId64, cmdline,
                  t->get(&o), want);
        gaps_options_free(&o);
    }
}

static void expect_int_bad(const int_option *t, const char *val)
{
    char range[200], quoted[300];
    snprintf(range, sizeof range, "for --%s: expected an integer from %" PRId64 " to %" PRId64,
             t->name, t->lo, t->hi);
    gaps_options o;
    for (int f = 0; f < 2; ++f) {
        int r = run_int(t, f ? "eq" : "sep", val, &o);
        CHECK(r == 2, "[%s] accepted", cmdline);
        /* values with control characters are shown escaped: check the plain ones */
        int plain = strlen(val) < 60;
        for (const char *p = val; *p; ++p) plain &= (unsigned char)*p >= 0x20;
        snprintf(quoted, sizeof quoted, "invalid value '%s' ", val);
        if (plain) CHECK(strstr(msg, quoted) != NULL, "[%s] message lacks the value: %s",
                         cmdline, msg);
        CHECK(strstr(msg, range) != NULL, "[%s] message lacks '%s': %s", cmdline, range, msg);
        gaps_options_free(&o);
    }
}

/* Strings that are no integer for any option. */
static const char *bad_integers[] = {
    "", " ", " 5", "5 ", "\t5", "5\n", "+5", "-5", "-0", "+0", "0x10", "0X10", "0x", "1.5",
    "2.55e1", "1e-1", "0.1", "1e", "1e+", "1e-", "e6", "E6", ".", ".e1", "1..2", "1.2.3",
    "1e6.5", "1e1e1", "1ee6", "1e--6", "1e+-6", "--5", "5-", "inf", "nan", "Infinity",
    "1,000", "1_000", "1 000", "10k", "\xd9\xa3", "5\xc2\xa0", "0b101", "010x", "1e2 ",
    "9223372036854775807", "9223372036854775808", "18446744073709551615",
    "18446744073709551616", "99999999999999999999", "1e19", "1e20", "1e308", "1e309",
    "1e999999999999999999999", "123456789e999999999999", "1.5e-999999999999", "7e-1",
    "4611686018427387904.5", "0.5", "1e-99999999999999999999999999",
    "100000000000000000000000000000000000000000",
};

static void test_integers(void)
{
    char sp[N_SPELL][96];
    for (size_t k = 0; k < N_INT_OPTIONS; ++k) {
        const int_option *t = &int_options[k];
        /* each bound in every spelling, and one past it */
        const int64_t good[] = { t->lo, t->hi, t->lo + (t->hi - t->lo) / 2, t->hi - 1 };
        for (int g = 0; g < 4; ++g) {
            int n = spellings((uint64_t)good[g], sp);
            for (int s = 0; s < n; ++s) expect_int_ok(t, sp[s], good[g]);
        }
        int n = spellings((uint64_t)t->hi + 1, sp);
        for (int s = 0; s < n; ++s) expect_int_bad(t, sp[s]);
        if (t->lo > 0) {
            n = spellings((uint64_t)t->lo - 1, sp);
            for (int s = 0; s < n; ++s) expect_int_bad(t, sp[s]);
        }
        for (size_t b = 0; b < sizeof bad_integers / sizeof bad_integers[0]; ++b)
            expect_int_bad(t, bad_integers[b]);
        /* missing value at the end of the line, long and short */
        gaps_options o;
        char lo[80], sh[4] = { '-', t->short_name, 0, 0 };
        snprintf(lo, sizeof lo, "--%s", t->name);
        char want[120];
        snprintf(want, sizeof want, "option '--%s' needs a value", t->name);
        expect_error(parse(&o, lo, (char *)NULL), want, (char *)NULL);
        if (t->short_name) {
            snprintf(want, sizeof want, "option '-%c' (--%s) needs a value", t->short_name,
                     t->name);
            expect_error(parse(&o, "-q", sh, (char *)NULL), want, (char *)NULL);
        }
    }
}

/* The spellings the task names for 2^62 and 2^62 + 1, and the exact message. */
static void test_events_examples(void)
{
    const char *at[] = { "4611686018427387904", "4.611686018427387904e18",
                         "4611686018427387904e0", "461168601842738790400e-2",
                         "0.4611686018427387904e19", "4611686018427387904.000",
                         "46116860184273879040E-1" };
    const char *past[] = { "4611686018427387905", "4.611686018427387905e18",
                           "461168601842738790500e-2", "4611686018427387905.0",
                           "4.6116860184273879041e18", "4.7e18", "5e18" };
    const int_option *ev = &int_options[0];
    for (size_t i = 0; i < sizeof at / sizeof at[0]; ++i) expect_int_ok(ev, at[i], TWO62);
    for (size_t i = 0; i < sizeof past / sizeof past[0]; ++i) expect_int_bad(ev, past[i]);

    const struct { const char *s; int64_t v; } ex[] = {
        { "1e6", 1000000 }, { "2.5e6", 2500000 }, { "1E6", 1000000 }, { "1e+6", 1000000 },
        { "1000e-3", 1 }, { "7.0", 7 }, { "007", 7 }, { ".5e1", 5 }, { "5.", 5 },
        { "1000", 1000 }, { "0.000001e6", 1 }, { "12345678.9e1", 123456789 },
        { "1.00000000000000000000000000000000000000000001e44",
          0 /* not an integer below: checked apart */ },
    };
    for (size_t i = 0; i + 1 < sizeof ex / sizeof ex[0]; ++i) expect_int_ok(ev, ex[i].s, ex[i].v);
    expect_int_bad(ev, ex[sizeof ex / sizeof ex[0] - 1].s);   /* > 2^62 */

    gaps_options o;
    parse(&o, "--events", "0x10", (char *)NULL);
    CHECK(!strcmp(msg, "invalid value '0x10' for --events: expected an integer from 1 "
                       "to 4611686018427387904"), "exact message: %s", msg);
    /* the defect of the old parser: --events=1000 */
    CHECK(parse(&o, "--events=1000", (char *)NULL) == 0 && o.cfg.events == 1000,
          "--events=1000: %s", msg);
    gaps_options_free(&o);
}

/* Random exact integers in random spellings against their known value. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static uint64_t next_random(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static void test_random_integers(void)
{
    char sp[N_SPELL][96];
    for (int i = 0; i < 20000; ++i) {
        /* values of every magnitude, some with trailing zeros */
        const uint64_t bits = next_random();   /* two statements: a fixed call order */
        uint64_t v = bits >> (next_random() % 64);
        if (next_random() % 4 == 0) {
            uint64_t p = 1;
            for (int z = (int)(next_random() % 18); z > 0 && v * p / p == v; --z) p *= 10;
            if (v * p / p == v) v *= p;
        }
        int n = spellings(v, sp);
        const char *s = sp[next_random() % (uint64_t)n];
        gaps_options o;
        char a[200];
        snprintf(a, sizeof a, "--events=%s", s);
        int r = parse(&o, a, (char *)NULL);
        int in = v >= 1 && v <= (uint64_t)TWO62;
        CHECK(r == (in ? 0 : 2), "[%s] returned %d for %" PRIu64, cmdline, r, v);
        if (r == 0) CHECK((uint64_t)o.cfg.events == v, "[%s] gave %" PRId64, cmdline,
                          o.cfg.events);
        gaps_options_free(&o);
        if (failures > 50) return;
    }
}

/* ---- real options ---- */

typedef struct real_option {
    const char *name;
    int unit;   /* 1: 0 < x < 1, else x > 0 */
    double (*get)(const gaps_options *);
} real_option;

static double get_ecm(const gaps_options *o) { return o->cfg.ecm; }
static double get_tcut(const gaps_options *o) { return o->cfg.t_cut; }
static double get_asmz(const gaps_options *o) { return o->cfg.alphas_mz; }

static void test_reals(void)
{
    const real_option opts[] = { { "ecm", 0, get_ecm }, { "tcut", 0, get_tcut },
                                 { "alphas-mz", 1, get_asmz } };
    const struct { const char *s; double v; int unit_ok; } good[] = {
        { "0.118", 0.118, 1 }, { "1.18e-1", 0.118, 1 }, { "118e-3", 0.118, 1 },
        { ".5", 0.5, 1 }, { "0.9999999", 0.9999999, 1 }, { "1e-300", 1e-300, 1 },
        { "91.2", 91.2, 0 }, { "9.12e1", 91.2, 0 }, { "912E-1", 91.2, 0 }, { "1", 1.0, 0 },
        { "1.", 1.0, 0 }, { "1e+2", 100.0, 0 },
        { "1.7976931348623157e308", 1.7976931348623157e308, 0 },
        { "4.9406564584124654e-324", 4.9406564584124654e-324, 1 }, { "0091.20", 91.2, 0 },
    };
    const char *bad[] = { "", " ", " 91.2", "91.2 ", "+91.2", "-91.2", "-1", "0", "0.0",
                          "0e5", "0x1p3", "0x10", "0X1.8p1", "inf", "INF", "-inf", "nan",
                          "NaN", "infinity", "1e999", "1e309", "1e-400", "91,2", "1e", "e1",
                          ".", "1.2.3", "91.2GeV", "9 1", "\t1", "1\n", "--1", ".e1",
                          "1e1.5", "1_0" };
    for (size_t k = 0; k < 3; ++k) {
        const real_option *t = &opts[k];
        char lo[80], eq[200];
        snprintf(lo, sizeof lo, "--%s", t->name);
        for (size_t i = 0; i < sizeof good / sizeof good[0]; ++i) {
            int ok = t->unit ? good[i].unit_ok : 1;
            for (int f = 0; f < 2; ++f) {
                gaps_options o;
                snprintf(eq, sizeof eq, "--%s=%s", t->name, good[i].s);
                int r = f ? parse(&o, eq, (char *)NULL)
                          : parse(&o, lo, good[i].s, (char *)NULL);
                CHECK(r == (ok ? 0 : 2), "[%s] returned %d: %s", cmdline, r, msg);
                if (r == 0) CHECK(t->get(&o) == good[i].v, "[%s] gave %.17g", cmdline,
                                  t->get(&o));
                gaps_options_free(&o);
            }
        }
        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
            gaps_options o;
            const char *want = t->unit
                                   ? "expected a decimal number between 0 and 1 (exclusive)"
                                   : "expected a finite decimal number greater than 0";
            char name[100];
            snprintf(name, sizeof name, "for --%s: ", t->name);
            expect_error(parse(&o, lo, bad[i], (char *)NULL), name, want, (char *)NULL);
        }
        gaps_options o;
        expect_error(parse(&o, lo, "0.5", "--events", (char *)NULL), "'--events' needs a value",
                     (char *)NULL);
        expect_error(parse(&o, lo, (char *)NULL), "needs a value", lo, (char *)NULL);
    }
    gaps_options o;
    expect_error(parse(&o, "--alphas-mz", "1", (char *)NULL), "'1' for --alphas-mz",
                 (char *)NULL);
    expect_error(parse(&o, "--alphas-mz", "1.0", (char *)NULL), "'1.0'", (char *)NULL);
}

/* ---- everything else on the command line ---- */

static void test_command_line(void)
{
    gaps_options o, d;
    gaps_config def;
    gaps_config_defaults(&def);

    /* defaults */
    CHECK(parse(&d, (char *)NULL) == 0, "no arguments: %s", msg);
    CHECK(!memcmp(&d.cfg, &def, sizeof def), "no arguments: cfg is not the defaults");
    CHECK(d.output && !strcmp(d.output, "gaps.yoda"), "default output");
    CHECK(!d.json && !d.observables_out && !d.hepmc && !d.cycles_out && !d.state_out &&
          !d.checkpoint && !d.resume && !d.card && d.checkpoint_every == 0 && !d.quiet &&
          d.progress == -1 && !d.energy, "defaults of the outputs and flags");
    gaps_options_free(&d);

    /* unknown options anywhere, never "needs a value" */
    expect_error(parse(&o, "--frobnicate", (char *)NULL), "unknown option '--frobnicate'",
                 (char *)NULL);
    expect_error(parse(&o, "--events", "10", "--foo", (char *)NULL), "unknown option '--foo'",
                 (char *)NULL);
    CHECK(!strcmp(msg, "unknown option '--foo'"), "exact: %s", msg);
    expect_error(parse(&o, "--foo=bar", "--events", "10", (char *)NULL),
                 "unknown option '--foo'", (char *)NULL);
    CHECK(strstr(msg, "bar") == NULL, "the value of an unknown option is not named: %s", msg);
    expect_error(parse(&o, "--ev", "10", (char *)NULL), "unknown option '--ev'", (char *)NULL);
    expect_error(parse(&o, "--Events", "10", (char *)NULL), "unknown option", (char *)NULL);
    expect_error(parse(&o, "---events", "10", (char *)NULL), "unknown option", (char *)NULL);
    expect_error(parse(&o, "--=5", (char *)NULL), "unknown option '--'", (char *)NULL);
    expect_error(parse(&o, "-x", (char *)NULL), "unknown option '-x'", (char *)NULL);
    expect_error(parse(&o, "-qx", (char *)NULL), "unknown option '-x'", (char *)NULL);
    expect_error(parse(&o, "-5", (char *)NULL), "unknown option '-5'", (char *)NULL);
    expect_error(parse(&o, "-\x01", (char *)NULL), "unknown option '-\\x01'", (char *)NULL);
    expect_error(parse(&o, "--a\nb", (char *)NULL), "unknown option '--a\\x0ab'",
                 (char *)NULL);

    /* a misspelt option or name: the closest one, when it is close (one or two edits) */
    expect_error(parse(&o, "--proces", "pp-z", (char *)NULL),
                 "unknown option '--proces' (did you mean --process?)", (char *)NULL);
    expect_error(parse(&o, "--evnets=10", (char *)NULL), "(did you mean --events?)",
                 (char *)NULL);
    expect_error(parse(&o, "--Events", "10", (char *)NULL), "(did you mean --events?)",
                 (char *)NULL);
    expect_error(parse(&o, "--max-parton", "10", (char *)NULL),
                 "(did you mean --max-partons?)", (char *)NULL);
    expect_error(parse(&o, "--process", "pp-zz", (char *)NULL), "(did you mean pp-z?)",
                 (char *)NULL);
    expect_error(parse(&o, "--compat", "gaps12", (char *)NULL), "(did you mean gaps21?)",
                 (char *)NULL);
    expect_error(parse(&o, "--loops", "fsued", (char *)NULL), "(did you mean fused?)",
                 (char *)NULL);
    /* nothing close: no guess (far, short, or two names equally close) */
    const char *far[][2] = { { "--frobnicate", NULL }, { "--ev", "10" }, { "--foo", "1" },
                             { "--process", "w" }, { "--process", "lhc" },
                             { "--compat", "x" }, { "--loops", "sideways" } };
    for (size_t i = 0; i < sizeof far / sizeof far[0]; ++i) {
        CHECK(parse(&o, far[i][0], far[i][1], (char *)NULL) == 2, "%s %s accepted", far[i][0],
              far[i][1] ? far[i][1] : "");
        CHECK(strstr(msg, "did you mean") == NULL, "a guess that is no near miss: %s", msg);
    }

    /* stray arguments */
    expect_error(parse(&o, "stray", (char *)NULL), "unexpected argument 'stray'", (char *)NULL);
    expect_error(parse(&o, "--events", "10", "20", (char *)NULL), "unexpected argument '20'",
                 (char *)NULL);
    expect_error(parse(&o, "-", (char *)NULL), "unexpected argument '-'", (char *)NULL);
    expect_error(parse(&o, "--", "--events", (char *)NULL), "unexpected argument '--events'",
                 (char *)NULL);
    CHECK(parse(&o, "--events", "10", "--", (char *)NULL) == 0, "trailing --: %s", msg);
    gaps_options_free(&o);

    /* flags take no value on the command line */
    const char *flags[] = { "quiet", "progress", "no-progress", "no-refill", "allow-host",
                            "energy", "help", "version" };
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; ++i) {
        char a[80], want[100];
        snprintf(a, sizeof a, "--%s=1", flags[i]);
        snprintf(want, sizeof want, "option '--%s' takes no value", flags[i]);
        expect_error(parse(&o, a, (char *)NULL), want, (char *)NULL);
    }
    CHECK(parse(&o, "--quiet", "--no-refill", "--allow-host", "--energy", (char *)NULL) == 0 &&
          o.quiet == 1 && o.cfg.refill == 0 && o.cfg.allow_host == 1 && o.energy == 1,
          "flags: %s", msg);
    gaps_options_free(&o);
    CHECK(parse(&o, "--progress", (char *)NULL) == 0 && o.progress == 1, "--progress");
    CHECK(parse(&o, "--no-progress", (char *)NULL) == 0 && o.progress == 0, "--no-progress");
    CHECK(parse(&o, "--no-progress", "--progress", (char *)NULL) == 0 && o.progress == 1,
          "last of --no-progress --progress");
    CHECK(parse(&o, "--events", "5", "--events", "7", (char *)NULL) == 0 && o.cfg.events == 7,
          "the last value counts");

    /* short options and groups */
    CHECK(parse(&o, "-qn10", (char *)NULL) == 0 && o.quiet && o.cfg.events == 10, "-qn10: %s",
          msg);
    CHECK(parse(&o, "-qn", "10", (char *)NULL) == 0 && o.quiet && o.cfg.events == 10,
          "-qn 10: %s", msg);
    CHECK(parse(&o, "-s", "7", "-t2", "-o", "x.yoda", (char *)NULL) == 0 && o.cfg.seed == 7 &&
          o.cfg.threads == 2 && !strcmp(o.output, "x.yoda"), "-s 7 -t2 -o x.yoda: %s", msg);
    CHECK(parse(&o, "-ox.yoda", (char *)NULL) == 0 && !strcmp(o.output, "x.yoda"),
          "-ox.yoda: %s", msg);
    CHECK(parse(&o, "-o", "-", (char *)NULL) == 0 && !strcmp(o.output, "-"), "-o -: %s", msg);
    expect_error(parse(&o, "-n", (char *)NULL), "option '-n' (--events) needs a value",
                 (char *)NULL);
    expect_error(parse(&o, "-n", "0x10", (char *)NULL), "invalid value '0x10' for --events",
                 (char *)NULL);
    /* a value that looks like an option is taken as the value, then refused by its syntax */
    expect_error(parse(&o, "--events", "-5", (char *)NULL), "invalid value '-5' for --events",
                 (char *)NULL);
    expect_error(parse(&o, "--events", "--quiet", (char *)NULL),
                 "invalid value '--quiet' for --events", (char *)NULL);

    /* loops */
    CHECK(parse(&o, "--loops", "steps", (char *)NULL) == 0 && o.cfg.loop_mode == GAPS_LOOPS_STEPS,
          "--loops steps");
    CHECK(parse(&o, "--loops=fused", (char *)NULL) == 0 && o.cfg.loop_mode == GAPS_LOOPS_FUSED,
          "--loops=fused");
    CHECK(parse(&o, "--loops", "trials", (char *)NULL) == 0
          && o.cfg.loop_mode == GAPS_LOOPS_TRIALS, "--loops trials");
    expect_error(parse(&o, "--loops", "sideways", (char *)NULL),
                 "invalid value 'sideways' for --loops: expected 'steps', 'trials' or 'fused'",
                 (char *)NULL);
    expect_error(parse(&o, "--loops", "Steps", (char *)NULL), "--loops", (char *)NULL);

    /* outputs */
    CHECK(parse(&o, "--output", "none", (char *)NULL) == 0 && o.output == NULL, "--output none");
    CHECK(parse(&o, "--output=-", (char *)NULL) == 0 && !strcmp(o.output, "-"), "--output=-");
    CHECK(parse(&o, "--output", "./none", (char *)NULL) == 0 && !strcmp(o.output, "./none"),
          "--output ./none");
    CHECK(parse(&o, "--json", "r.json", "--observables-out", "o.csv", "--hepmc", "e.hepmc",
                "--cycles-out", "c.csv", "--state-out", "s.state", "--checkpoint", "ck",
                "--checkpoint-every", "1e5", "--resume", "old.ck", (char *)NULL) == 0 &&
          !strcmp(o.json, "r.json") && !strcmp(o.observables_out, "o.csv") &&
          !strcmp(o.hepmc, "e.hepmc") && !strcmp(o.cycles_out, "c.csv") &&
          !strcmp(o.state_out, "s.state") && !strcmp(o.checkpoint, "ck") &&
          o.checkpoint_every == 100000 && !strcmp(o.resume, "old.ck"), "file options: %s", msg);
    const char *files[] = { "output", "json", "observables-out", "hepmc", "cycles-out",
                            "state-out", "checkpoint", "resume", "card" };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; ++i) {
        char a[80], e[100], want[120];
        snprintf(a, sizeof a, "--%s", files[i]);
        snprintf(e, sizeof e, "--%s=", files[i]);
        snprintf(want, sizeof want, "invalid value '' for --%s: expected a file name", files[i]);
        expect_error(parse(&o, e, (char *)NULL), want, (char *)NULL);
        expect_error(parse(&o, a, "--quiet", (char *)NULL), "'--quiet'", "not an option",
                     "./-name", (char *)NULL);
        snprintf(want, sizeof want, "option '--%s' needs a value", files[i]);
        expect_error(parse(&o, a, (char *)NULL), want, (char *)NULL);
    }
    expect_error(parse(&o, "--checkpoint", "-", (char *)NULL), "'-' is not allowed",
                 (char *)NULL);
    expect_error(parse(&o, "--resume", "-", (char *)NULL), "'-' is not allowed", (char *)NULL);
    expect_error(parse(&o, "--card", "-", (char *)NULL), "'-' is not allowed", (char *)NULL);
    /* one output at most on standard output */
    CHECK(parse(&o, "--json", "-", (char *)NULL) == 0, "--json - alone: %s", msg);
    expect_error(parse(&o, "--output", "-", "--json", "-", (char *)NULL), "--output and --json "
                 "both write to standard output", (char *)NULL);
    expect_error(parse(&o, "--output", "none", "--json", "-", "--hepmc", "-", (char *)NULL),
                 "--json and --hepmc", (char *)NULL);
    CHECK(parse(&o, "--output", "none", "--hepmc", "-", (char *)NULL) == 0,
          "one output on stdout: %s", msg);
    expect_error(parse(&o, "--checkpoint-every", "10", (char *)NULL),
                 "--checkpoint-every needs --checkpoint", (char *)NULL);

    /* first event + events */
    char big[40], bigm1[40], lim[40];
    snprintf(lim, sizeof lim, "%" PRId64, TWO62 - 100000);
    snprintf(bigm1, sizeof bigm1, "%" PRId64, TWO62 - 100000 + 1);
    snprintf(big, sizeof big, "%" PRId64, TWO62 - 1);
    CHECK(parse(&o, "--first-event", lim, (char *)NULL) == 0 &&
          o.cfg.first_event == TWO62 - 100000, "first event + default events = 2^62: %s", msg);
    expect_error(parse(&o, "--first-event", bigm1, (char *)NULL), "--first-event", bigm1,
                 "plus --events 100000", "4611686018427387904", (char *)NULL);
    CHECK(parse(&o, "--first-event", big, "--events", "1", (char *)NULL) == 0,
          "2^62 - 1 + 1: %s", msg);
    expect_error(parse(&o, "--events", "2", "--first-event", big, (char *)NULL),
                 "--first-event 4611686018427387903 plus --events 2", (char *)NULL);
    expect_error(parse(&o, "--first-event", "1", "--events", "4.611686018427387904e18",
                       (char *)NULL), "--first-event 1 plus --events 4611686018427387904",
                 (char *)NULL);
    CHECK(parse(&o, "--first-event", "0", "--events", "4.611686018427387904e18", (char *)NULL) == 0,
          "0 + 2^62: %s", msg);
    CHECK(parse(&o, "--first-event=1e9", "-n1e3", (char *)NULL) == 0 &&
          o.cfg.first_event == 1000000000 && o.cfg.events == 1000, "--first-event=1e9: %s", msg);

    /* help and version return 1, with the message empty */
    CHECK(parse(&o, "--help", (char *)NULL) == 1, "--help");
    CHECK(parse(&o, "-h", "--frobnicate", (char *)NULL) == 1, "-h first wins over what follows");
    CHECK(parse(&o, "--version", (char *)NULL) == 1, "--version");
    CHECK(parse(&o, "-V", (char *)NULL) == 1, "-V");
    CHECK(parse(&o, "-qV", (char *)NULL) == 1, "-qV");
    expect_error(parse(&o, "--frobnicate", "--help", (char *)NULL), "--frobnicate",
                 (char *)NULL);
    CHECK(parse(&o, "--events", "10", "--card", "/nonexistent/x", "--help", (char *)NULL) == 1,
          "--help before the card is read");

    /* a tiny message buffer is still terminated; NULL is tolerated */
    char small[12];
    char a0[] = "gaps", a1[] = "--frobnicate";
    char *av[] = { a0, a1, NULL };
    memset(small, 'x', sizeof small);
    CHECK(gaps_options_parse(2, av, &o, small, sizeof small) == 2 && small[11] == '\0' &&
          !strncmp(small, "unknown ", 8), "small buffer: '%.12s'", small);
    CHECK(gaps_options_parse(2, av, &o, NULL, 0) == 2, "NULL message buffer");
    /* argc of 1 and 0 */
    CHECK(gaps_options_parse(1, av, &o, msg, sizeof msg) == 0, "argc 1");
    CHECK(gaps_options_parse(0, av, &o, msg, sizeof msg) == 0, "argc 0");
    gaps_options_free(&o);
    gaps_options_free(&o);   /* twice is harmless */

    /* long values are cut in messages */
    char longval[3000];
    memset(longval, '7', sizeof longval - 1);
    longval[sizeof longval - 1] = '\0';
    expect_error(parse(&o, "--events", longval, (char *)NULL), "...' for --events",
                 (char *)NULL);
    CHECK(strlen(msg) < 300, "long value shown in full: %zu characters", strlen(msg));
}

/* ---- help and version text ---- */

static char captured[65536];

/* Run the parser with standard output redirected to a temporary file. */
static int parse_captured(int argc, char **argv, int merge)
{
    fflush(stdout);
    int saved = dup(1);
    FILE *t = tmpfile();
    if (saved < 0 || !t) { CHECK(0, "cannot redirect stdout"); return -1; }
    dup2(fileno(t), 1);
    int r;
    if (merge) {
        gaps_merge_options m;
        r = gaps_merge_options_parse(argc, argv, &m, msg, sizeof msg);
        gaps_merge_options_free(&m);
    } else {
        gaps_options o;
        r = gaps_options_parse(argc, argv, &o, msg, sizeof msg);
        gaps_options_free(&o);
    }
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    rewind(t);
    size_t n = fread(captured, 1, sizeof captured - 1, t);
    captured[n] = '\0';
    fclose(t);
    return r;
}

static void test_help_version(void)
{
    char a0[] = "gaps", h[] = "--help", v[] = "--version", m0[] = "merge", bad[] = "--x";
    char *help[] = { a0, h, NULL }, *ver[] = { a0, v, NULL }, *mh[] = { m0, h, NULL };
    CHECK(parse_captured(2, help, 0) == 1, "--help returns 1");
    const char *names[] = { "events", "first-event", "ecm", "alphas-mz", "alphas-order", "tcut",
                            "seed", "output", "json", "observables-out", "cycles-out", "hepmc",
                            "quiet", "progress", "no-progress", "state-out", "checkpoint",
                            "checkpoint-every", "resume", "pool", "max-partons", "threads",
                            "loops", "cycles-per-launch", "split-every", "no-refill",
                            "allow-host", "energy",
                            "card", "help", "version" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i) {
        char a[80];
        snprintf(a, sizeof a, "--%s ", names[i]);
        char b[80];
        snprintf(b, sizeof b, "--%s\n", names[i]);
        CHECK(strstr(captured, a) || strstr(captured, b), "--help does not list --%s",
              names[i]);
        /* and each is a known option (help and version would print) */
        if (!strcmp(names[i], "help") || !strcmp(names[i], "version")) continue;
        char opt[80];
        snprintf(opt, sizeof opt, "--%s", names[i]);
        gaps_options o;
        parse(&o, opt, "1", (char *)NULL);
        CHECK(strstr(msg, "unknown option") == NULL, "%s unknown: %s", opt, msg);
        gaps_options_free(&o);
    }
    const char *frag[] = { "gaps merge", "Physics:", "Output", "Checkpoints and merging:",
                           "Execution (", "Other:", "4611686018427387904", "268435456",
                           "4096", "1048576", "4294967295", "default 100000", "default 91.2",
                           "default 0.118", "-n, --events", "-s, --seed", "-o, --output",
                           "-t, --threads", "-q, --quiet", "-c, --card", "-h, --help",
                           "-V, --version", "'none'", "1e6", "3..64" };
    for (size_t i = 0; i < sizeof frag / sizeof frag[0]; ++i)
        CHECK(strstr(captured, frag[i]), "--help lacks '%s'", frag[i]);
    for (const char *p = captured, *nl; *p; p = nl + 1) {
        nl = strchr(p, '\n');
        if (!nl) break;
        CHECK(nl - p <= 90, "--help line longer than 90 characters: %.*s", (int)(nl - p), p);
    }

    /* the layout: an option's text starts at column 27, two spaces after the option at
     * least, or on the next line; one "(default" per option; a default that is the same
     * for every process is named once */
    int n_opts = 0, n_defaults = 0;
    for (const char *p = captured, *nl; *p; p = nl + 1) {
        nl = strchr(p, '\n');
        if (!nl) break;
        const int n = (int)(nl - p);
        const int opt = n > 8 && (!strncmp(p, "      --", 8) || (p[0] == ' ' && p[1] == ' '
                                                                 && p[2] == '-' && p[3] != '-'
                                                                 && !strncmp(p + 4, ", --", 4)));
        if (opt || !strncmp(p, "Output", 6) || !strncmp(p, "Checkpoints", 11)
            || !strncmp(p, "Execution", 9) || !strncmp(p, "Other:", 6)) {
            CHECK(n_defaults <= 1, "--help: the option before '%.*s' names %d defaults",
                  n, p, n_defaults);
            n_defaults = 0;
        }
        for (const char *q = p; (q = strstr(q, "(default")) && q < nl; ++q) ++n_defaults;
        if (!opt) continue;
        ++n_opts;
        /* the option and its value name, then nothing, or two spaces and the text */
        int words = 0;
        for (int i = 0; i < n; ++i) words += p[i] != ' ' && (i == 0 || p[i - 1] == ' ');
        const int alone = words <= (p[2] == '-' ? 3 : 2);
        CHECK(alone || (n > 27 && p[25] == ' ' && p[26] == ' ' && p[27] != ' '),
              "--help: the text of '%.*s' does not start at column 27", n, p);
    }
    CHECK(n_opts >= 35, "--help: %d option lines found", n_opts);
    for (const char *p = captured; (p = strstr(p, " for hadron collisions")); ++p) {
        /* "X, Y for hadron collisions": Y differs from X */
        const char *y = p;
        while (y > captured && y[-1] != ' ') --y;
        const char *x = y - 2, *comma = y - 2;
        if (x <= captured || strncmp(comma, ", ", 2)) continue;
        while (x > captured && x[-1] != ' ') --x;
        CHECK((size_t)(comma - x) != (size_t)(p - y) || strncmp(x, y, (size_t)(p - y)),
              "--help names the same default twice: '%.*s'", (int)(p - x) + 22, x);
    }
    CHECK(strstr(captured, "else 1)") == NULL, "--help: '... else 1)' left: %s", captured);
    /* the introduction names every process's analysis, followed by its processes */
    for (int i = 0; i < GAPS_N_PROCESSES; ++i) {
        char what[64];
        if (gaps_process_table[i].from_file) continue;   /* chosen by --lhe, not named */
        snprintf(what, sizeof what, "%s (", gaps_analysis_table[gaps_process_table[i].analysis].name);
        const char *at = strstr(captured, what);
        CHECK(at && strstr(at, gaps_process_table[i].name),
              "--help's introduction does not name the analysis '%s' of %s", what,
              gaps_process_table[i].name);
    }

    CHECK(parse_captured(2, ver, 0) == 1, "--version returns 1");
    CHECK(!strncmp(captured, "gaps ", 5) && strstr(captured, " backend, ") &&
          (strstr(captured, "GCC ") || strstr(captured, "clang ")), "--version: %s", captured);
#ifdef GAPS_VERSION
    CHECK(!strncmp(captured + 5, GAPS_VERSION, strlen(GAPS_VERSION)), "version %s: %s",
          GAPS_VERSION, captured);
#endif

    CHECK(parse_captured(2, mh, 1) == 1, "merge --help returns 1");
    CHECK(strstr(captured, "gaps merge") && strstr(captured, "--state-out") &&
          strstr(captured, "merged.yoda"), "merge --help: %s", captured);
    char *mb[] = { m0, bad, NULL };
    CHECK(parse_captured(2, mb, 1) == 2 && captured[0] == '\0', "merge error prints nothing");
}

/* ---- run cards ---- */

static char dir[256];

static const char *write_card(const char *name, const char *text, size_t n)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f) { CHECK(0, "cannot write %s", path); return path; }
    fwrite(text, 1, n, f);
    fclose(f);
    return path;
}
#define CARD(name, literal) write_card(name, literal, sizeof literal - 1)

/* A card whose only bad line is `line` at line number 3: the error names card:3. */
static void card_error(const char *line, const char *reason)
{
    char text[10000], where[600];
    snprintf(text, sizeof text, "# comment\nmax-partons = 32\n%s\nalphas-order = 2\n", line);
    const char *path = write_card("bad.card", text, strlen(text));
    snprintf(where, sizeof where, "%s:3: ", path);
    gaps_options o;
    expect_error(parse(&o, "--card", path, (char *)NULL), where, reason, (char *)NULL);
    CHECK(!strncmp(msg, where, strlen(where)), "[%s] message does not start with '%s': %s",
          line, where, msg);
}

static void test_cards(void)
{
    gaps_options o;
    const char *p = CARD("run.card",
        "# LEP run\n"
        "\n"
        "events = 1e6          # a million events\n"
        "ecm=91.2\n"
        "  \t output   =   lep.yoda  \t\n"
        "no-refill = true\n"
        "quiet = YES\n"
        "json = my run.json\r\n"
        "seed = 4294967295\n"
        "loops = steps\n"
        "   # indented comment\n"
        "alphas-order = 1\n"
        "first-event = 2.5e6\n"
        "threads = 4096\n"
        "tcut = 0.5");   /* no newline at the end */
    char path[512];
    snprintf(path, sizeof path, "%s", p);

    CHECK(parse(&o, "--card", path, (char *)NULL) == 0, "card: %s", msg);
    CHECK(o.cfg.events == 1000000 && o.cfg.ecm == 91.2 && !strcmp(o.output, "lep.yoda") &&
          o.cfg.refill == 0 && o.quiet == 1 && !strcmp(o.json, "my run.json") &&
          o.cfg.seed == 4294967295u && o.cfg.loop_mode == GAPS_LOOPS_STEPS &&
          o.cfg.alphas_order == 1 && o.cfg.first_event == 2500000 && o.cfg.threads == 4096 &&
          o.cfg.t_cut == 0.5 && !strcmp(o.card, path), "card values");
    /* strings of the card live in memory owned by o, after other allocations */
    void *junk = malloc(100000);
    memset(junk, 'z', 100000);
    CHECK(!strcmp(o.output, "lep.yoda") && !strcmp(o.json, "my run.json"), "card strings");
    free(junk);
    gaps_options_free(&o);
    CHECK(o.output == NULL && o.json == NULL, "card strings cleared by gaps_options_free");

    /* the command line wins whatever its position */
    const char *orders[2][6] = { { "--events", "10", "--card", path, "-o", "x.yoda" },
                                 { "--card", path, "--events", "10", "-o", "x.yoda" } };
    for (int k = 0; k < 2; ++k) {
        CHECK(parse(&o, orders[k][0], orders[k][1], orders[k][2], orders[k][3], orders[k][4],
                    orders[k][5], (char *)NULL) == 0 && o.cfg.events == 10 &&
              !strcmp(o.output, "x.yoda") && o.cfg.ecm == 91.2 && o.cfg.seed == 4294967295u,
              "precedence, order %d: %s", k, msg);
        gaps_options_free(&o);
    }
    CHECK(parse(&o, "-c", path, "--output", "none", "--seed=0", (char *)NULL) == 0 &&
          o.output == NULL && o.cfg.seed == 0, "-c and output none: %s", msg);
    gaps_options_free(&o);
    CHECK(parse(&o, "--card=" , (char *)NULL) == 2, "--card=");
    /* first-event of the card with events of the command line: checked together */
    char ev[40];
    snprintf(ev, sizeof ev, "%" PRId64, TWO62 - 2500000);
    CHECK(parse(&o, "--card", path, "-n", ev, (char *)NULL) == 0, "card first + events: %s",
          msg);
    gaps_options_free(&o);
    snprintf(ev, sizeof ev, "%" PRId64, TWO62 - 2500000 + 1);
    expect_error(parse(&o, "--card", path, "-n", ev, (char *)NULL), "--first-event 2500000 plus",
                 (char *)NULL);

    /* flags: false is "as if absent", and a command-line flag overrides the card */
    p = CARD("flags.card", "quiet = false\nno-refill = no\nallow-host = 0\nenergy = True\n"
                           "progress = yes\n");
    CHECK(parse(&o, "--card", p, (char *)NULL) == 0 && !o.quiet && o.cfg.refill == 1 &&
          !o.cfg.allow_host && o.energy && o.progress == 1, "flag card: %s", msg);
    gaps_options_free(&o);
    CHECK(parse(&o, "--quiet", "--no-progress", "--card", p, (char *)NULL) == 0 && o.quiet &&
          o.progress == 0, "command-line flags win: %s", msg);
    gaps_options_free(&o);

    /* empty card, comments only, CRLF, a line of exactly the limit */
    p = CARD("empty.card", "");
    CHECK(parse(&o, "--card", p, (char *)NULL) == 0, "empty card: %s", msg);
    gaps_options_free(&o);
    p = CARD("comments.card", "# nothing\n\n   \n\t# more\n#events = 0x10\n");
    CHECK(parse(&o, "--card", p, (char *)NULL) == 0 && o.cfg.events == 100000,
          "comment card: %s", msg);
    gaps_options_free(&o);
    p = CARD("crlf.card", "events = 12\r\nseed = 5\r\n");
    CHECK(parse(&o, "--card", p, (char *)NULL) == 0 && o.cfg.events == 12 && o.cfg.seed == 5,
          "CRLF card: %s", msg);
    gaps_options_free(&o);
    {
        static char text[GAPS_CARD_MAX_LINE + 100];
        int n = snprintf(text, sizeof text, "output = ");
        memset(text + n, 'a', (size_t)(GAPS_CARD_MAX_LINE - n));
        memcpy(text + GAPS_CARD_MAX_LINE, "\n", 2);
        p = write_card("long.card", text, strlen(text));
        CHECK(parse(&o, "--card", p, (char *)NULL) == 0 &&
              strlen(o.output) == (size_t)(GAPS_CARD_MAX_LINE - n), "line at the limit: %s",
              msg);
        gaps_options_free(&o);
        memcpy(text + GAPS_CARD_MAX_LINE, "a\n", 3);
        card_error(text, "line longer than 4096 characters");
    }

    /* every card error names the card and the line */
    card_error("events", "missing '=' in 'events' (expected 'key = value')");
    card_error("events = 0x10", "invalid value '0x10' for events: expected an integer from 1 "
                                "to 4611686018427387904");
    card_error("events = 4611686018427387905", "expected an integer from 1 to");
    card_error("events = 1.5", "for events");
    card_error("events =", "invalid value '' for events");
    card_error("seed = -1", "invalid value '-1' for seed: expected an integer from 0 to "
                            "4294967295");
    card_error("ecm = inf", "for ecm: expected a finite decimal number greater than 0");
    card_error("alphas-mz = 1", "for alphas-mz");
    card_error("pool = 268435457", "expected an integer from 1 to 268435456");
    card_error("threads = 4097", "expected an integer from 1 to 4096");
    card_error("loops = sideways", "expected 'steps', 'trials' or 'fused'");
    card_error("frobnicate = 1", "unknown key 'frobnicate'");
    card_error("--events = 5", "unknown key '--events' (write the option name without '--'");
    card_error("Events = 5", "unknown key 'Events'");
    card_error("max partons = 5", "unknown key 'max partons'");
    card_error("card = other.card", "'card' cannot be used inside a run card");
    card_error("help = true", "'help' cannot be used in a run card");
    card_error("proces = pp-z", "unknown key 'proces' (did you mean 'process'?)");
    card_error("version = 1", "'version' cannot be used in a run card");
    card_error("= 5", "missing key before '='");
    card_error("quiet = maybe", "invalid value 'maybe' for quiet: expected true, false, yes, "
                                "no, 1 or 0");
    card_error("quiet =", "for quiet");
    card_error("quiet", "missing '='");
    card_error("max-partons = 20", "key 'max-partons' given twice (first on line 2)");
    card_error("output = -x.yoda", "not an option");
    card_error("checkpoint = -", "'-' is not allowed");
    card_error("x\x01y = 1", "unknown key 'x\\x01y'");
    {
        char nul[] = "a\0b = 1";
        char text[100];
        size_t n = (size_t)snprintf(text, sizeof text, "# c\nevents = 10\n");
        memcpy(text + n, nul, sizeof nul - 1);
        n += sizeof nul - 1;
        p = write_card("nul.card", text, n);
        char want[600];
        snprintf(want, sizeof want, "%s:3: line contains a NUL byte", p);
        expect_error(parse(&o, "--card", p, (char *)NULL), want, (char *)NULL);
    }
    p = CARD("conflict.card", "progress = true\n\nno-progress = true\n");
    {
        char want[600];
        snprintf(want, sizeof want, "%s:3: key 'no-progress' conflicts with 'progress' "
                                    "on line 1", p);
        expect_error(parse(&o, "--card", p, (char *)NULL), want, (char *)NULL);
    }
    /* a duplicate is an error even when the command line overrides the key */
    p = CARD("dup.card", "events = 5\nevents = 6\n");
    expect_error(parse(&o, "--events", "7", "--card", p, (char *)NULL), ":2: key 'events' "
                 "given twice", (char *)NULL);
    /* a bad value is an error even when the command line overrides the key */
    p = CARD("badval.card", "events = 0x10\n");
    expect_error(parse(&o, "--card", p, "--events", "7", (char *)NULL), ":1: invalid value "
                 "'0x10' for events", (char *)NULL);
    /* command-line errors come before the card's */
    expect_error(parse(&o, "--card", p, "--seed", "x", (char *)NULL), "for --seed",
                 (char *)NULL);

    /* missing and unreadable cards */
    char missing[600];
    snprintf(missing, sizeof missing, "%s/nope.card", dir);
    char want[700];
    snprintf(want, sizeof want, "cannot read run card '%s': No such file or directory",
             missing);
    expect_error(parse(&o, "--card", missing, (char *)NULL), (char *)NULL);
    CHECK(!strcmp(msg, want), "missing card: %s", msg);
    snprintf(want, sizeof want, "cannot read run card '%s': not a regular file (a directory)",
             dir);
    expect_error(parse(&o, "-c", dir, (char *)NULL), (char *)NULL);
    CHECK(!strcmp(msg, want), "directory card: %s", msg);
    expect_error(parse(&o, "-c", path, "--card", path, (char *)NULL),
                 "option '--card' given twice", (char *)NULL);
    if (geteuid() != 0) {   /* root reads anything */
        p = CARD("secret.card", "events = 1\n");
        chmod(p, 0);
        expect_error(parse(&o, "--card", p, (char *)NULL), "Permission denied", (char *)NULL);
    }
    {
        /* larger than the card limit */
        size_t n = GAPS_CARD_MAX_BYTES + 10;
        char *text = malloc(n);
        for (size_t i = 0; i < n; ++i) text[i] = i % 64 == 63 ? '\n' : '#';
        p = write_card("huge.card", text, n);
        free(text);
        expect_error(parse(&o, "--card", p, (char *)NULL), "larger than 1048576 bytes",
                     (char *)NULL);
        /* exactly at the limit: read */
        text = malloc(GAPS_CARD_MAX_BYTES);
        for (size_t i = 0; i < GAPS_CARD_MAX_BYTES; ++i) text[i] = i % 64 == 63 ? '\n' : '#';
        p = write_card("full.card", text, GAPS_CARD_MAX_BYTES);
        free(text);
        CHECK(parse(&o, "--card", p, (char *)NULL) == 0, "card of exactly the limit: %s", msg);
        gaps_options_free(&o);
    }

    /* every option as a card key, with a value of the command-line syntax */
    p = CARD("all.card",
        "events = 2e3\nfirst-event = 5\necm = 200\nalphas-mz = 0.12\nalphas-order = 0\n"
        "tcut = 2\nseed = 9\noutput = a.yoda\njson = a.json\nobservables-out = a.csv\n"
        "cycles-out = c.csv\nhepmc = -\nquiet = 1\nno-progress = yes\nstate-out = a.state\n"
        "checkpoint = a.ck\ncheckpoint-every = 1e3\nresume = b.ck\npool = 64\n"
        "max-partons = 64\nthreads = 2\nloops = fused\ncycles-per-launch = 8\n"
        "split-every = 3\nno-refill = 1\nallow-host = true\nenergy = yes\n");
    CHECK(parse(&o, "--card", p, (char *)NULL) == 0, "all keys: %s", msg);
    CHECK(o.cfg.events == 2000 && o.cfg.first_event == 5 && o.cfg.ecm == 200 &&
          o.cfg.alphas_mz == 0.12 && o.cfg.alphas_order == 0 && o.cfg.t_cut == 2 &&
          o.cfg.seed == 9 && !strcmp(o.output, "a.yoda") && !strcmp(o.json, "a.json") &&
          !strcmp(o.observables_out, "a.csv") && !strcmp(o.cycles_out, "c.csv") &&
          !strcmp(o.hepmc, "-") && o.quiet && o.progress == 0 &&
          !strcmp(o.state_out, "a.state") && !strcmp(o.checkpoint, "a.ck") &&
          o.checkpoint_every == 1000 && !strcmp(o.resume, "b.ck") && o.cfg.slots == 64 &&
          o.cfg.max_partons == 64 && o.cfg.threads == 2 && o.cfg.loop_mode == GAPS_LOOPS_FUSED &&
          o.cfg.cycles_per_launch == 8 && o.cfg.split_every == 3 && o.cfg.refill == 0 &&
          o.cfg.allow_host && o.energy,
          "all keys: values");
    gaps_options_free(&o);
    p = CARD("none.card", "output = none\n");
    CHECK(parse(&o, "--card", p, (char *)NULL) == 0 && o.output == NULL, "output = none");
    gaps_options_free(&o);
    CHECK(parse(&o, "--card", p, "-o", "b.yoda", (char *)NULL) == 0 && !strcmp(o.output, "b.yoda"),
          "command line over output = none");
    gaps_options_free(&o);
    /* the '#' of a value starts a comment */
    p = CARD("hash.card", "output = a#b.yoda\n");
    CHECK(parse(&o, "--card", p, (char *)NULL) == 0 && !strcmp(o.output, "a"), "a#b: %s",
          o.output ? o.output : "(null)");
    gaps_options_free(&o);
    /* '=' inside a value */
    p = CARD("eq.card", "output = a=b.yoda\n");
    CHECK(parse(&o, "--card", p, (char *)NULL) == 0 && !strcmp(o.output, "a=b.yoda"), "a=b");
    gaps_options_free(&o);
}

/* ---- gaps merge ---- */

static int merge(gaps_merge_options *m, ...)
{
    char *argv[MAX_ARGS + 1];
    int argc = 0;
    snprintf(argbuf[argc], sizeof argbuf[0], "merge");
    argv[argc] = argbuf[argc];
    ++argc;
    va_list ap;
    va_start(ap, m);
    for (const char *a; (a = va_arg(ap, const char *)) != NULL && argc < MAX_ARGS; ++argc) {
        snprintf(argbuf[argc], sizeof argbuf[0], "%s", a);
        argv[argc] = argbuf[argc];
    }
    va_end(ap);
    argv[argc] = NULL;
    describe(argc, argv);
    msg[0] = 'x';
    msg[1] = '\0';
    int saved = stdout_off();
    int r = gaps_merge_options_parse(argc, argv, m, msg, sizeof msg);
    stdout_on(saved);
    check_message(r);
    return r;
}

static void test_merge(void)
{
    gaps_merge_options m;
    CHECK(merge(&m, "a.state", "b.state", (char *)NULL) == 0 && !strcmp(m.output, "merged.yoda") &&
          !m.json && !m.state_out && !m.quiet && m.n_inputs == 2 &&
          !strcmp(m.inputs[0], "a.state") && !strcmp(m.inputs[1], "b.state"), "defaults: %s",
          msg);
    gaps_merge_options_free(&m);
    CHECK(merge(&m, "-o", "out.yoda", "a", "--json=j.json", "b", "--state-out", "s", "-q", "c",
                (char *)NULL) == 0 && !strcmp(m.output, "out.yoda") && !strcmp(m.json, "j.json") &&
          !strcmp(m.state_out, "s") && m.quiet && m.n_inputs == 3 && !strcmp(m.inputs[2], "c"),
          "interleaved: %s", msg);
    gaps_merge_options_free(&m);
    CHECK(merge(&m, "-oout.yoda", "--", "-x.state", "--y", (char *)NULL) == 0 &&
          m.n_inputs == 2 && !strcmp(m.inputs[0], "-x.state"), "-- : %s", msg);
    gaps_merge_options_free(&m);
    CHECK(merge(&m, "--output", "none", "--state-out", "all.state", "a", (char *)NULL) == 0 &&
          m.output == NULL, "output none: %s", msg);
    gaps_merge_options_free(&m);
    CHECK(merge(&m, "--output=-", "a", (char *)NULL) == 0 && !strcmp(m.output, "-"), "-o -");
    gaps_merge_options_free(&m);
    CHECK(merge(&m, "--help", (char *)NULL) == 1, "merge --help");   /* prints usage */

    expect_error(merge(&m, (char *)NULL), "merge needs at least one state file", (char *)NULL);
    expect_error(merge(&m, "-o", "x", (char *)NULL), "at least one state file", (char *)NULL);
    expect_error(merge(&m, "a", "b", "a", (char *)NULL), "state file 'a' given twice",
                 (char *)NULL);
    expect_error(merge(&m, "a", "-", (char *)NULL), "'-' (standard input) is not supported",
                 (char *)NULL);
    expect_error(merge(&m, "--events", "5", "a", (char *)NULL), "unknown option '--events'",
                 (char *)NULL);
    expect_error(merge(&m, "a", "-o", (char *)NULL), "option '-o' (--output) needs a value",
                 (char *)NULL);
    expect_error(merge(&m, "a", "--json", (char *)NULL), "option '--json' needs a value",
                 (char *)NULL);
    expect_error(merge(&m, "a", "--quiet=yes", (char *)NULL), "takes no value", (char *)NULL);
    expect_error(merge(&m, "a", "-o-", "--json", "-", (char *)NULL), "at most one of",
                 (char *)NULL);
    expect_error(merge(&m, "a", "--state-out=-", "--json", "-", (char *)NULL), "at most one of",
                 (char *)NULL);
    expect_error(merge(&m, "a", "-o", "none", (char *)NULL), "nothing to write", (char *)NULL);
    expect_error(merge(&m, "a", "-o", "", (char *)NULL), "invalid value '' for --output",
                 (char *)NULL);
    expect_error(merge(&m, "-o", "--json", "a", (char *)NULL), "not an option", (char *)NULL);
    gaps_merge_options_free(&m);   /* after an error: harmless */
}

/* ---- the process, its defaults, the PDF set and the compatibility switch ---- */

static void test_process(void)
{
    gaps_options o;
    char m[512];
    /* defaults per process: an --ecm or --pdf not given takes the process's */
    CHECK(parse(&o, (char *)NULL) == 0 && o.cfg.process == GAPS_PROCESS_EE_QQ &&
          o.cfg.ecm == 91.2 && o.cfg.pdf[0] == '\0' && o.cfg.compat == GAPS_COMPAT_NONE,
          "defaults: process %d ecm %g pdf '%s'", o.cfg.process, o.cfg.ecm, o.cfg.pdf);
    gaps_options_free(&o);
    /* every process of the list (gaps/process.h): its defaults pass the check, given values
     * win, and a sqrt(s) below its threshold (here 50 GeV, below every hadronic one) is
     * refused with the process's own message */
    char expected[512];   /* "expected one of NAME, NAME, ..." from the list */
    size_t at = (size_t)snprintf(expected, sizeof expected, "expected one of ");
    for (int k = 0; k < GAPS_N_PROCESSES; ++k) {
        const gaps_process_info *info = &gaps_process_table[k];
        if (info->from_file) {
            /* chosen by --lhe alone: not a value of --process, and --lhe takes no --process */
            expect_error(parse(&o, "--process", info->name, (char *)NULL), "--process",
                         (char *)NULL);
            expect_error(parse(&o, "--lhe", "f.lhe", "--process", "pp-z", (char *)NULL),
                         "leave --process out", (char *)NULL);
            CHECK(parse(&o, "--lhe", "f.lhe", (char *)NULL) == 0
                  && gaps_process_table[o.cfg.process].from_file
                  && !strcmp(o.lhe, "f.lhe") && !o.param_given[GAPS_P_ecm] && !o.events_given,
                  "--lhe f.lhe: process %d: %s", o.cfg.process, msg);
            gaps_options_free(&o);
            expect_error(parse(&o, "--lhe", "f.lhe", "--nlo", "1", (char *)NULL),
                         "leave --nlo out", (char *)NULL);
            CHECK(parse(&o, "--lhe", "f.lhe", "--checkpoint", "c", (char *)NULL) == 0,
                  "--lhe with --checkpoint: %s", msg);
            gaps_options_free(&o);
            expect_error(parse(&o, "--lhe-threads", "2", (char *)NULL), "needs --lhe",
                         (char *)NULL);
            expect_error(parse(&o, "--lhe-strict-pdf", (char *)NULL), "needs --lhe",
                         (char *)NULL);
            expect_error(parse(&o, "--lhe-batch", "7", (char *)NULL), "needs --lhe",
                         (char *)NULL);
            expect_error(parse(&o, "--lhe", "f.lhe", "--lhe-batch", "0", (char *)NULL),
                         "--lhe-batch", (char *)NULL);
            CHECK(parse(&o, "--lhe", "f.lhe", "--lhe-batch", "7", (char *)NULL) == 0
                  && o.cfg.file_batch == 7, "--lhe-batch 7: %d: %s", o.cfg.file_batch, msg);
            gaps_options_free(&o);
            expect_error(parse(&o, "--lhe", "f.lhe", "--lhe-threads", "257", (char *)NULL),
                         "--lhe-threads", (char *)NULL);
            continue;
        }
        at += (size_t)snprintf(expected + at, sizeof expected - at, "%s%s", k ? ", " : "",
                               info->name);
        CHECK(parse(&o, "--process", info->name, (char *)NULL) == 0 && o.cfg.process == k &&
              o.cfg.ecm == info->default_ecm
              && !strcmp(o.cfg.pdf, info->default_pdf ? info->default_pdf : ""),
              "%s: ecm %g pdf '%s': %s", info->name, o.cfg.ecm, o.cfg.pdf, msg);
        CHECK(gaps_config_check(&o.cfg, m, sizeof m) == 0, "%s defaults: %s", info->name, m);
        gaps_options_free(&o);
        if (!info->hadronic) continue;
        /* given values win, wherever --process stands */
        CHECK(parse(&o, "--ecm", "7000", "--pdf", "CT14lo/3", "--process", info->name,
                    (char *)NULL) == 0 && o.cfg.ecm == 7000.0 && !strcmp(o.cfg.pdf, "CT14lo/3"),
              "%s given: %s", info->name, msg);
        gaps_options_free(&o);
        CHECK(parse(&o, "--process", info->name, "--ecm", "50", (char *)NULL) == 0 &&
              gaps_config_check(&o.cfg, m, sizeof m) != 0 && strstr(m, "needs sqrt(s) above") &&
              strstr(m, info->name), "%s at 50 GeV: '%s'", info->name, m);
        gaps_options_free(&o);
    }
    expect_error(parse(&o, "--process", "no-such-process", (char *)NULL), expected,
                 (char *)NULL);
    expect_error(parse(&o, "--process", "", (char *)NULL), "--process", (char *)NULL);
    expect_error(parse(&o, "--process", "EE-QQ", (char *)NULL), "--process", (char *)NULL);
    expect_error(parse(&o, "--process", (char *)NULL), "needs a value", (char *)NULL);
    /* compat */
    CHECK(parse(&o, "--compat", "gaps21", (char *)NULL) == 0 &&
          o.cfg.compat == GAPS_COMPAT_GAPS21, "--compat gaps21: %s", msg);
    CHECK(parse(&o, "--compat=none", (char *)NULL) == 0 && o.cfg.compat == GAPS_COMPAT_NONE,
          "--compat=none: %s", msg);
    expect_error(parse(&o, "--compat", "gaps2.1", (char *)NULL),
                 "expected one of none, gaps21", (char *)NULL);
    /* the PDF set: its syntax at parsing, hadron beams at the configuration check */
    const char *good_pdf[] = { "CT14lo", "CT14lo/0", "CT14lo/9999", "NNPDF31_lo_as_0118/12",
                               "MSHT20lo_as130", "a.b-c+d" };
    for (size_t i = 0; i < sizeof good_pdf / sizeof good_pdf[0]; ++i) {
        CHECK(parse(&o, "--process", "pp-z", "--pdf", good_pdf[i], (char *)NULL) == 0 &&
              !strcmp(o.cfg.pdf, good_pdf[i]), "--pdf %s: %s", good_pdf[i], msg);
        gaps_options_free(&o);
    }
    char longname[200];
    memset(longname, 'A', 127);
    longname[127] = '\0';
    CHECK(parse(&o, "--process", "pp-z", "--pdf", longname, (char *)NULL) == 0,
          "127-byte set name: %s", msg);
    longname[127] = 'A';
    longname[128] = '\0';
    const char *bad_pdf[] = { "", "/0", "CT14lo/", "CT14lo/10000", "CT14lo/00000", "CT14lo/-1",
                              "CT14lo/1/2", "CT 14", ".hidden", "-x", "../CT14lo", "CT14lo/a",
                              "CT\x01", longname };
    for (size_t i = 0; i < sizeof bad_pdf / sizeof bad_pdf[0]; ++i)
        expect_error(parse(&o, "--process", "pp-z", "--pdf", bad_pdf[i], (char *)NULL),
                     "--pdf", (char *)NULL);
    const char *ee_only[][2] = { { "--pdf", "CT14lo" }, { "--pdf-path", "/tmp" } };
    for (int k = 0; k < 2; ++k) {
        CHECK(parse(&o, ee_only[k][0], ee_only[k][1], (char *)NULL) == 0 &&
              gaps_config_check(&o.cfg, m, sizeof m) != 0 && strstr(m, ee_only[k][0]) &&
              strstr(m, "hadron beams") && strstr(m, "ee-qq") && !strchr(m, '\n'),
              "%s with ee-qq: '%s'", ee_only[k][0], m);
        gaps_options_free(&o);
    }
    /* a run card takes the new keys; the command line wins over it */
    const char *text = "process = pp-ll\ncompat = gaps21\npdf = CT14lo/2\npdf-path = /opt/sets\n";
    const char *card = write_card("pp.card", text, strlen(text));
    CHECK(parse(&o, "--card", card, (char *)NULL) == 0 && o.cfg.process == GAPS_PROCESS_PP_LL
          && o.cfg.compat == GAPS_COMPAT_GAPS21 && !strcmp(o.cfg.pdf, "CT14lo/2") &&
          !strcmp(o.cfg.pdf_path, "/opt/sets") && o.cfg.ecm == 13000.0, "card: %s", msg);
    gaps_options_free(&o);
    CHECK(parse(&o, "--card", card, "--process", "pp-z", "--pdf", "CT14lo", (char *)NULL) == 0
          && o.cfg.process == GAPS_PROCESS_PP_Z && !strcmp(o.cfg.pdf, "CT14lo"),
          "card and command line: %s", msg);
    gaps_options_free(&o);
    card = write_card("ecm.card", "ecm = 500\n", 10);
    CHECK(parse(&o, "--card", card, "--process", "pp-z", (char *)NULL) == 0 &&
          o.cfg.ecm == 500.0, "an --ecm of the card is kept for pp-z: %g", o.cfg.ecm);
    gaps_options_free(&o);
    /* the MPI hash sees each of them */
    uint64_t a[GAPS_OPTIONS_FINGERPRINT], b[GAPS_OPTIONS_FINGERPRINT];
    const char *differ[][2] = { { "--process", "pp-z" }, { "--compat", "gaps21" },
                                { "--pdf-path", "/x" } };
    for (int k = 0; k < 3; ++k) {
        parse(&o, "--process", "pp-ll", (char *)NULL);
        gaps_options_fingerprint(&o, a);
        gaps_options_free(&o);
        parse(&o, "--process", "pp-ll", differ[k][0], differ[k][1], (char *)NULL);
        gaps_options_fingerprint(&o, b);
        gaps_options_free(&o);
        int first = -1;
        for (int i = 0; i < GAPS_OPTIONS_FINGERPRINT && first < 0; ++i)
            if (a[i] != b[i]) first = i;
        CHECK(first >= 0 && !strcmp(gaps_options_fingerprint_name(first),
                                    k == 0 ? "--process" : differ[k][0]),
              "fingerprint of %s: index %d (%s)", differ[k][0], first,
              gaps_options_fingerprint_name(first));
    }
}

int main(void)
{
    snprintf(dir, sizeof dir, "%s/gaps_test_options.XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(dir)) { perror("mkdtemp"); return 1; }

    test_integers();
    test_events_examples();
    test_random_integers();
    test_reals();
    test_command_line();
    test_help_version();
    test_cards();
    test_merge();
    test_process();

    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
    printf("test_options: %d checks, %d failures\n", checks, failures);
    return failures ? 1 : 0;
}
