/* lhe_check.c -- `gaps lhe-check FILE [--quiet]`: read and check a whole Les Houches Event
 * file without showering it (io/lhe.h), and say what it holds and whether the built-in
 * shower can start from its events.  Exit status 0 for a valid file (showerable or not), 2
 * for an invalid one (one line on standard error, "gaps: FILE:LINE: what is wrong"), 1 when
 * the system fails. */
#define _POSIX_C_SOURCE 200809L
#include "gaps/constants.h"
#include "io/c_locale.h"
#include "io/lhe.h"
#include "program/commands.h"
#include "program/one_line.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char usage[] =
    "usage: gaps lhe-check [--quiet] FILE\n"
    "Read and check a Les Houches Event file (LHEF 1.0 to 3.0, plain or gzip-compressed; FILE\n"
    "may be a FIFO, '-' is standard input) without showering it, and print what it holds:\n"
    "beams, PDF sets, IDWTUP, processes, events, weights, the cross section from the event\n"
    "weights, status codes, and whether the built-in shower can shower its events.\n"
    "  -q, --quiet   print nothing; the exit status says: 0 valid, 2 invalid (the first\n"
    "                error on standard error as FILE:LINE: what is wrong)\n";

/* What the events add up to. */
typedef struct lhe_summary {
    long events, negative;
    double sum_w, sum_w2;
    double mean, m2;              /* Welford's running mean and sum of squared deviations:
                                     no cancellation when the weights are (nearly) equal */
    long by_status[6];            /* in the order of status_codes[] */
    int largest;                  /* most particles in one event */
    long by_process[GAPS_LHE_MAX_PROCESSES];
    long refused;                 /* events the built-in shower cannot start from */
    long decays;                  /* events with quarks or gluons from a colourless
                                     status-2 resonance */
    char first_why[600];          /* the first of them: "line LINE: why" */
} lhe_summary;

static const int status_codes[6] = {-9, -2, -1, 1, 2, 3};

static void add_event(lhe_summary *s, const gaps_lhe_init *in, const gaps_lhe_event *ev)
{
    s->events++;
    s->negative += ev->weight < 0.0;
    s->sum_w += ev->weight;
    s->sum_w2 += ev->weight * ev->weight;
    const double delta = ev->weight - s->mean;
    s->mean += delta / (double)s->events;
    s->m2 += delta * (ev->weight - s->mean);
    if (ev->n > s->largest) s->largest = ev->n;
    for (int k = 0; k < in->n_processes; ++k)
        if (in->process[k].id == ev->process_id) s->by_process[k]++;
    for (int i = 0; i < ev->n; ++i)
        for (int k = 0; k < 6; ++k)
            if (ev->particle[i].status == status_codes[k]) s->by_status[k]++;
    for (int i = 0; i < ev->n; ++i)
        if (gaps_lhe_decay_resonance(ev, i) >= 0) {
            s->decays++;
            break;
        }
    char why[512];
    long line;
    if (gaps_lhe_showerable(in, ev, GAPS_MAX_PARTONS, why, sizeof why, &line)
        != GAPS_LHE_SHOWERABLE && s->refused++ == 0)
        snprintf(s->first_why, sizeof s->first_why, "line %ld: %s", line, why);
}

/* A weight id as printed: quoted when it holds a space. */
static int id_width(const char *id)
{
    return (int)strlen(id) + (strchr(id, ' ') ? 2 : 0);
}

/* The ids of group g (-1: those without a group), wrapped under a heading. */
static void print_group(const gaps_lhe_init *in, int g)
{
    int count = 0;
    for (int k = 0; k < in->n_weights; ++k) count += in->weight_group[k] == g;
    if (count == 0) return;
    int col = printf("  %s (%d):", g >= 0 ? (in->group_name[g][0] ? in->group_name[g]
                                                                  : "(unnamed group)")
                                          : in->n_groups ? "(no group)" : "ids",
                     count);
    for (int k = 0; k < in->n_weights; ++k) {
        if (in->weight_group[k] != g) continue;
        const char *id = in->weight_id[k];
        if (col + 1 + id_width(id) > 96) {
            printf("\n   ");
            col = 3;
        }
        col += printf(strchr(id, ' ') ? " '%s'" : " %s", id);
    }
    putchar('\n');
}

static void print_weights(const gaps_lhe_init *in)
{
    static const char *const form[] = {"", "<rwgt>", "<weights>"};
    static const char *const names[] = {"unnamed", "named in <initrwgt>",
                                        "named by <weightinfo>",
                                        "named by the first event's <wgt id=...>"};
    if (in->n_weights == 0 && in->weight_form == GAPS_LHE_WEIGHTS_NONE) {
        printf("weights per event: 1 (XWGTUP only)\n");
        return;
    }
    printf("weights per event: %d besides XWGTUP (%s, %s)\n", in->n_weights,
           form[in->weight_form], names[in->weight_names]);
    if (in->weight_names == GAPS_LHE_NAMES_NONE) return;
    for (int g = 0; g < in->n_groups; ++g) print_group(in, g);
    print_group(in, -1);
}

static void print_summary(const gaps_lhe_init *in, const lhe_summary *s, const char *shown)
{
    static const char *const weighting[] = {"unweighted events, weights of either sign",
                                            "unweighted events, positive weights",
                                            "weighted events, weights of either sign",
                                            "weighted events, positive weights"};
    const int w = in->weighting;
    printf("file: %s%s\n", shown, in->gzip ? " (gzip-compressed)" : "");
    printf("LHEF version: %s\n", in->version);
    if (in->generator[0])
        printf("generator: %s%s%s\n", in->generator, in->generator_version[0] ? " " : "",
               in->generator_version);
    else
        printf("generator: not named (no <generator> tag)\n");
    printf("beams: %s (%d) at %.10g GeV, %s (%d) at %.10g GeV; sqrt(s) = %.10g GeV\n",
           gaps_lhe_beam_name(in->beam_id[0]), in->beam_id[0], in->beam_energy[0],
           gaps_lhe_beam_name(in->beam_id[1]), in->beam_id[1], in->beam_energy[1], in->sqrt_s);
    printf("PDF: PDFGUP %d %d, PDFSUP %d %d (LHAPDF IDs)", in->pdf_group[0], in->pdf_group[1],
           in->pdf_set[0], in->pdf_set[1]);
    if (in->pdf_name[0]) printf("; in the header: %s", in->pdf_name);
    putchar('\n');
    printf("IDWTUP: %d (%s)\n", w, weighting[(w == 3 || w == -3 ? 0 : 2) + (w > 0)]);
    printf("processes: %d\n", in->n_processes);
    double xsec = 0.0;
    for (int k = 0; k < in->n_processes; ++k) {
        const gaps_lhe_process *p = &in->process[k];
        xsec += p->xsec;
        printf("  LPRUP %d: XSECUP = %.10g +- %.10g pb, XMAXUP = %.10g; %ld events\n", p->id,
               p->xsec, p->xerr, p->xmax, s->by_process[k]);
    }
    printf("events: %ld\n", s->events);
    print_weights(in);
    printf("sum of weights: %.10g pb (sum of squares %.10g pb^2; %ld negative)\n", s->sum_w,
           s->sum_w2, s->negative);
    /* The cross section from the event weights, for IDWTUP +-3 and +-4 alike: the mean
     * weight sigma = (1/N) sum w_i, with the standard error of the mean,
     *   d sigma = sqrt( sum (w_i - sigma)^2 / (N (N - 1)) )
     * (the sum of squares accumulated by Welford's method).
     * For +-4 (weighted events) this is the estimate and its statistical error.  For +-3
     * (unweighted events) all |w_i| are equal, so the error only counts the fluctuation of
     * the negative events (0 without them): the generator's integration error is XERRUP.
     * doc/formats.md, "Les Houches Event files (read)". */
    if (s->events == 0) {
        printf("cross section from the weights: none (no events)\n");
    } else {
        const double n = (double)s->events, mean = s->mean;
        if (s->events == 1) {
            printf("cross section from the weights: %.10g pb (one event: no error)\n", mean);
        } else {
            const double var = s->m2 / (n - 1.0);
            printf("cross section from the weights: %.10g +- %.10g pb (the mean weight and its "
                   "standard error; sum of XSECUP: %.10g pb)\n", mean, sqrt(var / n), xsec);
            /* files normalised to the sum (MadGraph's event_norm = sum) */
            if ((w == 4 || w == -4) && fabs(s->sum_w - xsec) <= 1e-3 * fabs(xsec)
                && fabs(mean - xsec) > 1e-3 * fabs(xsec))
                printf("note: the weights add up to the sum of XSECUP: this file is normalised "
                       "to the sum of its weights, not to their mean as IDWTUP %d says\n", w);
        }
    }
    printf("status codes:");
    const char *sep = " ";
    for (int k = 0; k < 6; ++k) {
        if (s->by_status[k] == 0) continue;
        printf("%s%d: %ld", sep, status_codes[k], s->by_status[k]);
        sep = ", ";
    }
    printf("%s\n", s->events ? "" : " none");
    printf("largest event: %d particles\n", s->largest);
    if (s->decays)
        printf("decays: %ld events hold quarks or gluons from a colourless resonance (status "
               "2), whose shower starts at its mass squared, the rest at SCALUP^2\n",
               s->decays);
    if (s->refused == 0)
        printf("shower: yes, the built-in shower can start from %s\n",
               s->events ? "every event" : "these (no) events");
    else
        printf("shower: no, the built-in shower cannot shower %ld of the %ld events; the first: "
               "%s\n", s->refused, s->events, s->first_why);
}

int gaps_lhe_check_command(int argc, char **argv)
{
    const char *path = NULL;
    int quiet = 0, options_done = 0;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        if (!options_done && a[0] == '-' && a[1] != '\0') {
            if (strcmp(a, "--") == 0) {
                options_done = 1;
            } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
                fputs(usage, stdout);
                return gaps_finish_stdout();
            } else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
                quiet = 1;
            } else {
                char shown[128];
                snprintf(shown, sizeof shown, "%s", a);
                fprintf(stderr, "gaps: lhe-check: unknown option '%s' (see 'gaps lhe-check "
                                "--help')\n", gaps_one_line(shown));
                return EXIT_USAGE;
            }
            continue;
        }
        if (path) {
            char shown[128];
            snprintf(shown, sizeof shown, "%s", a);
            fprintf(stderr, "gaps: lhe-check: one FILE only, '%s' is a second (see 'gaps "
                            "lhe-check --help')\n", gaps_one_line(shown));
            return EXIT_USAGE;
        }
        path = a;
    }
    if (!path) {
        fprintf(stderr, "gaps: lhe-check: FILE is required (see 'gaps lhe-check --help')\n");
        return EXIT_USAGE;
    }
    char msg[1024];
    int status;
    gaps_lhe_reader *r = gaps_lhe_open(path, &status, msg, sizeof msg);
    if (!r) {
        fprintf(stderr, "gaps: %s\n", msg);
        return status == GAPS_LHE_FAILED ? EXIT_RUN_FAILED : EXIT_USAGE;
    }
    static gaps_lhe_event ev;      /* about 55 kB */
    static lhe_summary summary;
    memset(&summary, 0, sizeof summary);
    int rc;
    while ((rc = gaps_lhe_read_event(r, &ev, msg, sizeof msg)) == GAPS_LHE_EVENT)
        add_event(&summary, gaps_lhe_init_of(r), &ev);
    if (rc != GAPS_LHE_END) {
        gaps_lhe_close(r);
        fprintf(stderr, "gaps: %s\n", msg);
        return rc == GAPS_LHE_FAILED ? EXIT_RUN_FAILED : EXIT_USAGE;
    }
    if (!quiet) {
        const gaps_c_locale saved = gaps_c_locale_enter();
        print_summary(gaps_lhe_init_of(r), &summary, gaps_lhe_shown_name(r));
        gaps_c_locale_leave(saved);
    }
    gaps_lhe_close(r);
    return gaps_finish_stdout();
}
