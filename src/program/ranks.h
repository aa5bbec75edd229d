/* ranks.h -- the processes of one run: a single one, or one per MPI rank (-DGAPS_MPI=ON).
 *
 * run.c runs the same steps in every build; these functions are where a shared run differs.
 * Without MPI they are the trivial ones below.  With MPI (src/program/ranks_mpi.c) every rank runs
 * the program with the same options: rank 0 (the root) reads the checkpoint, writes every
 * output and prints; every rank generates a share of the events; errors are agreed on, so
 * that all ranks stop together and the root reports the one that failed.
 */
#ifndef GAPS_RANKS_H
#define GAPS_RANKS_H

#include <stddef.h>
#include <stdint.h>
#include "gaps/generator.h"

/* What one rank did, for the summary and the JSON file of a shared run. */
typedef struct gaps_rank_report {
    char host[64];
    char device[192];
    int threads, slots;
    char threads_why[128];   /* where its number of threads came from (MPI: its share) */
    int64_t events;          /* events this rank generated */
    int64_t pieces;          /* pieces of work it took from the shared counter */
    int64_t takes;           /* MPI_Fetch_and_op calls that asked for one (the last finds none) */
    double busy_s;           /* wall time inside the generator */
    double me_s, shower_s, analysis_s;   /* its stage times (gaps_run) */
    double read_s;           /* waiting for a --lhe file's events (gaps_run.time_read) */
    double take_s;           /* wall time taking pieces (MPI_Fetch_and_op), all threads */
    double send_s;           /* wall time handing finished events to rank 0 (batches) */
    int64_t batches;         /* batches of events sent (ranks > 0) or received (rank 0) */
} gaps_rank_report;

/* How the shared run went as a whole (root). */
typedef struct gaps_ranks_summary {
    int ranks;                   /* 0: not a shared run (the build has no MPI) */
    const gaps_rank_report *rank;   /* [ranks] */
    int64_t piece_events;        /* events per piece in the last segment */
    int segments;                /* segments: checkpoint intervals run */
    double meet_s;               /* wall time of the agreements at the segments' ends */
    double reduce_s;             /* wall time of the exact sums of the states */
    double drain_s;              /* root: receiving the last events of each segment */
} gaps_ranks_summary;

#if defined(GAPS_MPI)

/* Start: MPI, the GPU this rank uses, quiet standard output on the ranks other than the
 * root.  0, or an exit status after printing why. */
int gaps_ranks_init(int *argc, char ***argv);
/* 1 on the process that writes the outputs and prints. */
int gaps_ranks_root(void);
/* Processes sharing the run. */
int gaps_ranks_count(void);
/* Collective, right after the options are read, before anything is opened: is this one job?
 * status is gaps_options_parse's (0 run, 1 --help/--version printed, 2 bad input, 3 the
 * system failed), fp the options' fingerprint (options.h; read only when status is 0).
 * Returns the same on every rank: the status of the lowest rank that could not read its
 * options, else 2 when the ranks disagree (--help or --version on some ranks only, or an
 * option with another value than on rank 0), else the common status (0 or 1).  On 2 or 3 the
 * root's msg holds one line naming the rank and the option. */
int gaps_ranks_same_job(int status, const uint64_t *fp, int n, char *msg, size_t len);
/* Collective.  Every rank gives its status (0: fine, -1: nothing to do, > 0: an exit status
 * with the reason in msg); every rank gets the status of the lowest rank whose status is not
 * 0, and the root its reason in msg. */
int gaps_ranks_agree(int status, char *msg, size_t len);
/* Collective, once every rank has loaded its PDF set: do all ranks hold the same grid?  A set
 * is found along each rank's own LHAPDF_DATA_PATH, so one name may stand for other values on
 * another rank, whose events would then belong to another run.  digest and file are this
 * rank's (gaps_config_pdf_identity; 0 and "" without hadron beams).  Returns 0 on every rank,
 * or 2 on every rank with one line on the root naming rank 0's file and the first differing
 * rank's. */
int gaps_ranks_same_pdf(uint64_t digest, const char *file, char *msg, size_t len);
/* Collective: the root's n bytes at p to every rank. */
void gaps_ranks_share(void *p, size_t n);
/* Collective: gaps_generate_with for the whole job.  On the root, hooks->events receives the
 * events of every rank, hooks->checkpoint the state of all ranks together at each checkpoint
 * (a global cut) and run holds the total; resume_state is read on the root only, resume on
 * every rank (share it first).  Every rank returns the same value and run->interrupted; on a
 * stop every rank's *hooks->stop holds the signal that stopped the run. */
int gaps_ranks_generate(const gaps_config *cfg, const gaps_hooks *hooks,
                        const gaps_state *resume_state, const gaps_resume_point *resume,
                        gaps_run *run, char *msg, size_t len);
/* The shared run's description (root, after gaps_ranks_generate). */
gaps_ranks_summary gaps_ranks_summary_get(void);
/* Collective: end; every rank returns the root's status. */
int gaps_ranks_exit(int status);

#else   /* one process: nothing to share */

static inline int gaps_ranks_init(int *argc, char ***argv) { (void)argc; (void)argv; return 0; }
static inline int gaps_ranks_root(void) { return 1; }
static inline int gaps_ranks_count(void) { return 1; }
static inline int gaps_ranks_same_job(int status, const uint64_t *fp, int n, char *msg,
                                      size_t len)
{
    (void)fp;
    (void)n;
    (void)msg;
    (void)len;
    return status;
}
static inline int gaps_ranks_agree(int status, char *msg, size_t len)
{
    (void)msg;
    (void)len;
    return status;
}
static inline void gaps_ranks_share(void *p, size_t n) { (void)p; (void)n; }
static inline int gaps_ranks_same_pdf(uint64_t digest, const char *file, char *msg, size_t len)
{
    (void)digest; (void)file; (void)msg; (void)len;
    return 0;
}
static inline int gaps_ranks_generate(const gaps_config *cfg, const gaps_hooks *hooks,
                                      const gaps_state *resume_state,
                                      const gaps_resume_point *resume, gaps_run *run, char *msg,
                                      size_t len)
{
    return gaps_generate_with(cfg, hooks, resume_state, resume, run, msg, len);
}
static inline gaps_ranks_summary gaps_ranks_summary_get(void)
{
    gaps_ranks_summary s = { 0, NULL, 0, 0, 0.0, 0.0, 0.0 };
    return s;
}
static inline int gaps_ranks_exit(int status) { return status; }

#endif

#endif
