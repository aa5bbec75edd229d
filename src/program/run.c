/* run.c -- a run of the program `gaps` (commands.h): the options checked, the checkpoint to
 * resume from read, every output opened before the first event, the generator run with the
 * program's hooks (per-event output, checkpoints, progress), then the outputs committed
 * together and the summary printed.  Signals: a checkpointed run stops cleanly.  A run shared
 * by MPI ranks goes through the same steps on every rank (ranks.h). */
#define _POSIX_C_SOURCE 200809L
#include "gaps/event_pool.h"
#include "gaps/generator.h"
#include "gaps/state.h"
#include "gaps/yoda.h"
#include "gaps_runtime.h"
#include "io/event_stream.h"
#include "program/clock.h"
#include "program/lhe_out.h"
#include "program/commands.h"
#include "program/lhe_feed.h"
#include "program/one_line.h"
#include "program/options.h"
#include "program/outfile.h"
#include "program/progress.h"
#include "program/ranks.h"
#include "program/report.h"
#include "program/testhook.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

static const char *signal_name(int sig)
{
    return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : sig == SIGHUP ? "SIGHUP"
                                                                                 : "a signal";
}

/* ---- the run's outputs and its hooks into the generator ---- */
/* OUT_CHECKPOINT only takes part in the checks before the run (the checkpoint must be a
 * writable file distinct from every output); it is written by write_checkpoint. */
enum { OUT_YODA, OUT_JSON, OUT_ROWS, OUT_HEPMC, OUT_CYCLES, OUT_STATE, OUT_LHE, OUT_CHECKPOINT,
       N_OUTS };

/* One run of the program: what prepare_run sets up, the hooks use while the generator runs,
 * and run_and_write finishes. */
typedef struct program {
    gaps_options opt;
    gaps_outfile out[N_OUTS];
    gaps_event_stream stream;
    int streaming;
    const char *checkpoint;       /* path, or NULL */
    gaps_state resume_state;      /* --resume: what the run continues from (the root's) */
    gaps_resume_point rp;
    FILE *report;                 /* where the summary goes */
    gaps_progress prog;
    char hepmc_attr_text[2 + GAPS_N_PARAMS][GAPS_PDF_SPEC_MAX + 32];
    const char *hepmc_attr[2 * (2 + GAPS_N_PARAMS)];
    int n_hepmc_attr;
    char checkpoint_error[512];   /* why the last checkpoint failed, for the one error line */
    gaps_owned ck_owner;          /* the checkpoint, this run's alone (outfile.h) */
    gaps_owned resume_owner;      /* --resume FILE when it is not the checkpoint written */
    int first_checkpoint;         /* prepare_run wrote the run's first checkpoint */
    uint64_t pdf_digest;          /* the PDF set this process loads (0: none), and its file */
    char pdf_file[GAPS_PDF_FILE_MAX];
    double t_program;             /* gaps_now() at the start of the program: start-up and wall */
    gaps_lhe_feed *lhe;           /* --lhe: the file the hard events come from, or NULL */
    gaps_variation vary[GAPS_VARY_MAX];   /* --vary: the weights the event output names */
    const char *weight_names[GAPS_HEPMC_MAX_WEIGHTS + GAPS_VARY_MAX];   /* the file's, then
                                                                          --vary's */
} program;

/* The named weights of each event after its nominal one, for the HepMC3 events and the CSV:
 * a file's own (--lhe), then the --vary weights, named as in the YODA file (their number is
 * checked against GAPS_HEPMC_MAX_WEIGHTS once the file is open, "check_weights"). */
static void event_weights(program *pg, const gaps_config *cfg, gaps_event_stream_weights *w)
{
    const gaps_event_stream_weights *file_w = pg->lhe ? gaps_lhe_feed_weights(pg->lhe) : NULL;
    const gaps_event_stream_weights none = { 0, NULL, NULL, NULL, 0 };
    *w = file_w ? *file_w : none;
    w->n_vary = gaps_config_vary_list(cfg, pg->vary);
    for (int k = 0; k < w->n; ++k) pg->weight_names[k] = w->names[k];
    for (int v = 0; v < w->n_vary; ++v) pg->weight_names[w->n + v] = pg->vary[v].name;
    w->names = pg->weight_names;
    w->n += w->n_vary;
}

/* hooks.hard_events of a run with --lhe */
static int hook_hard_events(void *ctx, gaps_hard_batch *batch, int64_t first, int64_t want,
                            int *ended)
{
    program *pg = ctx;
    return gaps_lhe_feed_fill(pg->lhe, batch, first, want, ended);
}

/* hooks.hard_events_error of a run with --lhe: the file's line, or the system's failure */
static const char *hook_hard_events_error(void *ctx, int *status)
{
    program *pg = ctx;
    return gaps_lhe_feed_error(pg->lhe, status);
}

/* hooks.hard_events_ahead of a run with --lhe: the next batch read while this one showers */
static int hook_hard_events_ahead(void *ctx, gaps_hard_batch *batch, int64_t first,
                                  int64_t want)
{
    program *pg = ctx;
    return gaps_lhe_feed_fill_ahead(pg->lhe, batch, first, want);
}

/* Write the checkpoint file: the state, where the run continues, and how far each streamed
 * output got.  The streamed files are flushed and synced first, so the offsets it records
 * are on disk before the file that names them.  The file itself is replaced atomically.  On
 * failure the reason is left in pg->checkpoint_error, which run_and_write prints as the
 * run's one error line (the generator itself only knows that the hook failed). */
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
        rp.hepmc_n_weights = s->hepmc ? (uint32_t)s->n_weights : 0;
        for (uint32_t k = 0; k < 2 * rp.hepmc_n_weights; ++k) rp.hepmc_sum_wk[k] = s->sum_wk[k];
        rp.hepmc_sum_w = s->sum_w;
        rp.hepmc_sum_w2 = s->sum_w2;
    }
    /* --lhe: which events of the file the run has had, for the resume to compare */
    if (pg->lhe && gaps_lhe_feed_digest(pg->lhe, rp.next_event, &rp.file_digest) != 0) {
        snprintf(why, wlen, "writing the checkpoint failed: the events read from the file do "
                            "not end at the checkpoint's event %lld (a bug: please report it)",
                 (long long)rp.next_event);
        return -1;
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
    gaps_progress_update(&pg->prog, done, total);
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

/* ---- before the run ---- */

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
    st->pdf_digest = pg->pdf_digest;
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
        if ((p->flags & GAPS_PF_OMIT_PROCESS_DEFAULT) && gaps_param_is_process_default(p, st))
            continue;
        gaps_param_format(p, v, GAPS_STYLE_EXACT, pg->hepmc_attr_text[n],
                          sizeof pg->hepmc_attr_text[n]);
        pg->hepmc_attr[2 * n] = p->hepmc;
        pg->hepmc_attr[2 * n + 1] = pg->hepmc_attr_text[n];
        ++n;
    }
    /* which grid the PDF set's name stood for (none without hadron beams: LEP files keep
     * their bytes) */
    if (st->pdf_digest) {
        snprintf(pg->hepmc_attr_text[n], sizeof pg->hepmc_attr_text[n], "%016" PRIx64,
                 st->pdf_digest);
        pg->hepmc_attr[2 * n] = "pdf_digest";
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

/* The checkpoint's state against this run's (mine): the version, the physics, the unit. */
static int check_resume_state(const gaps_state *mine, const gaps_state *st, const char *path,
                              char *msg, size_t len)
{
    if (strncmp(mine->version, st->version, sizeof mine->version) != 0)
        return snprintf(msg, len, "checkpoint '%s' was written by gaps %.31s, this is %s", path,
                        st->version, GAPS_VERSION), -1;
    const int differs = gaps_state_params_differ(mine, st);
    char theirs[160], ours[160];
    const char *option = NULL;
    if (differs >= 0) {
        const gaps_param *p = &gaps_params[differs];
        gaps_param_format(p, gaps_param_in_state(p, st), GAPS_STYLE_EXACT, theirs,
                          sizeof theirs);
        gaps_param_format(p, gaps_param_in_state(p, mine), GAPS_STYLE_EXACT, ours,
                          sizeof ours);
        option = p->option;
    } else {
        /* --vary and --shower-mur-factor, physics outside the list */
        option = gaps_state_vary_differ(st, mine, theirs, ours, sizeof theirs);
    }
    if (option)
        return snprintf(msg, len, "checkpoint '%s' belongs to a run with other physics "
                        "parameters (--%s %s, not %s): give the same options as the run that "
                        "wrote it", path, option, theirs, ours), -1;
    if (memcmp(&mine->w_unit, &st->w_unit, sizeof st->w_unit))
        return snprintf(msg, len, "checkpoint '%s' is corrupt (weight unit %.17g pb, the "
                        "process's is %.17g pb)", path, st->w_unit, mine->w_unit), -1;
    return 0;
}

/* A checkpoint can only continue the run it was written by. */
static int check_resume(const gaps_config *cfg, const gaps_state *st,
                        const gaps_resume_point *rp, const char *path, char *msg, size_t len)
{
    /* (on the heap: a state holds megabytes, with room for the variations' sums) */
    gaps_state *mine = malloc(sizeof *mine);
    if (!mine) return snprintf(msg, len, "out of memory"), -1;
    gaps_state_init(mine, cfg);
    const int rc = check_resume_state(mine, st, path, msg, len);
    free(mine);
    if (rc != 0) return -1;
    if (rp->first_event != cfg->first_event || rp->events != cfg->events)
        return snprintf(msg, len, "checkpoint '%s' belongs to a run of %" PRId64 " events from "
                        "event %" PRId64 ", not %" PRId64 " from %" PRId64, path, rp->events,
                        rp->first_event, cfg->events, cfg->first_event), -1;
    if (rp->next_event < cfg->first_event || rp->next_event > cfg->first_event + cfg->events)
        return snprintf(msg, len, "checkpoint '%s' is corrupt (next event outside the run)",
                        path), -1;
    return 0;
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

    /* --lhe: the file's init block completes the configuration (process, sqrt(s), weight
     * unit, event numbers) before anything is checked */
    if (o->lhe) {
        /* MPI ranks share a file by each reading all of it: standard input (which the
         * launcher gives rank 0 alone) or a FIFO (read once) cannot be shared */
        struct stat sb;
        if (gaps_ranks_count() > 1
            && (strcmp(o->lhe, "-") == 0 || (stat(o->lhe, &sb) == 0 && !S_ISREG(sb.st_mode))))
            return refuse(msg, len, EXIT_USAGE, "--lhe %s: MPI ranks each read the whole file, "
                          "so it must be a regular file, not standard input or a FIFO",
                          o->lhe);
        int lhe_threads = o->lhe_threads;
        if (lhe_threads < 0) {   /* one CPU for the run's thread and the input's */
            const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
            lhe_threads = cpus > 17 ? 16 : cpus > 2 ? (int)cpus - 1 : 1;
        }
        const gaps_lhe_feed_options fo = {
            o->param_given, o->events_given, cfg->first_event, lhe_threads,
            o->lhe_piece > 0 ? (size_t)o->lhe_piece : GAPS_LHE_PIECE_DEFAULT,
            o->lhe_strict_pdf };
        int st = 0;
        pg->lhe = gaps_lhe_feed_open(o->lhe, &fo, cfg, &st, msg, len);
        if (!pg->lhe) return st == 1 ? EXIT_RUN_FAILED : EXIT_USAGE;
        /* check_weights: the file's named weights and --vary's in one HepMC3 event */
        gaps_event_stream_weights w;
        event_weights(pg, cfg, &w);
        if (w.n_vary > 0 && w.n > GAPS_HEPMC_MAX_WEIGHTS && (o->hepmc || o->observables_out))
            return refuse(msg, len, EXIT_USAGE, "%s: its %d named weights and the %d of --vary "
                          "are more than the %d an event's output carries here", o->lhe,
                          w.n - w.n_vary, w.n_vary, GAPS_HEPMC_MAX_WEIGHTS);
        /* MPI ranks share the file: each reads all of it and showers its pieces.  The
         * named weights of the events that other ranks send to the root are not sent with
         * them (the root's feed holds those of its own batches only) */
        if (gaps_ranks_count() > 1 && w.n > w.n_vary && (o->hepmc || o->observables_out))
            return refuse(msg, len, EXIT_USAGE, "%s: its events' %d named weights go into "
                          "--hepmc and --observables-out in a single process only, not with %d "
                          "MPI ranks", o->lhe, w.n - w.n_vary, gaps_ranks_count());
    }
    if (gaps_config_check(cfg, msg, len) != 0) return EXIT_USAGE;
    /* The PDF set of a process with hadron beams must load before anything is written: a
     * missing, truncated or corrupt set is the user's input, refused with exit status 2. */
    if (gaps_config_pdf_identity(cfg, &pg->pdf_digest, pg->pdf_file, sizeof pg->pdf_file, msg,
                                 len) != 0)
        return EXIT_USAGE;
    /* --vary pdf: a set with members, named by its central member (each member is loaded
     * and checked by the run) */
    if ((cfg->vary & GAPS_VARY_PDF) && gaps_config_check_pdf(cfg, msg, len) != 0)
        return EXIT_USAGE;
    if (o->cycles_out && gaps_ranks_count() > 1)
        return refuse(msg, len, EXIT_USAGE, "--cycles-out needs a single process (the cycle "
                      "log describes one pool), not %d MPI ranks", gaps_ranks_count());
    /* --lhe-out is written by the root after the run, whole, from the run's event numbers
     * (lhe_out.h), so a checkpointed or resumed run writes it like any other; a run shared by
     * MPI ranks is not yet taught to: refused rather than written wrongly */
    if (o->lhe_out && gaps_ranks_count() > 1)
        return refuse(msg, len, EXIT_USAGE, "--lhe-out needs a single process, not %d MPI "
                      "ranks", gaps_ranks_count());
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
        const int r = root ? gaps_read_state(o->resume, &pg->resume_state, &pg->rp, why, sizeof why)
                           : 0;
        if (r != 0) return refuse(msg, len, r, "--resume: %s", gaps_one_line(why));
        if (root && check_resume(cfg, &pg->resume_state, &pg->rp, o->resume, why, sizeof why) != 0)
            return refuse(msg, len, EXIT_USAGE, "--resume: %s", gaps_one_line(why));
        /* the same name may stand for another grid (another LHAPDF_DATA_PATH, an edited
         * file): the sums would mix two sets */
        if (root && pg->resume_state.pdf_digest != pg->pdf_digest) {
            snprintf(why, sizeof why, "--resume: checkpoint '%.100s' was made with PDF set %.80s "
                     "of digest %016" PRIx64 ", but this run's %.200s has digest %016" PRIx64 ": "
                     "another grid of the same name (resume with the set of the run that "
                     "wrote it)", o->resume, pg->resume_state.pdf, pg->resume_state.pdf_digest,
                     pg->pdf_file, pg->pdf_digest);
            return refuse(msg, len, EXIT_USAGE, "%s", gaps_one_line(why));
        }
        if (o->cycles_out)
            return refuse(msg, len, EXIT_USAGE, "--cycles-out cannot be combined with --resume "
                          "(the cycle log of the first part of the run is gone)");
        /* --lhe: the file read again up to the checkpoint's next event, which must be the
         * events the checkpointed run read (a file changed or replaced is refused) */
        if (root && pg->lhe) {
            int st = 0;
            if (gaps_lhe_feed_resume(pg->lhe, pg->rp.next_event, pg->rp.file_digest, &st, why,
                                     sizeof why) != 0)
                return refuse(msg, len, st == 1 ? EXIT_RUN_FAILED : EXIT_USAGE, "--resume: %s",
                              gaps_one_line(why));
        }
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
    gaps_outfile_init(&pg->out[OUT_LHE], "--lhe-out", o->lhe_out, GAPS_OUTFILE_ATOMIC);
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
            gaps_event_stream_weights weights;
            event_weights(pg, cfg, &weights);
            const int bad = gaps_event_stream_check_resume(part, which[k] == OUT_HEPMC,
                                                           cfg->analysis,
                                                           offsets[k], cfg->first_event,
                                                           pg->rp.next_event, pg->hepmc_attr,
                                                           pg->n_hepmc_attr, &weights, why,
                                                           sizeof why);
            free(part);
            if (bad)
                return refuse(msg, len, EXIT_USAGE, "--resume: %s cannot be continued: %s",
                              of->label, gaps_one_line(why));
            if (gaps_outfile_resume(of, offsets[k], why, sizeof why) != 0)
                return refuse(msg, len, EXIT_USAGE, "--resume: %s cannot be continued: %s",
                              of->label, why);
        }
    }
    gaps_outfile_init(&pg->out[OUT_CHECKPOINT], "--checkpoint", pg->checkpoint,
                      GAPS_OUTFILE_ATOMIC);
    if (pg->checkpoint && strcmp(pg->checkpoint, "-") == 0)
        return refuse(msg, len, EXIT_USAGE, "--checkpoint must be a file, not standard output");
    if (gaps_clobbers_input(pg->out, N_OUTS, o->card, "the run card", msg, len) != 0)
        return EXIT_USAGE;
    if (o->lhe && strcmp(o->lhe, "-") != 0
        && gaps_clobbers_input(pg->out, N_OUTS, o->lhe, "the --lhe file", msg, len) != 0)
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
        /* the run's process as the run itself sets it up (the writers need its analysis,
         * beams and bosons, not its PDFs) */
        gaps_physics *phys = malloc(sizeof *phys);
        char why[256];
        if (!phys) return refuse(msg, len, EXIT_RUN_FAILED, "out of memory");
        if (gaps_physics_setup(phys, cfg, NULL, why, sizeof why) != 0) {
            free(phys);
            return refuse(msg, len, EXIT_USAGE, "%s", why);
        }
        gaps_event_stream_weights weights;
        event_weights(pg, cfg, &weights);
        const gaps_process phys_proc = phys->proc;
        free(phys);
        const int bad = gaps_event_stream_init(&pg->stream,
                                               gaps_outfile_stream(&pg->out[OUT_ROWS]),
                                               gaps_outfile_stream(&pg->out[OUT_HEPMC]),
                                               &phys_proc, cfg->max_partons, first,
                                               o->resume != NULL, pg->hepmc_attr,
                                               pg->n_hepmc_attr, weights.n ? &weights : NULL);
        if (bad) {
            pg->streaming = 0;
            return refuse(msg, len, EXIT_RUN_FAILED, "cannot start the event output");
        }
        if (o->resume) {
            pg->stream.n = pg->rp.hepmc_n;
            pg->stream.sum_w = pg->rp.hepmc_sum_w;
            pg->stream.sum_w2 = pg->rp.hepmc_sum_w2;
            /* the named weights' sums, where the checkpoint's stream had the same weights */
            if (pg->stream.hepmc && pg->rp.hepmc_n_weights != (uint32_t)pg->stream.n_weights)
                return refuse(msg, len, EXIT_USAGE, "--resume: the checkpoint's HepMC3 events "
                              "carry %u named weights, this run's %d",
                              pg->rp.hepmc_n_weights, pg->stream.n_weights);
            for (int k = 0; pg->stream.hepmc && k < 2 * pg->stream.n_weights; ++k)
                pg->stream.sum_wk[k] = pg->rp.hepmc_sum_wk[k];
        }
    }
    /* A checkpointed run's first checkpoint, at its start: the checkpoint is this run's
     * (locked) from the first moment, so a second run given it is refused at once, and a run
     * killed before its first interval resumes like any other. */
    if (root && pg->checkpoint && !resume_is_checkpoint) {
        gaps_state *st = o->resume ? &pg->resume_state : malloc(sizeof *st);
        if (!st) return refuse(msg, len, EXIT_RUN_FAILED, "cannot write the first checkpoint: "
                               "out of memory");
        if (!o->resume) {
            gaps_state_init(st, cfg);
            st->pdf_digest = pg->pdf_digest;
        }
        const gaps_resume_point rp = o->resume ? pg->rp
                                               : gaps_resume_point_make(cfg, cfg->first_event,
                                                                        0, 0);
        const int r = write_checkpoint(pg, st, &rp);
        if (!o->resume) free(st);
        if (r != 0) return refuse(msg, len, EXIT_RUN_FAILED, "%s", pg->checkpoint_error);
        pg->first_checkpoint = 1;
    }
    if (root) gaps_test_hook("PREPARED", -1);
    int show_progress = root && !o->quiet && o->progress != 0;
    if (o->progress == 1) show_progress = root;
    gaps_progress_start(&pg->prog, show_progress);
    return 0;
}

/* ---- the run ---- */

/* Events generated by this process: a resumed run started at its checkpoint, not at
 * first_event (its time is this process's too). */
static int64_t generated_here(const gaps_config *cfg, const gaps_run *run, const program *pg)
{
    const int64_t start = pg->opt.resume ? pg->rp.next_event : cfg->first_event;
    return run->next_event - start;
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
                         NULL, pg->lhe ? hook_hard_events : NULL,
                         pg->lhe ? hook_hard_events_ahead : NULL,
                         pg->lhe ? hook_hard_events_error : NULL };
    gaps_run run;
    const double t_call = gaps_now();
    const int grc = gaps_ranks_generate(cfg, &hooks, o->resume ? &pg->resume_state : NULL,
                                        o->resume ? &pg->rp : NULL, &run, msg, sizeof msg);
    /* the start-up counts from the program's start: options, input files, outputs opened */
    run.time_startup += t_call - pg->t_program;
    gaps_progress_end(&pg->prog);
    if (grc == 0 && pg->lhe && o->events_given
        && run.next_event < cfg->first_event + cfg->events) {
        snprintf(msg, sizeof msg, "%s holds %lld events from event %lld on, fewer than --events "
                 "%lld: no output written", o->lhe, (long long)(run.next_event - cfg->first_event),
                 (long long)cfg->first_event, (long long)cfg->events);
        if (root) fprintf(stderr, "gaps: %s\n", gaps_one_line(msg));
        gaps_outfiles_abandon(pg->out, N_OUTS);
        gaps_run_free(&run);
        return EXIT_USAGE;
    }
    /* the run's events are the file's: what the reports count */
    if (grc == 0 && pg->lhe) cfg->events = run.next_event - cfg->first_event;
    if (grc != 0 && run.file_failed) {
        /* the file failed (a malformed or unshowerable event, a read error): its line (on
         * the rank that met it), its status; nothing is written */
        if (root) fprintf(stderr, "gaps: %s\n", gaps_one_line(msg));
        gaps_outfiles_abandon(pg->out, N_OUTS);
        return run.file_failed == 2 ? EXIT_USAGE : EXIT_RUN_FAILED;
    }
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
                fprintf(stderr, "gaps: %s\n", gaps_one_line(pg->checkpoint_error));
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
            gaps_one_line(name);
            char of[64] = " of the file";   /* --lhe without --events: the file's length */
            if (!pg->lhe || o->events_given)
                snprintf(of, sizeof of, " of %" PRId64, cfg->events);
            fprintf(stderr, "gaps: stopped by %s after %" PRId64 " events%s; checkpoint '%s' "
                            "written: run the same command with --resume %s to continue\n",
                    signal_name(sig), run.next_event - cfg->first_event, of, name, name);
        }
        gaps_run_free(&run);
        return 128 + sig;
    }
    if (!root) {
        gaps_run_free(&run);
        return 0;
    }
    /* A leading-order weight is a product of densities and a positive matrix element: a
     * negative one means the PDF set has negative densities where the run samples it
     * (ForcePositive 0 leaves them, as LHAPDF does).  Its cross section would be wrong, not
     * merely noisy: refused, as bad input, with nothing written (a resume could not do
     * better, so the checkpoint goes too).  The events of a --lhe file carry the weights its
     * generator gave them (an NLO generator's, --lhe-out of an NLO run: either sign). */
    if (!cfg->nlo && !o->lhe && run.negative_weights > 0) {
        fprintf(stderr, "gaps: %" PRId64 " of %" PRId64 " events of this leading-order run have "
                        "a negative weight: the PDF set %s has negative densities where the "
                        "run samples them (use a set with ForcePositive 1 or 2); no output "
                        "written\n", run.negative_weights, run.events, pg->pdf_file);
        gaps_outfiles_abandon(pg->out, N_OUTS);
        gaps_owned_remove(&pg->ck_owner);
        gaps_run_free(&run);
        return EXIT_USAGE;
    }

    if (root && o->cycles_out && !run.completed_per_cycle) {
        /* the generator could not assemble the log: an empty table would look complete */
        fprintf(stderr, "gaps: cannot allocate the --cycles-out table (%ld veto cycles): out "
                        "of memory\n", run.veto_cycles);
        gaps_outfiles_discard(pg->out, N_OUTS);
        gaps_run_free(&run);
        return EXIT_RUN_FAILED;
    }
    /* --lhe: how the file was read, its PDF set (the summary and the JSON) */
    gaps_report_file file_info, *file_report = NULL;
    if (pg->lhe) {
        gaps_lhe_feed_reading(pg->lhe, &file_info.threads, &file_info.pieces,
                              &file_info.serial_from);
        file_info.pdf_warning = gaps_lhe_feed_warning(pg->lhe);
        file_report = &file_info;
    }
    int status = 0, bad = 0, stream_bad = 0;
    if (pg->streaming) bad |= stream_bad = gaps_event_stream_finish(&pg->stream) != 0;
    /* --lhe-out: the hard events again, on the host (lhe_out.h); part of the wall time */
    FILE *f;
    int lhe_bad = 0;
    char lhe_msg[1024] = "";
    if ((f = gaps_outfile_stream(&pg->out[OUT_LHE])))
        bad |= lhe_bad = gaps_lhe_out_write(f, cfg, &run, lhe_msg, sizeof lhe_msg) != 0;
    /* wall time: from the program's start to its outputs (the JSON and the summary say the
     * same) */
    run.time_wall = gaps_now() - pg->t_program;
    if ((f = gaps_outfile_stream(&pg->out[OUT_YODA])))
        bad |= gaps_yoda_write_varied(f, run.state, run.backend, run.n_vary, run.vary,
                                      run.vary_hist) != 0;
    if ((f = gaps_outfile_stream(&pg->out[OUT_JSON])))
        gaps_report_json(f, cfg, &run, generated_here(cfg, &run, pg), file_report);
    if ((f = gaps_outfile_stream(&pg->out[OUT_CYCLES]))) gaps_report_cycle_log(f, &run);
    if ((f = gaps_outfile_stream(&pg->out[OUT_STATE])))
        bad |= gaps_state_write(f, run.state, NULL) != 0;
    if (!bad) gaps_test_hook("COMMIT", -1);
    if (bad) {
        if (gaps_outfiles_error(pg->out, N_OUTS, msg, sizeof msg) != 0)
            fprintf(stderr, "gaps: %s\n", msg);
        else if (lhe_bad)
            fprintf(stderr, "gaps: %s\n", lhe_msg);
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
            gaps_report_summary(pg->report, cfg, &run, generated_here(cfg, &run, pg),
                                file_report);
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
        } else if (run.lost_precision) {
            fprintf(stderr, "gaps: the cross section lost its precision: the rounding of the "
                            "exact sums (2^-40 of the weight unit %.17g pb; %" PRId64 " imprecise "
                            "weights) may exceed 1e-9 of sigma or 1e-6 of sum w^2; the outputs "
                            "are written, but their numbers cannot be trusted\n",
                    run.state->w_unit, run.imprecise_weights);
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

int gaps_run_command(int argc, char **argv)
{
    const double t_program = gaps_now();
    int status = gaps_ranks_init(&argc, &argv);
    if (status != 0) return status;
    static program pg;   /* static: it holds a whole state (megabytes), too much for a stack */
    pg.t_program = t_program;
    char msg[1024] = "";
    status = prepare_run(&pg, argc, argv, msg, sizeof msg);
    /* every rank goes on, or none: the root reports the first that cannot */
    status = gaps_ranks_agree(status, msg, sizeof msg);
    /* every rank found the same PDF grid (a name may stand for others on another rank) */
    if (status == 0) status = gaps_ranks_same_pdf(pg.pdf_digest, pg.pdf_file, msg, sizeof msg);
    if (status == 0) {
        gaps_ranks_share(&pg.rp, sizeof pg.rp);   /* the root read where a resumed run goes on */
        status = run_and_write(&pg);
    } else {
        if (status > 0 && gaps_ranks_root()) fprintf(stderr, "gaps: %s\n", msg);
        gaps_outfiles_abandon(pg.out, N_OUTS);   /* nothing written: no FILE.part kept */
        if (pg.first_checkpoint) gaps_owned_remove(&pg.ck_owner);   /* nor its checkpoint */
        if (status < 0) status = gaps_finish_stdout();   /* --help or --version */
    }
    gaps_owned_release(&pg.ck_owner);
    gaps_owned_release(&pg.resume_owner);
    if (pg.streaming) gaps_event_stream_free(&pg.stream);
    gaps_lhe_feed_close(pg.lhe);
    gaps_options_free(&pg.opt);
    return gaps_ranks_exit(status);
}
