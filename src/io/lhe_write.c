/* lhe_write.c -- a run's hard events as a Les Houches Event file, LHEF 3.0 (lhe_write.h;
 * the format: doc/formats.md, "Les Houches Event files (written)").
 *
 * Particle lines, in the order of the hard event's rows so that a reader that drops the
 * lines a shower does not take (status 2 and, for e+ e-, the incoming leptons) gets the rows
 * back in the order the shower had them:
 *   hadron collisions: the incoming rows (status -1, no mothers), then for a process whose
 *     record holds a boson's decay products but not the boson (pp-ll, pp-w) the boson as a
 *     status 2 line (the sum of its products, their invariant mass), then the outgoing rows
 *     (status 1; the products' mother is the boson line, the others' the two incoming);
 *   e+ e-: the record has no incoming rows, but an event file must have incoming particles
 *     that balance the outgoing ones: the beams (status -1, not rows of the record), then the
 *     outgoing rows (status 1, mothers 1 2).  No line for the s-channel Z/gamma*: a
 *     resonance that decays into quarks would have its mass kept by a shower that reads the
 *     file (gaps_lhe_showerable refuses such events), and the quarks' shower does not keep
 *     it (the HepMC3 output shows it; the process fixes it: gaps_process_intermediate).
 * Colour tags are 500 + the record's (the record counts from 1; 0, no colour, stays 0): the
 * usual range of LHE writers, and the record's colours are physical for incoming partons too,
 * as the accord has them.
 *
 * Numbers: every momentum, weight and the <gaps> element's values with %.17g (gaps_fmt_g17,
 * the same text), which reads back as the same double; masses too, though they are only
 * informational (a reader of gaps takes the momenta). */
#include "io/lhe_write.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "io/c_locale.h"
#include "io/fmt_double.h"
#include "io/lhe.h"
#include "io/record_particles.h"

#ifndef GAPS_VERSION
#define GAPS_VERSION "0.0"
#endif


/* LPRUP of the one process line, IDPRUP of every event. */
#define LHE_PROCESS_ID 1

/* The colour tag of the file for a tag of the record. */
static int file_tag(int tag) { return tag > 0 ? tag + GAPS_LHE_TAG_OFFSET : 0; }

/* One particle line: IDUP ISTUP MOTHUP(1) MOTHUP(2) ICOLUP(1) ICOLUP(2) PUP(1..5) VTIMUP
 * SPINUP, p = (E, px, py, pz) as the record has it, written px py pz E. */
static char *put_line(char *s, int id, int status, int m1, int m2, int c1, int c2,
                      const double p[4])
{
    s += sprintf(s, " %d %d %d %d %d %d", id, status, m1, m2, file_tag(c1), file_tag(c2));
    const double v[5] = { p[1], p[2], p[3], p[0], gaps_record_mass(p) };
    for (int k = 0; k < 5; ++k) {
        *s++ = ' ';
        s = gaps_fmt_g17(s, v[k]);
    }
    s += sprintf(s, " 0 9\n");
    return s;
}

static char *put_attr(char *s, const char *name, double v)
{
    s += sprintf(s, " %s=\"", name);
    s = gaps_fmt_g17(s, v);
    *s++ = '"';
    *s = '\0';
    return s;
}

/* Text as XML character data, for a reader that parses the header as XML (pylhe does): a
 * '<' or '&' of a title escaped; '>', which the titles' "->" hold, is plain text in XML. */
static void put_xml_text(FILE *f, const char *text)
{
    for (const char *c = text; *c; ++c) {
        if (*c == '<') fputs("&lt;", f);
        else if (*c == '&') fputs("&amp;", f);
        else fputc(*c, f);
    }
}

int gaps_lhe_write_init(FILE *f, const gaps_lhe_write_run *run)
{
    const gaps_process *proc = run->proc;
    const gaps_process_info *info = &gaps_process_table[proc->id];
    const gaps_c_locale saved = gaps_c_locale_enter();
    char w_unit[GAPS_FMT_G17_SIZE], half[GAPS_FMT_G17_SIZE];
    gaps_fmt_g17(w_unit, proc->w_unit);
    gaps_fmt_g17(half, proc->ecm / 2.0);
    fprintf(f, "<LesHouchesEvents version=\"3.0\">\n"
               "<header>\n"
               "<generator name=\"gaps\" version=\"%s\">", GAPS_VERSION);
    put_xml_text(f, info->title);
    fprintf(f, "</generator>\n"
               "<gaps process=\"%s\" nlo=\"%d\" seed=\"%" PRIu32 "\" weight_unit=\"%s\" "
               "first_event=\"%" PRId64 "\" events=\"%" PRId64 "\"/>\n"
               "</header>\n"
               "<init>\n",
            info->name, run->nlo ? 1 : 0, run->seed, w_unit,
            run->first_event, run->events);
    fprintf(f, " %d %d %s %s %d %d %d %d %d 1\n", gaps_process_beam_pdg(proc, 0),
            gaps_process_beam_pdg(proc, 1), half,
            half, run->pdf_group, run->pdf_group, run->pdf_set, run->pdf_set,
            run->nlo ? -4 : 4);
    char xs[GAPS_FMT_G17_SIZE], xe[GAPS_FMT_G17_SIZE], xm[GAPS_FMT_G17_SIZE];
    gaps_fmt_g17(xs, run->sigma);
    gaps_fmt_g17(xe, run->sigma_err);
    gaps_fmt_g17(xm, run->max_weight);
    fprintf(f, " %s %s %s %d\n"
               "<generator name=\"gaps\" version=\"%s\"/>\n"
               "</init>\n", xs, xe, xm, LHE_PROCESS_ID, GAPS_VERSION);
    gaps_c_locale_leave(saved);
    return ferror(f) ? -1 : 0;
}

int gaps_lhe_write_event(FILE *f, const gaps_process *proc, const gaps_hard_event *ev,
                         int64_t event, uint32_t draw, double alpha_s)
{
    /* at most a boson + 2 beams or GAPS_HARD_MAX rows, each line below 13 x 26 bytes */
    char buf[(GAPS_HARD_MAX + 3) * 400 + 1024];
    char *s = buf;
    const int n_in = ev->n_in, n = ev->n;
    /* a record the shower could not start from either (gaps_shower_start's checks) */
    if (n < 0 || n > GAPS_HARD_MAX || n_in < 0 || n_in > 2 || n_in > n) return -2;

    /* e+ e-: the beams */
    double beam[2][4];
    int n_lines = n;
    if (n_in == 0) {
        gaps_process_beams(proc, beam);
        n_lines += 2;
    }
    /* hadron collisions: the decayed boson, rebuilt from its products (as the HepMC3 writer
     * does), with the sign of their charge for a W */
    int decayed_pdg = n_in > 0 ? gaps_process_decayed_boson(proc) : 0;
    double decayed[4] = { 0.0, 0.0, 0.0, 0.0 };
    int charge = 0, products = 0;
    if (decayed_pdg != 0)
        for (int r = n_in; r < n; ++r)
            if (!gaps_record_is_parton(ev->flav[r])) {
                for (int c = 0; c < 4; ++c) decayed[c] += ev->p[r][c];
                charge += gaps_record_lepton_charge(ev->flav[r]);
                ++products;
            }
    if (products == 0) decayed_pdg = 0;
    if (charge < 0) decayed_pdg = -decayed_pdg;
    n_lines += decayed_pdg != 0;

    s += sprintf(s, "<event>\n %d %d ", n_lines, LHE_PROCESS_ID);
    s = gaps_fmt_g17(s, ev->weight);
    *s++ = ' ';
    s = gaps_fmt_g17(s, sqrt(ev->t_start > 0.0 ? ev->t_start : 0.0));
    s += sprintf(s, " -1 ");
    s = gaps_fmt_g17(s, alpha_s);
    *s++ = '\n';

    const int mother_out = 1;   /* 1-based lines: the incoming ones */
    int mother_out2 = 2;
    if (n_in == 0) {
        for (int b = 0; b < 2; ++b)
            s = put_line(s, gaps_process_beam_pdg(proc, b), -1, 0, 0, 0, 0, beam[b]);
    } else {
        for (int r = 0; r < n_in; ++r)
            s = put_line(s, ev->flav[r], -1, 0, 0, ev->col[r], ev->acol[r], ev->p[r]);
        if (n_in == 1) mother_out2 = 0;
        if (decayed_pdg != 0) s = put_line(s, decayed_pdg, 2, 1, mother_out2, 0, 0, decayed);
    }
    const int boson_line = n_in + 1;
    for (int r = n_in; r < n; ++r) {
        const int product = decayed_pdg != 0 && !gaps_record_is_parton(ev->flav[r]);
        s = put_line(s, ev->flav[r], 1, product ? boson_line : mother_out,
                     product ? boson_line : mother_out2, ev->col[r], ev->acol[r], ev->p[r]);
    }
    s += sprintf(s, "<gaps event=\"%" PRId64 "\" draw=\"%" PRIu32 "\"", event, draw);
    s = put_attr(s, "t", ev->t_start);
    s = put_attr(s, "x1", n_in > 0 ? ev->x[0] : 0.0);
    s = put_attr(s, "x2", n_in > 1 ? ev->x[1] : 0.0);
    s += sprintf(s, "/>\n</event>\n");
    fwrite(buf, 1, (size_t)(s - buf), f);
    return ferror(f) ? -1 : 0;
}

int gaps_lhe_write_end(FILE *f)
{
    fputs("</LesHouchesEvents>\n", f);
    return ferror(f) ? -1 : 0;
}
