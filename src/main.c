/* main.c -- the program `gaps`: options, run summary and output files.
 *
 * Every output is written to a temporary file next to its destination and renamed when
 * complete; an interrupt removes the temporary files, so no truncated output is ever left.
 */
#define _POSIX_C_SOURCE 200809L
#include "gaps/analysis.h"
#include "gaps/generator.h"
#include "gaps/hepmc.h"
#include "gaps/yoda.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef GAPS_VERSION
#define GAPS_VERSION "0.0"
#endif

#define EXIT_USAGE 2

static const char *usage_text =
    "Usage: gaps [options]\n"
    "LEP event generator: e+e- -> q qbar, dipole shower (parallel veto algorithm), Durham\n"
    "jet rates and event shapes into YODA histograms.\n"
    "\n"
    "Physics:\n"
    "  --events N             events to generate (default 100000)\n"
    "  --ecm GEV              centre-of-mass energy sqrt(s) (default 91.2)\n"
    "  --alphas-mz X          alpha_s(M_Z^2) (default 0.118)\n"
    "  --alphas-order 0|1|2   fixed, one-loop or two-loop running (default 2)\n"
    "  --tcut GEV2            shower cutoff in k_T^2 (default 1)\n"
    "  --seed S               random seed, 0..4294967295 (default 1)\n"
    "Output:\n"
    "  --output FILE.yoda     histograms, /_XSEC and /_EVTCOUNT (default gaps.yoda;\n"
    "                         '-' writes none)\n"
    "  --json FILE            run summary as JSON\n"
    "  --observables-out FILE one CSV line per event (event number order)\n"
    "  --cycles-out FILE      CSV: veto cycle, events completed so far\n"
    "  --hepmc FILE           every event (beams, Z/gamma*, final partons with colour flow)\n"
    "                         in the HepMC3 ASCII format\n"
    "  --quiet                no summary on standard output\n"
    "Execution:\n"
    "  --pool N               event slots in the pool (default: 128 per CPU thread,\n"
    "                         2^19 on a GPU)\n"
    "  --max-partons N        event record capacity, 3..64 (default 32)\n"
    "  --threads N            OpenMP threads (openmp build)\n"
    "  --loops steps|fused    one loop per veto step (the paper's structure) or whole\n"
    "                         cycles per loop (default fused)\n"
    "  --cycles-per-launch K  veto cycles per fused launch (default 16 on a GPU, 1 on\n"
    "                         a CPU)\n"
    "  --no-refill            run the pool in batches instead of refilling free slots\n"
    "  --allow-host           offload build: run on the host if no GPU is usable\n"
    "  --help, --version\n";

/* ---- temporary outputs, removed on interrupt ---- */
#define MAX_OUTPUTS 5
static char tmp_paths[MAX_OUTPUTS][4096];
static volatile sig_atomic_t n_tmp = 0;

static void remove_temporaries(int sig)
{
    for (int i = 0; i < n_tmp; ++i) unlink(tmp_paths[i]);
    signal(sig, SIG_DFL);
    raise(sig);
}

typedef struct output {
    const char *path;   /* destination, NULL if not requested */
    FILE *f;
    int slot;
} output;

/* Open the temporary file of an output now, so that an unwritable path fails before the run. */
static int output_open(output *o)
{
    if (!o->path) return 0;
    if (n_tmp >= MAX_OUTPUTS) return -1;
    o->slot = n_tmp;
    snprintf(tmp_paths[o->slot], sizeof tmp_paths[0], "%s.tmp.%ld", o->path, (long)getpid());
    o->f = fopen(tmp_paths[o->slot], "w");
    if (!o->f) return -1;
    n_tmp = o->slot + 1;
    return 0;
}

static int output_commit(output *o)
{
    if (!o->f) return 0;
    int bad = ferror(o->f) | fclose(o->f);
    o->f = NULL;
    if (!bad) bad = rename(tmp_paths[o->slot], o->path);
    if (bad) unlink(tmp_paths[o->slot]);
    return bad ? -1 : 0;
}

static void output_discard(output *o)
{
    if (!o->f) return;
    fclose(o->f);
    o->f = NULL;
    unlink(tmp_paths[o->slot]);
}

/* ---- option parsing ---- */
static int usage_error(const char *fmt, const char *a, const char *b)
{
    fprintf(stderr, "gaps: ");
    fprintf(stderr, fmt, a, b);
    fprintf(stderr, " (see gaps --help)\n");
    return EXIT_USAGE;
}

static int parse_int64(const char *s, int64_t lo, int64_t hi, int64_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end != '\0' || v < lo || v > hi) {
        /* accept 1e6-style integers too */
        double d = strtod(s, &end);
        if (end == s || *end != '\0' || !(d >= (double)lo && d <= (double)hi) || d != floor(d))
            return -1;
        v = (long long)d;
    }
    *out = v;
    return 0;
}

static int parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end != '\0' || !isfinite(v)) return -1;
    *out = v;
    return 0;
}

/* ---- outputs ---- */
static void write_rows(FILE *f, const gaps_run *run)
{
    fprintf(f, "# event,weight,n_partons,y23,y34,y45,y56,tau,rho_H,rho_L,B_T,B_W,B_N,C\n");
    for (int64_t i = 0; i < run->events; ++i) {
        const double *r = run->rows + i * GAPS_OBS_COLUMNS;
        fprintf(f, "%" PRId64 ",%.17g,%d", (int64_t)r[GAPS_OBS_EVENT], r[GAPS_OBS_WEIGHT],
                (int)r[GAPS_OBS_NPARTONS]);
        for (int k = GAPS_OBS_Y23; k < GAPS_OBS_COLUMNS; ++k) fprintf(f, ",%.17g", r[k]);
        fputc('\n', f);
    }
}

static void write_json(FILE *f, const gaps_config *cfg, const gaps_run *run)
{
    fprintf(f, "{\n");
    fprintf(f, "  \"program\": \"gaps\",\n  \"version\": \"%s\",\n", GAPS_VERSION);
    fprintf(f, "  \"backend\": \"%s\",\n  \"device\": \"%s\",\n", run->backend, run->device);
    fprintf(f, "  \"threads\": %d,\n  \"slots\": %d,\n", run->threads, run->slots);
    fprintf(f, "  \"loops\": \"%s\",\n  \"cycles_per_launch\": %d,\n  \"refill\": %s,\n",
            cfg->loop_mode == GAPS_LOOPS_FUSED ? "fused" : "steps", cfg->cycles_per_launch,
            cfg->refill ? "true" : "false");
    fprintf(f, "  \"parameters\": {\"ecm\": %.17g, \"alphas_mz\": %.17g, \"alphas_order\": %d, "
               "\"tcut\": %.17g, \"seed\": %u, \"max_partons\": %d},\n",
            cfg->ecm, cfg->alphas_mz, cfg->alphas_order, cfg->t_cut, cfg->seed,
            cfg->max_partons);
    fprintf(f, "  \"events\": %" PRId64 ",\n", run->events);
    fprintf(f, "  \"sigma_pb\": %.17g,\n  \"sigma_err_pb\": %.17g,\n", run->sigma, run->sigma_err);
    fprintf(f, "  \"capacity_hits\": %" PRId64 ",\n  \"invalid_events\": %" PRId64 ",\n",
            run->capacity_hits, run->invalid_events);
    /* host iterations of the first pool; each runs cycles_per_launch veto cycles when fused */
    fprintf(f, "  \"cycles\": %ld,\n  \"veto_cycles\": %ld,\n", run->cycles,
            run->cycles * (cfg->loop_mode == GAPS_LOOPS_FUSED ? cfg->cycles_per_launch : 1));
    fprintf(f, "  \"time_s\": {\"me\": %.9g, \"shower\": %.9g, \"analysis\": %.9g, "
               "\"total\": %.9g},\n",
            run->time_me, run->time_shower, run->time_analysis, run->time_total);
    fprintf(f, "  \"events_per_s\": %.9g\n}\n",
            run->time_total > 0 ? run->events / run->time_total : 0.0);
}

static void print_summary(const gaps_config *cfg, const gaps_run *run)
{
    printf("gaps %s  backend %s  on %s\n", GAPS_VERSION, run->backend, run->device);
    printf("  sqrt(s) = %g GeV   alpha_s(M_Z) = %g (order %d)   t_cut = %g GeV^2   seed %u\n",
           cfg->ecm, cfg->alphas_mz, cfg->alphas_order, cfg->t_cut, cfg->seed);
    printf("  pool %d slots x %d partons   loops %s", run->slots, cfg->max_partons,
           cfg->loop_mode == GAPS_LOOPS_FUSED ? "fused" : "steps");
    if (cfg->loop_mode == GAPS_LOOPS_FUSED)
        printf(" (%d veto cycle%s per launch)", cfg->cycles_per_launch,
               cfg->cycles_per_launch == 1 ? "" : "s");
    printf("   %s   %ld %s\n", cfg->refill ? "refill" : "batches", run->cycles,
           cfg->loop_mode == GAPS_LOOPS_FUSED ? "launches" : "veto cycles");
    printf("  events            %" PRId64 "\n", run->events);
    printf("  cross section     %.4f +- %.4f pb\n", run->sigma, run->sigma_err);
    printf("  hit capacity      %" PRId64 " events\n", run->capacity_hits);
    printf("  failed checks     %" PRId64 " events\n", run->invalid_events);
    printf("  time  matrix element %9.4f s\n", run->time_me);
    printf("        shower         %9.4f s\n", run->time_shower);
    printf("        analysis       %9.4f s\n", run->time_analysis);
    printf("        total          %9.4f s   (%.3g events/s, %.3f us/event)\n", run->time_total,
           run->time_total > 0 ? run->events / run->time_total : 0.0,
           run->events > 0 ? 1e6 * run->time_total / run->events : 0.0);
}

int main(int argc, char **argv)
{
    gaps_config cfg;
    gaps_config_defaults(&cfg);
    output yoda = { "gaps.yoda", NULL, 0 }, json = { NULL, NULL, 0 };
    output rows = { NULL, NULL, 0 }, cycles = { NULL, NULL, 0 }, hepmc = { NULL, NULL, 0 };
    int quiet = 0;

    for (int i = 1; i < argc; ++i) {
        const char *opt = argv[i];
        if (!strcmp(opt, "--help") || !strcmp(opt, "-h")) { fputs(usage_text, stdout); return 0; }
        if (!strcmp(opt, "--version")) { printf("gaps %s (%s backend)\n", GAPS_VERSION, GAPS_BACKEND_NAME); return 0; }
        if (!strcmp(opt, "--no-refill")) { cfg.refill = 0; continue; }
        if (!strcmp(opt, "--allow-host")) { cfg.allow_host = 1; continue; }
        if (!strcmp(opt, "--quiet")) { quiet = 1; continue; }
        if (strncmp(opt, "--", 2) != 0) return usage_error("unexpected argument '%s'%s", opt, "");
        if (i + 1 >= argc) return usage_error("option %s needs a value%s", opt, "");
        const char *val = argv[++i];
        int64_t iv;
        double dv;
        int bad = 0;
        if (!strcmp(opt, "--events")) {
            bad = parse_int64(val, 1, INT64_MAX / GAPS_OBS_COLUMNS, &iv);
            cfg.events = iv;
        } else if (!strcmp(opt, "--ecm")) {
            bad = parse_double(val, &dv) || !(dv > 0);
            cfg.ecm = dv;
        } else if (!strcmp(opt, "--alphas-mz")) {
            bad = parse_double(val, &dv) || !(dv > 0 && dv < 1);
            cfg.alphas_mz = dv;
        } else if (!strcmp(opt, "--alphas-order")) {
            bad = parse_int64(val, 0, 2, &iv);
            cfg.alphas_order = (int)iv;
        } else if (!strcmp(opt, "--tcut")) {
            bad = parse_double(val, &dv) || !(dv > 0);
            cfg.t_cut = dv;
        } else if (!strcmp(opt, "--seed")) {
            bad = parse_int64(val, 0, UINT32_MAX, &iv);
            cfg.seed = (uint32_t)iv;
        } else if (!strcmp(opt, "--pool")) {
            bad = parse_int64(val, 1, 1 << 28, &iv);
            cfg.slots = (int)iv;
        } else if (!strcmp(opt, "--max-partons")) {
            bad = parse_int64(val, 3, GAPS_MAX_PARTONS, &iv);
            cfg.max_partons = (int)iv;
        } else if (!strcmp(opt, "--threads")) {
            bad = parse_int64(val, 1, 4096, &iv);
            cfg.threads = (int)iv;
        } else if (!strcmp(opt, "--cycles-per-launch")) {
            bad = parse_int64(val, 1, 1 << 20, &iv);
            cfg.cycles_per_launch = (int)iv;
        } else if (!strcmp(opt, "--loops")) {
            if (!strcmp(val, "steps")) cfg.loop_mode = GAPS_LOOPS_STEPS;
            else if (!strcmp(val, "fused")) cfg.loop_mode = GAPS_LOOPS_FUSED;
            else bad = 1;
        } else if (!strcmp(opt, "--output")) {
            yoda.path = strcmp(val, "-") ? val : NULL;
        } else if (!strcmp(opt, "--json")) {
            json.path = val;
        } else if (!strcmp(opt, "--observables-out")) {
            rows.path = val;
        } else if (!strcmp(opt, "--cycles-out")) {
            cycles.path = val;
        } else if (!strcmp(opt, "--hepmc")) {
            hepmc.path = val;
        } else {
            return usage_error("unknown option '%s'%s", opt, "");
        }
        if (bad) return usage_error("invalid value '%s' for %s", val, opt);
    }
    cfg.keep_rows = rows.path != NULL;
    cfg.keep_records = hepmc.path != NULL;   /* the events are written after the run */

    char msg[512];
    if (gaps_config_check(&cfg, msg, sizeof msg) != 0) {
        fprintf(stderr, "gaps: %s\n", msg);
        return EXIT_USAGE;
    }
    signal(SIGINT, remove_temporaries);
    signal(SIGTERM, remove_temporaries);
    signal(SIGHUP, remove_temporaries);
    output *outs[] = { &yoda, &json, &rows, &cycles, &hepmc };
    const int n_outs = (int)(sizeof outs / sizeof outs[0]);   /* at most MAX_OUTPUTS */
    for (int k = 0; k < n_outs; ++k) {
        if (output_open(outs[k]) != 0) {
            fprintf(stderr, "gaps: cannot write '%s': %s\n", outs[k]->path, strerror(errno));
            for (int m = 0; m < k; ++m) output_discard(outs[m]);
            return EXIT_USAGE;
        }
    }

    gaps_run run;
    if (gaps_generate(&cfg, &run, msg, sizeof msg) != 0) {
        fprintf(stderr, "gaps: %s\n", msg);
        for (int k = 0; k < n_outs; ++k) output_discard(outs[k]);
        return 1;
    }
    if (!quiet) print_summary(&cfg, &run);

    if (yoda.f) gaps_yoda_write(yoda.f, run.hist);
    if (json.f) write_json(json.f, &cfg, &run);
    if (rows.f) write_rows(rows.f, &run);
    if (cycles.f) {
        fprintf(cycles.f, "cycle,events_completed\n");
        for (long c = 0; c < run.cycles; ++c)
            fprintf(cycles.f, "%ld,%ld\n", c + 1, run.finished_per_cycle[c]);
    }
    int status = 0;
    /* A malformed record fails without a stream error: drop the file, do not commit it. */
    if (hepmc.f && gaps_hepmc_write(hepmc.f, &run.records, run.events, cfg.ecm, run.sigma,
                                    run.sigma_err) != 0) {
        fprintf(stderr, "gaps: writing '%s' failed\n", hepmc.path);
        output_discard(&hepmc);
        status = 1;
    }
    for (int k = 0; k < n_outs; ++k) {
        if (output_commit(outs[k]) != 0) {
            fprintf(stderr, "gaps: writing '%s' failed\n", outs[k]->path);
            status = 1;
        }
    }
    gaps_run_free(&run);
    return status;
}
