/* report.c -- the JSON summary, the text summary and the veto-cycle log of a run, and the
 * JSON and summary line of `gaps merge` (report.h). */
#include "program/report.h"
#include "gaps/parameters.h"
#include "gaps/process.h"
#include "program/ranks.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* What every report states of a state's weights (all 0 when the histograms cannot be
 * allocated): the cross section and its error, and for signed weights (NLO) the effective
 * number of events (sum w)^2 / sum w^2 and the negative ones. */
typedef struct state_weights {
    double sigma, err, n_eff, neg_fraction;
    uint64_t n_neg, n_imprecise;
} state_weights;

static state_weights state_weights_of(const gaps_state *st)
{
    state_weights w = { 0.0, 0.0, 0.0, 0.0, 0, 0 };
    gaps_hist_result *r = malloc(sizeof *r);
    if (r) {
        gaps_state_result(st, r);
        gaps_histograms_sigma(r, &w.sigma, &w.err);
        gaps_histograms_weight_summary(r, &w.n_eff, &w.neg_fraction);
        w.n_neg = r->n_negative;
        w.n_imprecise = r->n_imprecise;
        free(r);
    }
    return w;
}

static void state_sigma(const gaps_state *st, double *sigma, double *err)
{
    const state_weights w = state_weights_of(st);
    *sigma = w.sigma;
    *err = w.err;
}

/* The physics part of the JSON: a function of the exact state alone, so that a merged run
 * and one run over the same events write the same lines. */
static void write_json_physics(FILE *f, const gaps_state *st)
{
    const state_weights w = state_weights_of(st);
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
    /* which grid the PDF set's name stood for (doc/formats.md); "" without hadron beams */
    if (st->pdf_digest) fprintf(f, "  \"pdf_digest\": \"%016" PRIx64 "\",\n", st->pdf_digest);
    else fprintf(f, "  \"pdf_digest\": \"\",\n");
    fprintf(f, "  \"event_ranges\": [");
    for (int i = 0; i < st->n_ranges; ++i)
        fprintf(f, "%s[%" PRId64 ", %" PRId64 "]", i ? ", " : "", st->range[i].begin,
                st->range[i].end);
    fprintf(f, "],\n");
    fprintf(f, "  \"events\": %" PRIu64 ",\n", st->events);
    fprintf(f, "  \"sigma_pb\": %.17g,\n  \"sigma_err_pb\": %.17g,\n", w.sigma, w.err);
    /* signed weights (NLO): the effective number of events and the negative ones */
    fprintf(f, "  \"effective_events\": %.17g,\n  \"negative_weights\": %" PRIu64 ",\n"
               "  \"negative_weight_fraction\": %.17g,\n", w.n_eff, w.n_neg, w.neg_fraction);
    fprintf(f, "  \"capacity_hits\": %" PRIu64 ",\n  \"invalid_events\": %" PRIu64 ",\n"
               "  \"bad_weights\": %" PRIu64 ",\n  \"imprecise_weights\": %" PRIu64,
            st->capacity_hits, st->invalid_events, st->bad_weights, w.n_imprecise);
}

/* --vary pdf: the set's band of the cross section from the members' cross sections sigma[v]
 * (variation v of member vary[v].pdf_member) around the nominal sigma0 (gaps_vary_pdf_band);
 * -1 without one */
static int pdf_band(const gaps_state *st, const gaps_variation *vary, int n, const double *sigma,
                    double sigma0, double *centre, double *up, double *down)
{
    double x[GAPS_VARY_PDF_MAX];
    int members = 0;
    for (int v = 0; v < n; ++v)
        if (vary[v].pdf_member > 0 && vary[v].pdf_member <= GAPS_VARY_PDF_MAX) {
            x[vary[v].pdf_member - 1] = sigma[v];
            ++members;
        }
    if (members == 0 || members != st->vary_pdf.members - 1) return -1;
    return gaps_vary_pdf_band(&st->vary_pdf, sigma0, x, centre, up, down);
}

/* --vary: the "variations" object (each weight's cross section and what it varies) and, with
 * --vary pdf, "pdf_uncertainty" (the set's band of the cross section, doc/physics.md 17.10);
 * a run and a merge of its pieces write the same lines. */
static void write_json_variations(FILE *f, const gaps_state *st, const gaps_variation *vary,
                                  int n, const double *sigma, const double *err)
{
    fprintf(f, "  \"variations\": {");
    for (int v = 0; v < n; ++v)
        fprintf(f, "%s\n    \"%s\": {\"sigma_pb\": %.17g, \"sigma_err_pb\": %.17g, "
                   "\"mur_fsr\": %.17g, \"mur_isr\": %.17g, \"mur\": %.17g, \"muf\": %.17g, "
                   "\"alphas_mz\": %.17g, \"pdf_member\": %d}",
                v ? "," : "", vary[v].name, sigma[v], err[v], vary[v].mur_fsr, vary[v].mur_isr,
                vary[v].mur, vary[v].muf,
                vary[v].alphas_mz != 0.0 ? vary[v].alphas_mz : st->alphas_mz,
                vary[v].pdf_member);
    fprintf(f, "\n  },\n");
    if (!(st->vary & GAPS_VARY_PDF)) return;
    const gaps_vary_pdf_set *set = &st->vary_pdf;
    double centre, up, down;
    fprintf(f, "  \"pdf_uncertainty\": {\"set\": \"%.*s\", \"members\": %d, \"error_type\": \"%s\", "
               "\"set_conf_level_percent\": ", (int)strcspn(st->pdf, "/"), st->pdf, set->members,
            gaps_vary_pdf_errors_name(set->errors, set->alphas_members));
    if (set->conf_level > 0.0) fprintf(f, "%.17g, ", set->conf_level);
    else fprintf(f, "null, ");
    if (pdf_band(st, vary, n, sigma, state_weights_of(st).sigma, &centre, &up, &down) == 0)
        fprintf(f, "\"conf_level_percent\": 68.268949213708585, \"sigma_pb\": %.17g, "
                   "\"up_pb\": %.17g, \"down_pb\": %.17g},\n", centre, up, down);
    else
        fprintf(f, "\"conf_level_percent\": null, \"sigma_pb\": null, \"up_pb\": null, "
                   "\"down_pb\": null},\n");
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
                   "\"time_s\": {\"me\": %.9g, \"shower\": %.9g, \"analysis\": %.9g, \"read\": %.9g}, "
                   "\"batches\": %" PRId64 ", \"send_s\": %.9g, \"threads_reason\": \"%s\"}",
                r ? "," : "", r, k->host, k->device, k->threads, k->slots, k->events,
                k->pieces, k->takes, k->take_s, k->busy_s, k->me_s, k->shower_s,
                k->analysis_s, k->read_s, k->batches, k->send_s, k->threads_why);
    }
    fprintf(f, "\n  ],\n");
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

/* s as a JSON string, quotes included. */
static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; ++s) {
        const unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
        else if (c < 0x20) fprintf(f, "\\u%04x", c);
        else fputc(c, f);
    }
    fputc('"', f);
}

/* --lhe: how the file was read, and a PDF set other than the run's */
static void write_json_file(FILE *f, const gaps_report_file *file)
{
    fprintf(f, "  \"lhe\": {\"reading_threads\": %d, \"pieces\": %ld, \"read_serially_from\": ",
            file->threads, file->pieces);
    if (file->serial_from >= 0) fprintf(f, "%" PRId64, file->serial_from);
    else fputs("null", f);
    fputs(", \"pdf_warning\": ", f);
    if (file->pdf_warning && file->pdf_warning[0]) json_string(f, file->pdf_warning);
    else fputs("null", f);
    fputs("},\n", f);
}

void gaps_report_json(FILE *f, const gaps_config *cfg, const gaps_run *run, int64_t generated,
                      const gaps_report_file *file)
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
            gaps_loop_mode_name(gaps_config_loop_mode(cfg)), gaps_config_cycles_per_launch(cfg),
            gaps_config_split_every(cfg), cfg->refill ? "true" : "false");
    /* shower trials whose acceptance exceeded 1: rare outside --compat gaps21 (this process's) */
    fprintf(f, "  \"overestimate_violations\": %" PRId64 ",\n", run->overestimates);
    /* --shower-mur-factor and --vary: only where given, so that other runs keep their keys */
    if (cfg->shower_mur_factor != 1.0)
        fprintf(f, "  \"shower_mur_factor\": %.17g,\n", cfg->shower_mur_factor);
    if (run->n_vary > 0) {
        write_json_variations(f, run->state, run->vary, run->n_vary, run->vary_sigma,
                              run->vary_sigma_err);
        /* the safeguards of doc/physics.md 17.3: events whose weights they touched */
        fprintf(f, "  \"variation_checks\": {\"overestimate_factor\": %.17g, "
                   "\"headroom_below_GeV2\": %.17g, "
                   "\"events_p_varied_above_overestimate\": %" PRId64 ", "
                   "\"events_weight_ratio_above_%g\": %" PRId64 "},\n",
                run->vary_a_max_ratio, run->vary_t_headroom, run->vary_over_events,
                GAPS_VARY_LARGE_RATIO, run->vary_large_events);
    }
    fprintf(f, "  \"launches\": %ld,\n  \"veto_cycles\": %ld,\n", run->launches,
            run->veto_cycles);
    /* total: the event loop; startup: from the program's start to the first event; wall:
     * from the program's start to its outputs */
    fprintf(f, "  \"time_s\": {\"me\": %.9g, \"shower\": %.9g, \"analysis\": %.9g, "
               "\"total\": %.9g, \"startup\": %.9g, \"wall\": %.9g",
            run->time_me, run->time_shower, run->time_analysis, run->time_total,
            run->time_startup, run->time_wall);
    /* hard events from a file: the reading, a part of total */
    if (gaps_process_table[cfg->process].from_file)
        fprintf(f, ", \"read\": %.9g", run->time_read);
    fputs("},\n", f);
    if (file) write_json_file(f, file);
    if (cfg->measure_energy)
        fprintf(f, "  \"energy_j\": %.9g,\n  \"energy_source\": \"%s\",\n",
                run->energy_j, run->energy_source);
    write_json_ranks(f);
    fprintf(f, "  \"events_per_s\": %.9g\n}\n",
            run->time_total > 0 ? generated / run->time_total : 0.0);
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
        if (k->threads_why[0])
            fprintf(out, "             %d thread%s: %s\n", k->threads, k->threads == 1 ? "" : "s",
                    k->threads_why);
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
        if ((p->flags & GAPS_PF_OMIT_PROCESS_DEFAULT) && gaps_param_is_process_default(p, st))
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

void gaps_report_summary(FILE *out, const gaps_config *cfg, const gaps_run *run,
                         int64_t generated, const gaps_report_file *file)
{
    fprintf(out, "gaps %s  backend %s  on %s\n", GAPS_VERSION, run->backend, run->device);
    print_summary_parameters(out, run->state);
    fprintf(out, "  pool %d slots x %d partons   loops %s", run->slots, cfg->max_partons,
            gaps_loop_mode_name(gaps_config_loop_mode(cfg)));
    if (gaps_config_loop_mode(cfg) == GAPS_LOOPS_FUSED) {
        fprintf(out, " (%d veto cycle%s per launch", gaps_config_cycles_per_launch(cfg),
                gaps_config_cycles_per_launch(cfg) == 1 ? "" : "s");
        /* splitting rounds only matter when some cycle of a launch is not one */
        if (gaps_config_split_every(cfg) > 1 && gaps_config_cycles_per_launch(cfg) > 1)
            fprintf(out, ", a splitting round every %d", gaps_config_split_every(cfg));
        fprintf(out, ")");
    } else if (gaps_config_cycles_per_launch(cfg) > 1) {
        fprintf(out, " (%d veto cycles between refills)", gaps_config_cycles_per_launch(cfg));
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
    if (cfg->shower_mur_factor != 1.0)
        fprintf(out, "  shower mu_R       %g p_T (--shower-mur-factor)\n", cfg->shower_mur_factor);
    int pdf_first = -1, pdf_last = -1;
    for (int v = 0; v < run->n_vary; ++v) {
        if (run->vary[v].pdf_member > 0 && run->n_vary > 0) {   /* the members: one line */
            if (pdf_first < 0) pdf_first = v;
            pdf_last = v;
            continue;
        }
        fprintf(out, "  %-17s %.10g +- %.3g pb\n", run->vary[v].name, run->vary_sigma[v],
                run->vary_sigma_err[v]);
    }
    if (pdf_first >= 0) {
        const gaps_vary_pdf_set *set = &run->state->vary_pdf;
        double centre, up, down;
        fprintf(out, "  PDF members       %d of %.*s (%s to %s: the JSON's variations)\n",
                pdf_last - pdf_first + 1, (int)strcspn(run->state->pdf, "/"), run->state->pdf,
                run->vary[pdf_first].name,
                run->vary[pdf_last].name);
        if (pdf_band(run->state, run->vary, run->n_vary, run->vary_sigma,
                     state_weights_of(run->state).sigma, &centre, &up, &down) == 0)
            fprintf(out, "  PDF uncertainty   %.10g +%.3g -%.3g pb (%s, one standard deviation)\n",
                    centre, up, down, gaps_vary_pdf_errors_name(set->errors, set->alphas_members));
        else
            fprintf(out, "  PDF uncertainty   none: ErrorType %s makes no band of %d members\n",
                    gaps_vary_pdf_errors_name(set->errors, set->alphas_members), set->members);
    }
    if (run->n_vary > 0 && (run->vary_over_events > 0 || run->vary_large_events > 0))
        fprintf(out, "  variation weights %" PRId64 " events with P' > O, %" PRId64 " beyond "
                     "%g times the nominal weight\n", run->vary_over_events,
                run->vary_large_events, GAPS_VARY_LARGE_RATIO);
    if (run->bad_weights > 0)
        fprintf(out, "  bad weights       %" PRId64 " events (not finite or beyond 2^43 weight "
                     "units: counted, not added)\n", run->bad_weights);
    if (run->imprecise_weights > 0 || run->lost_precision)
        fprintf(out, "  imprecise weights %" PRId64 " events (nonzero, below 2^-16 weight units "
                     "of %.6g pb)%s\n", run->imprecise_weights, run->state->w_unit,
                run->lost_precision ? ": the cross section lost its precision" : "");
    if (file) {
        if (file->threads > 0)
            fprintf(out, "  file              read by %d thread%s in %ld piece%s", file->threads,
                    file->threads == 1 ? "" : "s", file->pieces, file->pieces == 1 ? "" : "s");
        else
            fprintf(out, "  file              read by the run's thread");
        if (file->serial_from >= 0)
            fprintf(out, ", from its event %" PRId64 " on serially", file->serial_from);
        fputc('\n', out);
        if (file->pdf_warning && file->pdf_warning[0])
            fprintf(out, "  warning           %s\n", file->pdf_warning);
    }
    if (gaps_process_table[cfg->process].from_file)
        fprintf(out, "  time  read file      %9.4f s   (the hard events, parsed and copied to "
                     "the loops)\n", run->time_read);
    fprintf(out, "  %s matrix element %9.4f s\n",
            gaps_process_table[cfg->process].from_file ? "     " : "time ", run->time_me);
    fprintf(out, "        shower         %9.4f s\n", run->time_shower);
    fprintf(out, "        analysis       %9.4f s\n", run->time_analysis);
    fprintf(out, "        total          %9.4f s   (%.3g events/s, %.3f us/event)\n",
            run->time_total, run->time_total > 0 ? generated / run->time_total : 0.0,
            generated > 0 ? 1e6 * run->time_total / generated : 0.0);
    fprintf(out, "        start-up       %9.4f s   (before the first event: set-up, PDF tables, "
                 "bounds)\n", run->time_startup);
    fprintf(out, "        wall           %9.4f s   (program start to outputs)\n",
            run->time_wall);
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

void gaps_report_cycle_log(FILE *f, const gaps_run *run)
{
    fprintf(f, "veto_cycle,events_completed,seconds\n");
    for (long i = 0; i < run->cycle_log_length; ++i)
        fprintf(f, "%ld,%" PRId64 ",%.6f\n", (i + 1) * (long)run->cycle_log_stride,
                run->completed_per_cycle[i], run->cycle_log_seconds[i]);
}

void gaps_report_merge_json(FILE *f, const gaps_state *total, int n_inputs)
{
    fprintf(f, "{\n");
    write_json_physics(f, total);
    fprintf(f, ",\n");
    /* --shower-mur-factor and --vary, as a run writes them (only where given); of the
     * safeguards, the counts of events that the state keeps */
    if (total->shower_mur_factor != 1.0)
        fprintf(f, "  \"shower_mur_factor\": %.17g,\n", total->shower_mur_factor);
    gaps_variation vary[GAPS_VARY_MAX];
    const int n_vary = gaps_state_vary_list(total, vary);
    gaps_hist_result *r = n_vary > 0 ? malloc(sizeof *r) : NULL;
    if (r) {
        double sigma[GAPS_VARY_MAX], err[GAPS_VARY_MAX];
        for (int v = 0; v < n_vary; ++v) {
            gaps_state_vary_result(total, v, r);
            gaps_histograms_sigma(r, &sigma[v], &err[v]);
        }
        write_json_variations(f, total, vary, n_vary, sigma, err);
        fprintf(f, "  \"variation_checks\": {\"events_p_varied_above_overestimate\": %" PRIu64
                   ", \"events_weight_ratio_above_%g\": %" PRIu64 "},\n",
                total->vary_over_events, GAPS_VARY_LARGE_RATIO, total->vary_large_events);
        free(r);
    }
    fprintf(f, "  \"merged_from\": %d\n}\n", n_inputs);
}

void gaps_report_merge_summary(FILE *out, const gaps_state *total, int n_inputs)
{
    double sigma, err;
    state_sigma(total, &sigma, &err);
    fprintf(out, "gaps merge: %d states, %" PRIu64 " events in %d range%s, cross section "
                 "%.10g +- %.3g pb\n", n_inputs, total->events, total->n_ranges,
            total->n_ranges == 1 ? "" : "s", sigma, err);
}
