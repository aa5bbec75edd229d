/* merge.c -- `gaps merge [options] STATE...`: the states of runs over different event ranges
 * added into one, exactly (gaps_state_merge), and written as a run over all of them would
 * be: YODA histograms, the JSON physics part, a state.  Options: options.h. */
#define _POSIX_C_SOURCE 200809L
#include "gaps/event_pool.h"
#include "gaps/generator.h"
#include "gaps/parameters.h"
#include "gaps/process.h"
#include "gaps/state.h"
#include "gaps/yoda.h"
#include "program/commands.h"
#include "program/one_line.h"
#include "program/options.h"
#include "program/outfile.h"
#include "program/report.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* The weight unit is the run's (gaps_state_init): the process's nominal unit, for a hadronic
 * process halved to the weights its PDF set gives (gaps_weight_unit_for), which a merge
 * cannot recompute without the set; a state whose unit no run of its process can have
 * would be read in the wrong unit.  0, or -1 with a reason. */
static int check_weight_unit(const gaps_state *st, const char *path, char *msg, size_t len)
{
    /* the state's configuration: its recorded parameters over the defaults */
    gaps_config cfg;
    gaps_config_defaults(&cfg);
    for (int id = 0; id < GAPS_N_PARAMS; ++id) {
        const gaps_param *p = &gaps_params[id];
        if (p->in_state)
            memcpy((char *)&cfg + p->cfg_offset, gaps_param_in_state(p, st), p->size);
    }
    gaps_physics *phys = malloc(sizeof *phys);
    if (!phys) return snprintf(msg, len, "out of memory"), -1;
    int rc = gaps_physics_setup(phys, &cfg, NULL, msg, len);
    if (rc == 0 && !gaps_process_weight_unit_allowed(&phys->proc, st->w_unit)) {
        snprintf(msg, len, "'%s' is corrupt (weight unit %.17g pb, not the process's %.17g pb%s)",
                 path, st->w_unit, phys->proc.w_unit,
                 phys->proc.hadronic ? " times a power of 2^-1" : "");
        rc = -1;
    }
    free(phys);
    return rc;
}

/* Whether the merged sums' rounding may have changed the cross section (gaps/histogram.h). */
static int merged_lost_precision(const gaps_state *st)
{
    gaps_hist_result *r = malloc(sizeof *r);
    if (!r) return 0;
    gaps_state_result(st, r);
    const int lost = r->lost_precision;
    free(r);
    return lost;
}

int gaps_merge_command(int argc, char **argv)
{
    gaps_merge_options m;
    char msg[1024];
    int rc = gaps_merge_options_parse(argc, argv, &m, msg, sizeof msg);
    if (rc == 1) return gaps_finish_stdout();
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
        if ((status = gaps_read_state(m.inputs[i], dst, NULL, msg, sizeof msg)) == 0
            && check_weight_unit(dst, m.inputs[i], msg, sizeof msg) != 0)
            status = EXIT_USAGE;
        if (status != 0) {
            fprintf(stderr, "gaps: merge: %s\n", gaps_one_line(msg));
        } else if (i > 0 && strcmp(total->pdf, next->pdf) == 0
                   && total->pdf_digest != next->pdf_digest) {
            /* one name, two grids: both files named (every state added so far has the first
             * one's digest) */
            char a[256], b[256];
            snprintf(a, sizeof a, "%s", m.inputs[0]);
            snprintf(b, sizeof b, "%s", m.inputs[i]);
            fprintf(stderr, "gaps: merge: '%s' and '%s' were made with different grids of PDF "
                            "set %s (digests %016" PRIx64 " and %016" PRIx64 "): they are "
                            "not parts of one run\n", gaps_one_line(a), gaps_one_line(b),
                    total->pdf, total->pdf_digest, next->pdf_digest);
            status = EXIT_USAGE;
        } else if (i > 0 && gaps_state_merge(total, next, msg, sizeof msg) != 0) {
            char name[256];
            snprintf(name, sizeof name, "%s", m.inputs[i]);
            fprintf(stderr, "gaps: merge: cannot add '%s': %s\n", gaps_one_line(name),
                    gaps_one_line(msg));
            status = EXIT_USAGE;
        }
    }
    gaps_outfile out[3];
    gaps_outfile_init(&out[0], "-o", m.output, GAPS_OUTFILE_ATOMIC);
    gaps_outfile_init(&out[1], "--json", m.json, GAPS_OUTFILE_ATOMIC);
    gaps_outfile_init(&out[2], "--state-out", m.state_out, GAPS_OUTFILE_ATOMIC);
    for (int i = 0; i < m.n_inputs && status == 0; ++i)
        if (gaps_clobbers_input(out, 3, m.inputs[i], "the input state", msg, sizeof msg) != 0) {
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
        if (gaps_outfile_stream(&out[1]))
            gaps_report_merge_json(gaps_outfile_stream(&out[1]), total, m.n_inputs);
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
            gaps_report_merge_summary(o, total, m.n_inputs);
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
        } else if (status == 0 && merged_lost_precision(total)) {
            fprintf(stderr, "gaps: merge: the merged cross section lost its precision: the "
                            "rounding of the exact sums (2^-40 of the weight unit %.17g pb) may "
                            "exceed 1e-9 of sigma or 1e-6 of sum w^2; the outputs are written, "
                            "but their numbers cannot be trusted\n", total->w_unit);
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
