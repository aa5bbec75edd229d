/* main.c -- the program `gaps`: a run (options, outputs, checkpoints, progress, summary) and
 * the subcommand `gaps merge`.
 *
 * Exit statuses (README "Exit statuses"):
 *   0    success
 *   1    the run failed (device, memory, file descriptors, a write error, a rename of the
 *        commit; a .part file or the checkpoint removed or replaced under the run, a
 *        destination another run wrote meanwhile); no output was committed.  One exception:
 *        when only the summary cannot be written to standard output, the outputs were
 *        committed before it and the message says so.  Also: --help or --version could not
 *        be written.
 *   2    bad input: an option, a run card, an output path, a state or checkpoint file, a
 *        file that another run still going writes, MPI ranks with different options;
 *        nothing was created or changed
 *   3    the run (or merge) finished, but some events failed the built-in checks (outputs
 *        written)
 *   128 + signal   killed by a signal.  SIGINT (130), SIGTERM (143) and SIGHUP (129) with
 *        --checkpoint: a last checkpoint was written and the run can be resumed; without it,
 *        and for SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM and SIGKILL, no output appears (a
 *        checkpointed run keeps its FILE.part files and last checkpoint for --resume)
 */
#define _POSIX_C_SOURCE 200809L
#include "gaps/generator.h"
#include "gaps/hepmc.h"
#include "gaps/state.h"
#include "gaps/yoda.h"
#include "gaps_runtime.h"
#include "io/event_stream.h"
#include "program/options.h"
#include "program/pdf_command.h"
#include "program/outfile.h"
#include "program/ranks.h"
#include "program/testhook.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define EXIT_RUN_FAILED 1
#define EXIT_USAGE 2
#define EXIT_BAD_EVENTS 3

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* ---- signals ----
 * Without a checkpoint a signal ends the run at once: the outputs are anonymous files that
 * vanish with the process (the rare fallback temporary names are removed here).  With a
 * checkpoint the first SIGINT/SIGTERM/SIGHUP asks the generator to stop starting events; the
 * events under way finish, a last checkpoint is written and the program exits with 128 +
 * signal.  A second signal ends it at once. */
static volatile sig_atomic_t stop_signal = 0;
static volatile sig_atomic_t graceful = 0;

static void on_signal(int sig)
{
    const int stoppable = sig == SIGINT || sig == SIGTERM || sig == SIGHUP;
    if (graceful && stoppable && !stop_signal) {
        stop_signal = sig;
        return;
    }
    gaps_outfiles_cleanup_signal_safe();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install_signal_handlers(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM };
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; ++i) sigaction(sigs[i], &sa, NULL);
    /* a reader that goes away makes writes fail with EPIPE, reported as a write error,
     * instead of killing the program before it can clean up; likewise a file that grows past
     * `ulimit -f` fails with EFBIG ("File too large") instead of raising SIGXFSZ */
    signal(SIGPIPE, SIG_IGN);
    signal(SIGXFSZ, SIG_IGN);
}

/* Descriptors 0-2 that the caller closed (`gaps ... >&-`) would be taken by the first files
 * the program opens, and text meant for standard output or error would go into them.  Each
 * closed one is occupied by /dev/null opened read-only: writes to it still fail (EBADF), as
 * they would on the closed descriptor, but no output file can land there. */
static void occupy_standard_descriptors(void)
{
    for (int fd = 0; fd <= 2; ++fd) {
        if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF) continue;
        const int n = open("/dev/null", O_RDONLY | O_NOCTTY);
        if (n >= 0 && n != fd) {
            dup2(n, fd);
            close(n);
        }
    }
}

/* An output must not replace a file the program reads (a run card, a state to merge): the
 * input would be lost.  -1 with a message when one of outs[0..n) is the file `input` (same
 * device and inode, whatever the names and links), else 0. */
static int clobbers_input(const gaps_outfile *outs, int n, const char *input, const char *what,
                          char *msg, size_t len)
{
    struct stat in, out;
    if (!input || stat(input, &in) != 0 || !S_ISREG(in.st_mode)) return 0;
    for (int k = 0; k < n; ++k) {
        if (!outs[k].path || !strcmp(outs[k].path, "-") || stat(outs[k].path, &out) != 0
            || out.st_dev != in.st_dev || out.st_ino != in.st_ino)
            continue;
        snprintf(msg, len, "cannot write '%s' to '%s': it is %s '%s', which would be lost",
                 outs[k].label, outs[k].path, what, input);
        for (char *c = msg; *c; ++c)   /* one line, whatever the names hold */
            if ((unsigned char)*c < 0x20 || *c == 0x7f) *c = '?';
        return -1;
    }
    return 0;
}

/* A message that holds a user's file name, made one line: control characters (a newline in a
 * name) become '?'.  The messages of options.c and outfile.c are already; state.c's are not. */
static const char *one_line(char *s)
{
    for (char *c = s; *c; ++c)
        if ((unsigned char)*c < 0x20 || *c == 0x7f) *c = '?';
    return s;
}

/* --help and --version: their text must reach standard output, or the exit status says not. */
static int finish_stdout(void)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "gaps: writing to standard output failed: %s\n", strerror(errno));
        return EXIT_RUN_FAILED;
    }
    return 0;
}

/* ---- progress on standard error ---- */
typedef struct progress {
    int on, tty;
    double t0, last;
    int last_tenth;
    int shown;
} progress;

static void format_duration(char *buf, size_t len, double s)
{
    if (!(s < 1e7)) snprintf(buf, len, "--");
    else if (s < 60) snprintf(buf, len, "%.0fs", s);
    else if (s < 3600) snprintf(buf, len, "%dm%02ds", (int)s / 60, (int)s % 60);
    else snprintf(buf, len, "%dh%02dm", (int)s / 3600, ((int)s % 3600) / 60);
}

static void progress_update(progress *p, int64_t done, int64_t total)
{
    if (!p->on) return;
    const double t = now(), elapsed = t - p->t0;
    if (elapsed < 2.0) return;   /* short runs stay silent */
    const double rate = done / elapsed;
    const int tenth = total > 0 ? (int)(10 * done / total) : 10;
    if (p->tty) {
        if (t - p->last < 0.25 && done < total) return;
    } else if (tenth <= p->last_tenth) {
        return;
    }
    char eta[32];
    format_duration(eta, sizeof eta, rate > 0 ? (total - done) / rate : 1e9);
    fprintf(stderr, "%sgaps: %" PRId64 " of %" PRId64 " events (%.0f%%), %.3g events/s, ETA %s%s",
            p->tty ? "\r" : "", done, total, total > 0 ? 100.0 * done / total : 100.0, rate,
            eta, p->tty ? "\033[K" : "\n");
    p->last = t;
    p->last_tenth = tenth;
    p->shown = 1;
}

static void progress_end(progress *p)
{
    if (p->on && p->tty && p->shown) fputs("\r\033[K", stderr);
}

/* ---- outputs of a run ---- */
/* OUT_CHECKPOINT only takes part in the checks before the run (the checkpoint must be a
 * writable file distinct from every output); it is written by write_checkpoint. */
enum { OUT_YODA, OUT_JSON, OUT_ROWS, OUT_HEPMC, OUT_CYCLES, OUT_STATE, OUT_CHECKPOINT, N_OUTS };

typedef struct program {
    gaps_options opt;
    gaps_outfile out[N_OUTS];
    gaps_event_stream stream;
    int streaming;
    const char *checkpoint;       /* path, or NULL */
    gaps_state resume_state;      /* --resume: what the run continues from (the root's) */
    gaps_resume_point rp;
    FILE *report;                 /* where the summary goes */
    progress prog;
    char hepmc_attr_text[1 + GAPS_N_PARAMS][GAPS_PDF_SPEC_MAX + 32];
    const char *hepmc_attr[2 * (1 + GAPS_N_PARAMS)];
    int n_hepmc_attr;
    char checkpoint_error[512];   /* why the last checkpoint failed, for the one error line */
    gaps_owned ck_owner;          /* the checkpoint, this run's alone (outfile.h) */
    gaps_owned resume_owner;      /* --resume FILE when it is not the checkpoint written */
    int first_checkpoint;         /* prepare_run wrote the run's first checkpoint */
} program;

/* Write the checkpoint file: the state, where the run continues, and how far each streamed
 * output got.  The streamed files are flushed and synced first, so the offsets it records
 * are on disk before the file that names them.  The file itself is replaced atomically.  On
 * failure the reason is left in pg->checkpoint_error, which main prints as the run's one
 * error line (the generator itself only knows that the hook failed). */
static int write_checkpoint(program *pg, const gaps_state *state, const gaps_resume_point *rp0)
{
    char *why = pg->checkpoint_error;
    const size_t wlen = sizeof pg->checkpoint_error;
    gaps_resume_point rp = *rp0;
    gaps_event_stream *s = &pg->stream;
    if (pg->streaming) {
        if (s->next != rp.next_event) {   /* every event below must be written */
            if (gaps_outfiles_error(pg->out, N_OUTS, why, wlen) == 0)
                snprintf(why, wlen, "writing the checkpoint failed: the per-event output is "
                                    "behind the run (event %lld of %lld)", (long long)s->next,
                         (long long)rp.next_event);
            return -1;
        }
        const int which[2] = { OUT_ROWS, OUT_HEPMC };
        int64_t *offset[2] = { &rp.rows_offset, &rp.hepmc_offset };
        for (int k = 0; k < 2; ++k) {
            gaps_outfile *of = &pg->out[which[k]];
            if (!gaps_outfile_stream(of)) continue;
            if (gaps_outfile_sync(of) != 0) {
                if (gaps_outfiles_error(of, 1, why, wlen) == 0)
                    snprintf(why, wlen, "writing '%s' failed: %s", of->label, strerror(errno));
                return -1;
            }
            *offset[k] = gaps_outfile_tell(of);
        }
        rp.hepmc_n = s->n;
        rp.hepmc_sum_w = s->sum_w;
        rp.hepmc_sum_w2 = s->sum_w2;
    }
    gaps_outfile ck;
    gaps_outfile_init(&ck, "--checkpoint", pg->checkpoint, GAPS_OUTFILE_ATOMIC);
    if (gaps_outfiles_prepare(&ck, 1, why, wlen) != 0) return -1;
    if (gaps_state_write(gaps_outfile_stream(&ck), state, &rp) != 0) {
        if (gaps_outfiles_error(&ck, 1, why, wlen) == 0)
            snprintf(why, wlen, "writing the checkpoint '%s' failed: out of memory",
                     pg->checkpoint);
        gaps_outfiles_discard(&ck, 1);
        return -1;
    }
    /* in place of the checkpoint this run holds, and held in turn (outfile.h) */
    if (gaps_owned_commit(&pg->ck_owner, &ck, why, wlen) != 0) return -1;
    gaps_test_hook("CHECKPOINT", -1);
    return 0;
}

static void hook_progress(void *ctx, int64_t done, int64_t total)
{
    program *pg = ctx;
    progress_update(&pg->prog, done, total);
}

static int hook_events(void *ctx, const double *rows, const gaps_records *records, int n)
{
    program *pg = ctx;
    return gaps_event_stream_add(&pg->stream, rows, records, n);
}

static int hook_checkpoint(void *ctx, const gaps_state *state, const gaps_resume_point *rp)
{
    return write_checkpoint(ctx, state, rp);
}

/* ---- JSON and summary ---- */

/* The physics part of the summary: a function of the exact state alone, so that a merged
 * run and one run over the same events write the same lines. */
static void write_json_physics(FILE *f, const gaps_state *st)
{
    gaps_hist_result *r = malloc(sizeof *r);
    double sigma = 0.0, err = 0.0, n_eff = 0.0, neg_fraction = 0.0;
    uint64_t n_neg = 0;
    if (r) {
        gaps_state_result(st, r);
        gaps_histograms_sigma(r, &sigma, &err);
        gaps_histograms_weight_summary(r, &n_eff, &neg_fraction);
        n_neg = r->n_negative;
        free(r);
    }
    fprintf(f, "  \"program\": \"gaps\",\n  \"version\": \"%s\",\n", st->version);
    /* every parameter the state records (gaps/parameters.h) */
    fprintf(f, "  \"parameters\": {");
    const char *sep = "";
    for (int id = 0; id < GAPS_N_PARAMS; ++id) {
        const gaps_param *p = &gaps_params[id];
        if (!p->in_state || !p->json) continue;
        char value[400];
        gaps_param_format(p, gaps_param_in_state(p, st), GAPS_STYLE_JSON, value, sizeof value);
        fprintf(f, "%s\"%s\": %s", sep, p->json, value);
        sep = ", ";
    }
    fprintf(f, "},\n");
    fprintf(f, "  \"event_ranges\": [");
    for (int i = 0; i < st->n_ranges; ++i)
        fprintf(f, "%s[%" PRId64 ", %" PRId64 "]", i ? ", " : "", st->range[i].begin,
                st->range[i].end);
    fprintf(f, "],\n");
    fprintf(f, "  \"events\": %" PRIu64 ",\n", st->events);
    fprintf(f, "  \"sigma_pb\": %.17g,\n  \"sigma_err_pb\": %.17g,\n", sigma, err);
    /* signed weights (NLO): the effective number of events and the negative ones */
    fprintf(f, "  \"effective_events\": %.17g,\n  \"negative_weights\": %" PRIu64 ",\n"
               "  \"negative_weight_fraction\": %.17g,\n", n_eff, n_neg, neg_fraction);
    fprintf(f, "  \"capacity_hits\": %" PRIu64 ",\n  \"invalid_events\": %" PRIu64 ",\n"
               "  \"bad_weights\": %" PRIu64, st->capacity_hits, st->invalid_events,
            st->bad_weights);
}

/* A run shared by MPI ranks: how the work went, and what each rank did (nothing otherwise). */
static void write_json_ranks(FILE *f)
{
    const gaps_ranks_summary m = gaps_ranks_summary_get();
    if (m.ranks == 0) return;
    fprintf(f, "  \"mpi\": {\"ranks\": %d, \"piece_events\": %" PRId64 ", \"segments\": %d, "
               "\"meet_s\": %.9g, \"reduce_s\": %.9g, \"drain_s\": %.9g},\n",
            m.ranks, m.piece_events, m.segments, m.meet_s, m.reduce_s, m.drain_s);
    fprintf(f, "  \"ranks\": [");
    for (int r = 0; r < m.ranks; ++r) {
        const gaps_rank_report *k = &m.rank[r];
        fprintf(f, "%s\n    {\"rank\": %d, \"host\": \"%s\", \"device\": \"%s\", \"threads\": %d, "
                   "\"slots\": %d, \"events\": %" PRId64 ", \"pieces\": %" PRId64 ", "
                   "\"takes\": %" PRId64 ", \"take_s\": %.9g, \"busy_s\": %.9g, "
                   "\"time_s\": {\"me\": %.9g, \"shower\": %.9g, \"analysis\": %.9g}, "
                   "\"batches\": %" PRId64 ", \"send_s\": %.9g}",
                r ? "," : "", r, k->host, k->device, k->threads, k->slots, k->events,
                k->pieces, k->takes, k->take_s, k->busy_s, k->me_s, k->shower_s,
                k->analysis_s, k->batches, k->send_s);
    }
    fprintf(f, "\n  ],\n");
}

/* Events generated by this process: a resumed run started at its checkpoint, not at
 * first_event (its time is this process's too). */
static int64_t generated_here(const gaps_config *cfg, const gaps_run *run, const program *pg)
{
    const int64_t start = pg->opt.resume ? pg->rp.next_event : cfg->first_event;
    return run->next_event - start;
}

/* Where the run did not get the pool or the threads that --pool or --threads asked for, why
 * (one line each, "" if it got them).  Only for one process: under MPI they apply per rank. */
static void execution_notes(const gaps_config *cfg, const gaps_run *run, char *pool, char *threads,
                            size_t len)
{
    pool[0] = threads[0] = '\0';
    if (gaps_ranks_summary_get().ranks != 0) return;
    if (cfg->slots > 0 && run->slots != cfg->slots) {
        const int capped = cfg->slots > cfg->events;
        const int raised = run->slots > (capped ? cfg->events : cfg->slots);
        snprintf(pool, len, "--pool %d asked; %d slots: %s%s%s", cfg->slots, run->slots,
                 capped ? "never more slots than events" : "", capped && raised ? ", and " : "",
                 raised ? "at least one slot per thread" : "");
    }
    if (cfg->threads > 0 && run->threads != cfg->threads)
        snprintf(threads, len, "--threads %d asked; %d ran: the OpenMP runtime gave no more "
                 "(OMP_THREAD_LIMIT, or the system)", cfg->threads, run->threads);
}

static void write_json(FILE *f, const gaps_config *cfg, const gaps_run *run, const program *pg)
{
    fprintf(f, "{\n");
    write_json_physics(f, run->state);
    fprintf(f, ",\n");
    /* how the run was executed: differs between backends and runs of the same events */
    fprintf(f, "  \"backend\": \"%s\",\n  \"device\": \"%s\",\n", run->backend, run->device);
    fprintf(f, "  \"threads\": %d,\n  \"slots\": %d,\n", run->threads, run->slots);
    /* what --threads and --pool asked for (null: the default), and why the run differs */
    char pool_note[160], threads_note[160];
    execution_notes(cfg, run, pool_note, threads_note, sizeof pool_note);
    if (cfg->threads > 0) fprintf(f, "  \"threads_requested\": %d,\n", cfg->threads);
    else fprintf(f, "  \"threads_requested\": null,\n");
    if (cfg->slots > 0) fprintf(f, "  \"slots_requested\": %d,\n", cfg->slots);
    else fprintf(f, "  \"slots_requested\": null,\n");
    if (pool_note[0] || threads_note[0]) {
        fprintf(f, "  \"notes\": [");
        if (pool_note[0]) fprintf(f, "\"%s\"", pool_note);
        if (threads_note[0]) fprintf(f, "%s\"%s\"", pool_note[0] ? ", " : "", threads_note);
        fprintf(f, "],\n");
    }
    fprintf(f, "  \"loops\": \"%s\",\n  \"cycles_per_launch\": %d,\n  \"split_every\": %d,\n"
               "  \"refill\": %s,\n",
            cfg->loop_mode == GAPS_LOOPS_FUSED ? "fused" : "steps", cfg->cycles_per_launch,
            cfg->split_every, cfg->refill ? "true" : "false");
    /* shower trials whose acceptance exceeded 1: rare outside --compat gaps21 (this process's) */
    fprintf(f, "  \"overestimate_violations\": %" PRId64 ",\n", run->overestimates);
    fprintf(f, "  \"launches\": %ld,\n  \"veto_cycles\": %ld,\n", run->launches,
            run->veto_cycles);
    fprintf(f, "  \"time_s\": {\"me\": %.9g, \"shower\": %.9g, \"analysis\": %.9g, "
               "\"total\": %.9g},\n",
            run->time_me, run->time_shower, run->time_analysis, run->time_total);
    if (cfg->measure_energy)
        fprintf(f, "  \"energy_j\": %.9g,\n  \"energy_source\": \"%s\",\n",
                run->energy_j, run->energy_source);
    write_json_ranks(f);
    fprintf(f, "  \"events_per_s\": %.9g\n}\n",
            run->time_total > 0 ? generated_here(cfg, run, pg) / run->time_total : 0.0);
}

/* A run shared by MPI ranks: one line per rank (nothing otherwise). */
static void print_summary_ranks(FILE *out)
{
    const gaps_ranks_summary m = gaps_ranks_summary_get();
    if (m.ranks == 0) return;
    fprintf(out, "  MPI ranks         %d, pieces of %" PRId64 " events, %d segment%s; meeting "
                 "%.3g s, exact sum %.3g s\n", m.ranks, m.piece_events, m.segments,
            m.segments == 1 ? "" : "s", m.meet_s, m.reduce_s);
    for (int r = 0; r < m.ranks; ++r) {
        const gaps_rank_report *k = &m.rank[r];
        fprintf(out, "    rank %-3d %s, %s: %" PRId64 " events in %" PRId64 " pieces, busy %.4f s, "
                     "%.1f us per piece taken\n", r, k->host, k->device, k->events, k->pieces,
                k->busy_s, k->takes > 0 ? 1e6 * k->take_s / k->takes : 0.0);
    }
}

/* The physics parameters of the run (gaps/parameters.h), "label value" for those with a
 * summary format, on lines of at most 90 columns.  Those only for hadron beams are left out
 * for other processes. */
static void print_summary_parameters(FILE *out, const gaps_state *st)
{
    const int hadronic = st->process >= 0 && st->process < GAPS_N_PROCESSES
                         && gaps_process_table[st->process].hadronic;
    gaps_config def;
    gaps_config_defaults(&def);
    int col = 0;
    for (int id = 0; id < GAPS_N_PARAMS; ++id) {
        const gaps_param *p = &gaps_params[id];
        if (!p->in_state || !p->summary || ((p->flags & GAPS_PF_HADRONIC_ONLY) && !hadronic))
            continue;
        if ((p->flags & GAPS_PF_OMIT_DEFAULT)
            && memcmp(gaps_param_in_state(p, st), gaps_param_in_config(p, &def), p->size) == 0)
            continue;
        char value[200], item[300];
        gaps_param_format(p, gaps_param_in_state(p, st), GAPS_STYLE_SHORT, value, sizeof value);
        /* a format that starts with '(' qualifies the one before: "= 0.118 (order 2)" */
        const int attached = p->summary[0] == '(';
        const int n = snprintf(item, sizeof item, p->summary, value);
        if (col > 0 && col + 3 + n > 90) {
            fputc('\n', out);
            col = 0;
        }
        col += fprintf(out, "%s%s", col == 0 ? "  " : attached ? " " : "   ", item);
    }
    if (col > 0) fputc('\n', out);
}

static void print_summary(FILE *out, const gaps_config *cfg, const gaps_run *run,
                          const program *pg)
{
    fprintf(out, "gaps %s  backend %s  on %s\n", GAPS_VERSION, run->backend, run->device);
    print_summary_parameters(out, run->state);
    fprintf(out, "  pool %d slots x %d partons   loops %s", run->slots, cfg->max_partons,
            cfg->loop_mode == GAPS_LOOPS_FUSED ? "fused" : "steps");
    if (cfg->loop_mode == GAPS_LOOPS_FUSED) {
        fprintf(out, " (%d veto cycle%s per launch", cfg->cycles_per_launch,
                cfg->cycles_per_launch == 1 ? "" : "s");
        /* splitting rounds only matter when some cycle of a launch is not one */
        if (cfg->split_every > 1 && cfg->cycles_per_launch > 1)
            fprintf(out, ", a splitting round every %d", cfg->split_every);
        fprintf(out, ")");
    }
    fprintf(out, "   %s\n", cfg->refill ? "refill" : "batches");
    char pool_note[160], threads_note[160];
    execution_notes(cfg, run, pool_note, threads_note, sizeof pool_note);
    if (pool_note[0]) fprintf(out, "  note              %s\n", pool_note);
    if (threads_note[0]) fprintf(out, "  note              %s\n", threads_note);
    fprintf(out, "  work              %ld veto cycles in %ld launches\n", run->veto_cycles,
            run->launches);
    fprintf(out, "  events            %" PRId64, run->events);
    if (cfg->first_event > 0 || run->next_event != cfg->first_event + cfg->events)
        fprintf(out, "   (event numbers %" PRId64 " to %" PRId64 ")", cfg->first_event,
                run->next_event - 1);
    fprintf(out, "\n  cross section     %.10g +- %.3g pb\n", run->sigma, run->sigma_err);
    fprintf(out, "  weights           %.6g effective events ((sum w)^2 / sum w^2), %" PRId64
                 " negative (%.3g %%)\n", run->effective_events, run->negative_weights,
            100.0 * run->negative_fraction);
    fprintf(out, "  hit capacity      %" PRId64 " events\n", run->capacity_hits);
    fprintf(out, "  failed checks     %" PRId64 " events\n", run->invalid_events);
    if (run->overestimates > 0)
        fprintf(out, "  f > g trials      %" PRId64 " (an overestimate below the true density%s)\n",
                run->overestimates, cfg->compat ? ": rejected, as GAPS 2.1 does" : "");
    if (run->bad_weights > 0)
        fprintf(out, "  bad weights       %" PRId64 " events (not finite or beyond 2^43 weight "
                     "units: counted, not added)\n", run->bad_weights);
    const int64_t generated = generated_here(cfg, run, pg);
    fprintf(out, "  time  matrix element %9.4f s\n", run->time_me);
    fprintf(out, "        shower         %9.4f s\n", run->time_shower);
    fprintf(out, "        analysis       %9.4f s\n", run->time_analysis);
    fprintf(out, "        total          %9.4f s   (%.3g events/s, %.3f us/event)\n",
            run->time_total, run->time_total > 0 ? generated / run->time_total : 0.0,
            generated > 0 ? 1e6 * run->time_total / generated : 0.0);
    if (cfg->measure_energy) {
        if (run->energy_j >= 0.0)
            fprintf(out, "  energy            %.4g J   (%.4g uJ/event, mean %.4g W; %s)\n",
                    run->energy_j, generated > 0 ? 1e6 * run->energy_j / generated : 0.0,
                    run->time_total > 0 ? run->energy_j / run->time_total : 0.0,
                    run->energy_source);
        else
            fprintf(out, "  energy            unknown: %s\n", run->energy_source);
    }
    print_summary_ranks(out);
}

static void write_cycle_log(FILE *f, const gaps_run *run)
{
    fprintf(f, "veto_cycle,events_completed\n");
    for (long i = 0; i < run->cycle_log_length; ++i)
        fprintf(f, "%ld,%" PRId64 "\n", (i + 1) * (long)run->cycle_log_stride,
                run->completed_per_cycle[i]);
}

/* gaps_state_read, with two reasons it does not give: a directory is named as one (not a
 * "read error"), and a failure for want of descriptors or memory is the system's (exit 1),
 * not the file's (exit 2).  0, or an exit status with the reason in msg. */
static int read_state(const char *path, gaps_state *st, gaps_resume_point *rp, char *msg,
                      size_t len)
{
    struct stat sb;
    if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
        return snprintf(msg, len, "cannot read '%s': %s", path, strerror(EISDIR)), EXIT_USAGE;
    errno = 0;
    if (gaps_state_read(path, st, rp, msg, len) == 0) return 0;
    const int e = errno;
    return e == EMFILE || e == ENFILE || e == ENOMEM ? EXIT_RUN_FAILED : EXIT_USAGE;
}

/* The note of a merge whose ranges leave gaps: the first and last few ranges, not all 1024. */
static void note_gaps(const gaps_state *st)
{
    enum { HEAD = 4, TAIL = 2 };
    fprintf(stderr, "gaps: merge: note: the event ranges have gaps: %d ranges cover %" PRIu64
                    " events:", st->n_ranges, st->events);
    for (int i = 0; i < st->n_ranges; ++i) {
        if (i == HEAD && st->n_ranges > HEAD + TAIL + 1) {
            fprintf(stderr, " ... (%d more) ...", st->n_ranges - HEAD - TAIL);
            i = st->n_ranges - TAIL;
        }
        fprintf(stderr, " [%" PRId64 ",%" PRId64 ")", st->range[i].begin, st->range[i].end);
    }
    fputc('\n', stderr);
}

/* ---- gaps merge ---- */

/* The weight unit is the process's (gaps_state_init): a state that names another would be
 * read in the wrong unit.  0, or -1 with a reason. */
static int check_weight_unit(const gaps_state *st, const char *path, char *msg, size_t len)
{
    gaps_process proc;
    if (gaps_process_init(&proc, (enum gaps_process_id)st->process, st->ecm, msg, len) != 0)
        return -1;
    if (memcmp(&proc.w_unit, &st->w_unit, sizeof st->w_unit) == 0) return 0;
    snprintf(msg, len, "'%s' is corrupt (weight unit %.17g pb, the process's is %.17g pb)", path,
             st->w_unit, proc.w_unit);
    return -1;
}
static int run_merge(int argc, char **argv)
{
    gaps_merge_options m;
    char msg[1024];
    int rc = gaps_merge_options_parse(argc, argv, &m, msg, sizeof msg);
    if (rc == 1) return finish_stdout();
    if (rc != 0) {
        fprintf(stderr, "gaps: %s\n", msg);
        return EXIT_USAGE;
    }
    gaps_state *total = malloc(sizeof *total), *next = malloc(sizeof *next);
    if (!total || !next) {
        fprintf(stderr, "gaps: merge: cannot allocate two states of %.1f MB: out of memory\n",
                sizeof *total / 1e6);
        free(total);
        free(next);
        gaps_merge_options_free(&m);
        return EXIT_RUN_FAILED;
    }
    int status = 0;
    for (int i = 0; i < m.n_inputs && status == 0; ++i) {
        gaps_state *dst = i == 0 ? total : next;
        if ((status = read_state(m.inputs[i], dst, NULL, msg, sizeof msg)) == 0
            && check_weight_unit(dst, m.inputs[i], msg, sizeof msg) != 0)
            status = EXIT_USAGE;
        if (status != 0) {
            fprintf(stderr, "gaps: merge: %s\n", one_line(msg));
        } else if (i > 0 && gaps_state_merge(total, next, msg, sizeof msg) != 0) {
            char name[256];
            snprintf(name, sizeof name, "%s", m.inputs[i]);
            fprintf(stderr, "gaps: merge: cannot add '%s': %s\n", one_line(name), one_line(msg));
            status = EXIT_USAGE;
        }
    }
    gaps_outfile out[3];
    gaps_outfile_init(&out[0], "-o", m.output, GAPS_OUTFILE_ATOMIC);
    gaps_outfile_init(&out[1], "--json", m.json, GAPS_OUTFILE_ATOMIC);
    gaps_outfile_init(&out[2], "--state-out", m.state_out, GAPS_OUTFILE_ATOMIC);
    for (int i = 0; i < m.n_inputs && status == 0; ++i)
        if (clobbers_input(out, 3, m.inputs[i], "the input state", msg, sizeof msg) != 0) {
            fprintf(stderr, "gaps: merge: %s\n", msg);
            status = EXIT_USAGE;
        }
    int prc;
    if (status == 0 && (prc = gaps_outfiles_prepare(out, 3, msg, sizeof msg)) != 0) {
        fprintf(stderr, "gaps: %s\n", msg);
        status = prc == -2 ? EXIT_RUN_FAILED : EXIT_USAGE;
    }
    if (status == 0) {
        if (total->n_ranges > 1 && !m.quiet) note_gaps(total);
        int bad = 0;
        if (gaps_outfile_stream(&out[0]))
            bad |= gaps_yoda_write(gaps_outfile_stream(&out[0]), total, "merged");
        if (gaps_outfile_stream(&out[1])) {
            FILE *f = gaps_outfile_stream(&out[1]);
            fprintf(f, "{\n");
            write_json_physics(f, total);
            fprintf(f, ",\n  \"merged_from\": %d\n}\n", m.n_inputs);
        }
        if (gaps_outfile_stream(&out[2]))
            bad |= gaps_state_write(gaps_outfile_stream(&out[2]), total, NULL);
        if (bad) {
            if (gaps_outfiles_error(out, 3, msg, sizeof msg) != 0)
                fprintf(stderr, "gaps: merge: %s\n", msg);
            else
                fprintf(stderr, "gaps: merge: writing the outputs failed: out of memory\n");
            gaps_outfiles_discard(out, 3);
            status = EXIT_RUN_FAILED;
        } else if (gaps_outfiles_commit(out, 3, msg, sizeof msg) != 0) {
            fprintf(stderr, "gaps: %s\n", msg);
            status = EXIT_RUN_FAILED;
        } else if (!m.quiet) {
            FILE *o = gaps_outfile_is_stdout(&out[0]) || gaps_outfile_is_stdout(&out[1])
                      || gaps_outfile_is_stdout(&out[2]) ? stderr : stdout;
            gaps_hist_result *r = malloc(sizeof *r);
            double sigma = 0, err = 0;
            if (r) gaps_state_result(total, r), gaps_histograms_sigma(r, &sigma, &err);
            free(r);
            fprintf(o, "gaps merge: %d states, %" PRIu64 " events in %d range%s, cross section "
                       "%.10g +- %.3g pb\n", m.n_inputs, total->events, total->n_ranges,
                    total->n_ranges == 1 ? "" : "s", sigma, err);
            if (fflush(o) != 0 || ferror(o)) {
                fprintf(stderr, "gaps: merge: writing the summary failed: %s (the outputs are "
                                "written)\n", strerror(errno));
                status = EXIT_RUN_FAILED;
            }
        }
        if (status == 0 && total->invalid_events > 0) {
            fprintf(stderr, "gaps: merge: %" PRIu64 " of the merged events failed the built-in "
                            "checks (momentum, masses, colour); the outputs are written, but "
                            "this is a bug: please report it\n", total->invalid_events);
            status = EXIT_BAD_EVENTS;
        } else if (status == 0 && total->bad_weights > 0) {
            fprintf(stderr, "gaps: merge: %" PRIu64 " of the merged events had a weight the "
                            "histograms cannot hold and were left out of the sums; the outputs "
                            "are written, but they lack those events\n", total->bad_weights);
            status = EXIT_BAD_EVENTS;
        }
    }
    free(total);
    free(next);
    gaps_merge_options_free(&m);
    return status;
}

/* ---- a run ---- */

/* The run's settings as HepMC3 run attributes (name, value pairs): the version, then the
 * parameters the state records (gaps/parameters.h), formatted from the state as the YODA and
 * JSON metadata are.  A parameter marked GAPS_PF_HEPMC_OMIT_DEFAULT is left out while it has
 * its default (process ee-qq, compat none, no PDF set), so that LEP files keep their bytes. */
static int hepmc_attributes(program *pg, char *msg, size_t len)
{
    gaps_state *st = malloc(sizeof *st), *def = malloc(sizeof *def);
    if (!st || !def) {
        free(st);
        free(def);
        snprintf(msg, len, "out of memory");
        return -1;
    }
    gaps_config d;
    gaps_config_defaults(&d);
    gaps_state_init(st, &pg->opt.cfg);
    gaps_state_init(def, &d);
    snprintf(pg->hepmc_attr_text[0], sizeof pg->hepmc_attr_text[0], "%s", GAPS_VERSION);
    pg->hepmc_attr[0] = "gaps_version";
    pg->hepmc_attr[1] = pg->hepmc_attr_text[0];
    int n = 1;
    for (int id = 0; id < GAPS_N_PARAMS; ++id) {
        const gaps_param *p = &gaps_params[id];
        if (!p->in_state || !p->hepmc) continue;
        const void *v = gaps_param_in_state(p, st);
        if ((p->flags & GAPS_PF_HEPMC_OMIT_DEFAULT)
            && memcmp(v, gaps_param_in_state(p, def), p->size) == 0)
            continue;
        gaps_param_format(p, v, GAPS_STYLE_EXACT, pg->hepmc_attr_text[n],
                          sizeof pg->hepmc_attr_text[n]);
        pg->hepmc_attr[2 * n] = p->hepmc;
        pg->hepmc_attr[2 * n + 1] = pg->hepmc_attr_text[n];
        ++n;
    }
    pg->n_hepmc_attr = n;
    free(st);
    free(def);
    return 0;
}

/* Do two paths name one file?  (Both must exist.) */
static int same_inode(const char *a, const char *b)
{
    struct stat x, y;
    if (!strcmp(a, b)) return 1;
    return stat(a, &x) == 0 && stat(b, &y) == 0 && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

/* A checkpoint can only continue the run it was written by. */
static int check_resume(const gaps_config *cfg, const gaps_state *st,
                        const gaps_resume_point *rp, const char *path, char *msg, size_t len)
{
    gaps_state mine;
    gaps_state_init(&mine, cfg);
    if (strncmp(mine.version, st->version, sizeof mine.version) != 0)
        return snprintf(msg, len, "checkpoint '%s' was written by gaps %.31s, this is %s", path,
                        st->version, GAPS_VERSION), -1;
    const int differs = gaps_state_params_differ(&mine, st);
    if (differs >= 0) {
        const gaps_param *p = &gaps_params[differs];
        char theirs[160], ours[160];
        gaps_param_format(p, gaps_param_in_state(p, st), GAPS_STYLE_EXACT, theirs,
                          sizeof theirs);
        gaps_param_format(p, gaps_param_in_state(p, &mine), GAPS_STYLE_EXACT, ours,
                          sizeof ours);
        return snprintf(msg, len, "checkpoint '%s' belongs to a run with other physics "
                        "parameters (--%s %s, not %s): give the same options as the run that "
                        "wrote it", path, p->option, theirs, ours), -1;
    }
    if (memcmp(&mine.w_unit, &st->w_unit, sizeof st->w_unit))
        return snprintf(msg, len, "checkpoint '%s' is corrupt (weight unit %.17g pb, the "
                        "process's is %.17g pb)", path, st->w_unit, mine.w_unit), -1;
    if (rp->first_event != cfg->first_event || rp->events != cfg->events)
        return snprintf(msg, len, "checkpoint '%s' belongs to a run of %" PRId64 " events from "
                        "event %" PRId64 ", not %" PRId64 " from %" PRId64, path, rp->events,
                        rp->first_event, cfg->events, cfg->first_event), -1;
    if (rp->next_event < cfg->first_event || rp->next_event > cfg->first_event + cfg->events)
        return snprintf(msg, len, "checkpoint '%s' is corrupt (next event outside the run)",
                        path), -1;
    return 0;
}

static const char *signal_name(int sig)
{
    return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : sig == SIGHUP ? "SIGHUP"
                                                                                 : "a signal";
}

/* A reason in msg and an exit status, for the checks before the run. */
static int refuse(char *msg, size_t len, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, len, fmt, ap);
    va_end(ap);
    return status;
}

/* Everything before the run: the options, their checks, the checkpoint to resume from, the
 * outputs opened and the event stream started.  0 to run; -1 when --help or --version was
 * printed; else an exit status with one line in msg.  In a run shared by MPI ranks every rank
 * comes here, and only the root reads the checkpoint and opens the outputs (ranks.h). */
static int prepare_run(program *pg, int argc, char **argv, char *msg, size_t len)
{
    const int root = gaps_ranks_root();
    gaps_owned_init(&pg->ck_owner);
    gaps_owned_init(&pg->resume_owner);
    const int prc = gaps_options_parse(argc, argv, &pg->opt, msg, len);
    /* every rank runs the same job: the same options, --help on all ranks or on none */
    uint64_t fp[GAPS_OPTIONS_FINGERPRINT] = { 0 };
    if (prc == 0) gaps_options_fingerprint(&pg->opt, fp);
    const int same = gaps_ranks_same_job(prc, fp, GAPS_OPTIONS_FINGERPRINT, msg, len);
    if (same == 1) return -1;
    if (same != 0) return same == 3 ? EXIT_RUN_FAILED : EXIT_USAGE;
    gaps_options *o = &pg->opt;
    gaps_config *cfg = &o->cfg;
    cfg->keep_rows = o->observables_out != NULL;
    cfg->keep_records = o->hepmc != NULL;
    cfg->keep_cycle_log = o->cycles_out != NULL;
    cfg->measure_energy = o->energy;
    pg->checkpoint = o->checkpoint ? o->checkpoint : o->resume;

    if (gaps_config_check(cfg, msg, len) != 0) return EXIT_USAGE;
    /* The PDF set of a process with hadron beams must load before anything is written: a
     * missing, truncated or corrupt set is the user's input, refused with exit status 2. */
    if (gaps_config_check_pdf(cfg, msg, len) != 0) return EXIT_USAGE;
    if (o->cycles_out && gaps_ranks_count() > 1)
        return refuse(msg, len, EXIT_USAGE, "--cycles-out needs a single process (the cycle "
                      "log describes one pool), not %d MPI ranks", gaps_ranks_count());
    /* The checkpoint, and a checkpoint resumed from, belong to this run from here on: one
     * that a run still going holds is refused now, before anything is read or cut. */
    const int resume_is_checkpoint = o->resume && (!o->checkpoint
                                                   || same_inode(o->checkpoint, o->resume));
    if (root && pg->checkpoint) {
        const int r = gaps_owned_take(&pg->ck_owner, o->checkpoint ? "--checkpoint" : "--resume",
                                      pg->checkpoint, 1, msg, len);
        if (r != 0) return r == -2 ? EXIT_RUN_FAILED : EXIT_USAGE;
    }
    if (root && o->resume && !resume_is_checkpoint) {
        const int r = gaps_owned_take(&pg->resume_owner, "--resume", o->resume, 0, msg, len);
        if (r != 0) return r == -2 ? EXIT_RUN_FAILED : EXIT_USAGE;
    }
    /* what a resumed run continues from */
    if (o->resume) {
        char why[768];
        const int r = root ? read_state(o->resume, &pg->resume_state, &pg->rp, why, sizeof why)
                           : 0;
        if (r != 0) return refuse(msg, len, r, "--resume: %s", one_line(why));
        if (root && check_resume(cfg, &pg->resume_state, &pg->rp, o->resume, why, sizeof why) != 0)
            return refuse(msg, len, EXIT_USAGE, "--resume: %s", one_line(why));
        if (o->cycles_out)
            return refuse(msg, len, EXIT_USAGE, "--cycles-out cannot be combined with --resume "
                          "(the cycle log of the first part of the run is gone)");
    }
    if (pg->checkpoint)
        cfg->checkpoint_every = o->checkpoint_every > 0
                                ? o->checkpoint_every
                                : gaps_runtime_default_checkpoint_events();
    else if (o->checkpoint_every > 0)
        return refuse(msg, len, EXIT_USAGE, "--checkpoint-every needs --checkpoint FILE");

    /* Outputs: checked and opened before the run.  The streamed ones of a checkpointed run
     * are visible FILE.part files, so that a killed run can be resumed from them. */
    const int stream_mode = pg->checkpoint ? GAPS_OUTFILE_PARTIAL : GAPS_OUTFILE_ATOMIC;
    gaps_outfile_init(&pg->out[OUT_YODA], "--output", o->output, GAPS_OUTFILE_ATOMIC);
    gaps_outfile_init(&pg->out[OUT_JSON], "--json", o->json, GAPS_OUTFILE_ATOMIC);
    gaps_outfile_init(&pg->out[OUT_ROWS], "--observables-out", o->observables_out, stream_mode);
    gaps_outfile_init(&pg->out[OUT_HEPMC], "--hepmc", o->hepmc, stream_mode);
    gaps_outfile_init(&pg->out[OUT_CYCLES], "--cycles-out", o->cycles_out, GAPS_OUTFILE_ATOMIC);
    gaps_outfile_init(&pg->out[OUT_STATE], "--state-out", o->state_out, GAPS_OUTFILE_ATOMIC);
    if (o->resume && root) {
        const int64_t offsets[2] = { pg->rp.rows_offset, pg->rp.hepmc_offset };
        const int which[2] = { OUT_ROWS, OUT_HEPMC };
        for (int k = 0; k < 2; ++k) {
            gaps_outfile *of = &pg->out[which[k]];
            char why[768];
            if (!of->path && offsets[k] >= 0)   /* its FILE.part would be left for ever */
                return refuse(msg, len, EXIT_USAGE, "--resume: the run that wrote this "
                              "checkpoint also wrote %s, whose events so far are in its "
                              "FILE.part: resume with the same %s FILE", of->label, of->label);
            if (!of->path) continue;
            if (offsets[k] < 0)
                return refuse(msg, len, EXIT_USAGE, "--resume: the checkpoint has no %s stream; "
                              "resume with the outputs of the run that wrote it", of->label);
            if (strcmp(of->path, "-") == 0)
                return refuse(msg, len, EXIT_USAGE, "--resume: %s cannot be continued on "
                              "standard output", of->label);
            /* the offset must be where the checkpoint's events end in FILE.part */
            char *part = malloc(strlen(of->path) + 6);
            if (!part) return refuse(msg, len, EXIT_RUN_FAILED, "out of memory");
            strcpy(part, of->path);
            strcat(part, ".part");
            if (hepmc_attributes(pg, why, sizeof why) != 0) {
                free(part);
                return refuse(msg, len, EXIT_RUN_FAILED, "%s", why);
            }
            const int bad = gaps_event_stream_check_resume(part, which[k] == OUT_HEPMC,
                                                           gaps_process_table[cfg->process]
                                                               .analysis,
                                                           offsets[k], cfg->first_event,
                                                           pg->rp.next_event, pg->hepmc_attr,
                                                           pg->n_hepmc_attr, why, sizeof why);
            free(part);
            if (bad)
                return refuse(msg, len, EXIT_USAGE, "--resume: %s cannot be continued: %s",
                              of->label, one_line(why));
            if (gaps_outfile_resume(of, offsets[k], why, sizeof why) != 0)
                return refuse(msg, len, EXIT_USAGE, "--resume: %s cannot be continued: %s",
                              of->label, why);
        }
    }
    gaps_outfile_init(&pg->out[OUT_CHECKPOINT], "--checkpoint", pg->checkpoint,
                      GAPS_OUTFILE_ATOMIC);
    if (pg->checkpoint && strcmp(pg->checkpoint, "-") == 0)
        return refuse(msg, len, EXIT_USAGE, "--checkpoint must be a file, not standard output");
    if (clobbers_input(pg->out, N_OUTS, o->card, "the run card", msg, len) != 0)
        return EXIT_USAGE;
    graceful = pg->checkpoint != NULL;
    install_signal_handlers();
    if (root) {
        const int r = gaps_outfiles_prepare(pg->out, N_OUTS, msg, len);
        if (r != 0) return r == -2 ? EXIT_RUN_FAILED : EXIT_USAGE;
        gaps_outfiles_discard(&pg->out[OUT_CHECKPOINT], 1);   /* checked; written later */
    }
    int to_stdout = 0;
    for (int k = 0; k < N_OUTS; ++k) to_stdout |= gaps_outfile_is_stdout(&pg->out[k]);
    pg->report = to_stdout ? stderr : stdout;

    /* per-event output, written by the root while the run goes */
    pg->streaming = root && (cfg->keep_rows || cfg->keep_records);
    if (pg->streaming) {
        if (hepmc_attributes(pg, msg, len) != 0) return EXIT_RUN_FAILED;
        const int64_t first = o->resume ? pg->rp.next_event : cfg->first_event;
        gaps_process proc;
        char why[128];
        if (gaps_process_init(&proc, (enum gaps_process_id)cfg->process, cfg->ecm, why,
                              sizeof why) != 0)
            return refuse(msg, len, EXIT_USAGE, "%s", why);
        if (gaps_event_stream_init(&pg->stream, gaps_outfile_stream(&pg->out[OUT_ROWS]),
                                   gaps_outfile_stream(&pg->out[OUT_HEPMC]), &proc,
                                   cfg->max_partons, first, o->resume != NULL, pg->hepmc_attr,
                                   pg->n_hepmc_attr) != 0) {
            pg->streaming = 0;
            return refuse(msg, len, EXIT_RUN_FAILED, "cannot start the event output");
        }
        if (o->resume) {
            pg->stream.n = pg->rp.hepmc_n;
            pg->stream.sum_w = pg->rp.hepmc_sum_w;
            pg->stream.sum_w2 = pg->rp.hepmc_sum_w2;
        }
    }
    /* A checkpointed run's first checkpoint, at its start: the checkpoint is this run's
     * (locked) from the first moment, so a second run given it is refused at once, and a run
     * killed before its first interval resumes like any other. */
    if (root && pg->checkpoint && !resume_is_checkpoint) {
        gaps_state *st = o->resume ? &pg->resume_state : malloc(sizeof *st);
        if (!st) return refuse(msg, len, EXIT_RUN_FAILED, "cannot write the first checkpoint: "
                               "out of memory");
        if (!o->resume) gaps_state_init(st, cfg);
        const gaps_resume_point rp = o->resume ? pg->rp
                                               : gaps_resume_point_make(cfg, cfg->first_event,
                                                                        0, 0);
        const int r = write_checkpoint(pg, st, &rp);
        if (!o->resume) free(st);
        if (r != 0) return refuse(msg, len, EXIT_RUN_FAILED, "%s", pg->checkpoint_error);
        pg->first_checkpoint = 1;
    }
    if (root) gaps_test_hook("PREPARED", -1);
    pg->prog.on = root && !o->quiet && o->progress != 0;
    pg->prog.tty = isatty(STDERR_FILENO);
    if (o->progress == 1) pg->prog.on = root;
    pg->prog.t0 = now();
    pg->prog.last_tenth = 0;
    return 0;
}

/* The run and its outputs; returns the exit status.  Only the root writes and prints. */
static int run_and_write(program *pg)
{
    const int root = gaps_ranks_root();
    gaps_options *o = &pg->opt;
    gaps_config *cfg = &o->cfg;
    char msg[1024];
    gaps_hooks hooks = { pg, pg->streaming ? hook_events : NULL,
                         pg->checkpoint ? hook_checkpoint : NULL, hook_progress, &stop_signal,
                         NULL };
    gaps_run run;
    const int grc = gaps_ranks_generate(cfg, &hooks, o->resume ? &pg->resume_state : NULL,
                                        o->resume ? &pg->rp : NULL, &run, msg, sizeof msg);
    progress_end(&pg->prog);
    if (grc != 0) {
        if (root) {
            /* A per-event output that failed: say which and why, rather than the generator's
             * "the per-event output failed".  Without a write error it was memory. */
            char why[1024];
            if (pg->streaming && pg->stream.error && gaps_outfiles_error(pg->out, N_OUTS, why,
                                                                         sizeof why) != 0)
                fprintf(stderr, "gaps: %s\n", why);
            else if (pg->streaming && pg->stream.error)   /* memory, or an event out of place */
                fprintf(stderr, "gaps: the per-event output failed after event %" PRId64 " (%"
                                PRId64 " later events waiting); the run was stopped\n",
                        pg->stream.next - 1, pg->stream.pending);
            else if (pg->checkpoint_error[0])
                fprintf(stderr, "gaps: %s\n", one_line(pg->checkpoint_error));
            else
                fprintf(stderr, "gaps: %s\n", msg);
        }
        gaps_outfiles_discard(pg->out, N_OUTS);
        return EXIT_RUN_FAILED;
    }
    if (run.interrupted) {
        const int sig = stop_signal;
        gaps_outfiles_discard(pg->out, N_OUTS);   /* FILE.part files stay for the resume */
        if (root) {
            char name[512];
            snprintf(name, sizeof name, "%s", pg->checkpoint);
            one_line(name);
            fprintf(stderr, "gaps: stopped by %s after %" PRId64 " of %" PRId64 " events; "
                            "checkpoint '%s' written: run the same command with --resume %s to "
                            "continue\n", signal_name(sig), run.next_event - cfg->first_event,
                    cfg->events, name, name);
        }
        gaps_run_free(&run);
        return 128 + sig;
    }
    if (!root) {
        gaps_run_free(&run);
        return 0;
    }

    if (root && o->cycles_out && !run.completed_per_cycle) {
        /* the generator could not assemble the log: an empty table would look complete */
        fprintf(stderr, "gaps: cannot allocate the --cycles-out table (%ld veto cycles): out "
                        "of memory\n", run.veto_cycles);
        gaps_outfiles_discard(pg->out, N_OUTS);
        gaps_run_free(&run);
        return EXIT_RUN_FAILED;
    }
    int status = 0, bad = 0, stream_bad = 0;
    if (pg->streaming) bad |= stream_bad = gaps_event_stream_finish(&pg->stream) != 0;
    FILE *f;
    if ((f = gaps_outfile_stream(&pg->out[OUT_YODA])))
        bad |= gaps_yoda_write(f, run.state, run.backend) != 0;
    if ((f = gaps_outfile_stream(&pg->out[OUT_JSON]))) write_json(f, cfg, &run, pg);
    if ((f = gaps_outfile_stream(&pg->out[OUT_CYCLES]))) write_cycle_log(f, &run);
    if ((f = gaps_outfile_stream(&pg->out[OUT_STATE])))
        bad |= gaps_state_write(f, run.state, NULL) != 0;
    if (!bad) gaps_test_hook("COMMIT", -1);
    if (bad) {
        if (gaps_outfiles_error(pg->out, N_OUTS, msg, sizeof msg) != 0)
            fprintf(stderr, "gaps: %s\n", msg);
        else if (stream_bad)
            fprintf(stderr, "gaps: the per-event output is incomplete: it stops after event %"
                            PRId64 ", with %" PRId64 " later events waiting\n",
                    pg->stream.next - 1, pg->stream.pending);
        else
            fprintf(stderr, "gaps: writing the outputs failed: out of memory\n");
        gaps_outfiles_discard(pg->out, N_OUTS);
        status = EXIT_RUN_FAILED;
    } else if (gaps_owned_check(&pg->ck_owner, msg, sizeof msg) != 0) {
        /* another run took the checkpoint: it shares this run's files */
        fprintf(stderr, "gaps: %s\n", msg);
        gaps_outfiles_discard(pg->out, N_OUTS);
        status = EXIT_RUN_FAILED;
    } else if (gaps_outfiles_commit(pg->out, N_OUTS, msg, sizeof msg) != 0) {
        fprintf(stderr, "gaps: %s\n", msg);
        status = EXIT_RUN_FAILED;
    } else {
        /* the run is complete: its checkpoint is of no further use (if it is still ours; a
         * link the user made to it stays) */
        gaps_owned_remove(&pg->ck_owner);
        if (!o->quiet) {
            print_summary(pg->report, cfg, &run, pg);
            if (fflush(pg->report) != 0 || ferror(pg->report)) {
                fprintf(stderr, "gaps: writing the summary failed: %s (the outputs are "
                                "written)\n", strerror(errno));
                status = EXIT_RUN_FAILED;
            }
        }
        if (run.invalid_events > 0) {
            fprintf(stderr, "gaps: %" PRId64 " events failed the built-in checks (momentum, "
                            "masses, colour); the outputs are written, but this is a bug: "
                            "please report it\n", run.invalid_events);
            status = EXIT_BAD_EVENTS;
        } else if (run.bad_weights > 0) {
            fprintf(stderr, "gaps: %" PRId64 " events had a weight the histograms cannot hold "
                            "(not finite, or beyond 2^43 weight units) and were left out of "
                            "the sums; the outputs are written, but they lack those events\n",
                    run.bad_weights);
            status = EXIT_BAD_EVENTS;
        }
    }
    gaps_run_free(&run);
    return status;
}

int main(int argc, char **argv)
{
    occupy_standard_descriptors();
    if (argc > 1 && strcmp(argv[1], "merge") == 0) return run_merge(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "pdf") == 0) return gaps_pdf_command(argc - 1, argv + 1);

    int status = gaps_ranks_init(&argc, &argv);
    if (status != 0) return status;
    static program pg;
    char msg[1024] = "";
    status = prepare_run(&pg, argc, argv, msg, sizeof msg);
    /* every rank goes on, or none: the root reports the first that cannot */
    status = gaps_ranks_agree(status, msg, sizeof msg);
    if (status == 0) {
        gaps_ranks_share(&pg.rp, sizeof pg.rp);   /* the root read where a resumed run goes on */
        status = run_and_write(&pg);
    } else {
        if (status > 0 && gaps_ranks_root()) fprintf(stderr, "gaps: %s\n", msg);
        gaps_outfiles_abandon(pg.out, N_OUTS);   /* nothing written: no FILE.part kept */
        if (pg.first_checkpoint) gaps_owned_remove(&pg.ck_owner);   /* nor its checkpoint */
        if (status < 0) status = finish_stdout();   /* --help or --version */
    }
    gaps_owned_release(&pg.ck_owner);
    gaps_owned_release(&pg.resume_owner);
    if (pg.streaming) gaps_event_stream_free(&pg.stream);
    gaps_options_free(&pg.opt);
    return gaps_ranks_exit(status);
}
