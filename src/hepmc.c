/* hepmc.c -- HepMC3 ASCII event output (physics.md sections 1 and 3 give the content).
 *
 * The layout is the one HepMC3 3.1.2's WriterAscii produces for the same GenEvent, line for
 * line and field for field, so that its ReaderAscii (and the readers of later versions, which
 * read Asciiv3 unchanged) sees a file it could have written itself:
 *
 *   E <event number> <vertices> <particles>
 *   U GEV MM
 *   W <weight>
 *   A 0 GenCrossSection <sigma> <error> <accepted> <attempted>
 *   A <id> flow1 <tag> ...            (one attribute name after the other, ids ascending:
 *   A <id> flow2 <tag> ...             WriterAscii walks a map of name -> id -> value)
 *   P <id> <parent> <pdg> <px> <py> <pz> <E> <generated mass> <status>
 *   V <id> <status> [<incoming ids>]
 *
 * <parent> of a particle is the id of its production vertex (negative), 0 for none, or a
 * positive particle id: a vertex with exactly one incoming particle and no attributes is not
 * written as a V line but implied by its outgoing particles naming that particle.  So the
 * beams' vertex -1 appears as "V -1 0 [1,2]" after the beams, while the boson's decay vertex
 * (-2) only shows as the parent "3" of the final partons; the E line still counts both
 * vertices, and the reader checks that count.  Note the momentum order: px py pz E.
 *
 * Numbers: %.17g reproduces every double exactly when read back (the reader uses atof), so
 * momenta and weights in the file are the generator's own bits.  The GenCrossSection string
 * is parsed by its from_string the same way, so it gets full precision too (WriterAscii
 * itself would print 8 digits). */
#include "gaps/hepmc.h"

#include <inttypes.h>
#include <limits.h>

#ifndef GAPS_VERSION
#define GAPS_VERSION "0.0"
#endif

/* Particle ids of an event: beams 1 (e+) and 2 (e-), boson 3, partons from 4 on. */
enum { ID_EPLUS = 1, ID_EMINUS = 2, ID_BOSON = 3, ID_FIRST_PARTON = 4 };

static void write_header(FILE *f)
{
    /* The version of the format written, i.e. of the WriterAscii this layout follows; readers
     * only test the "HepMC::" prefix of the line. */
    fputs("HepMC::Version 3.01.02\n", f);
    fputs("HepMC::Asciiv3-START_EVENT_LISTING\n", f);
    /* Run info: one weight, under a name Rivet takes for the nominal one; the tool line holds
     * name, version and description separated by the two characters "\|". */
    fputs("W Default\n", f);
    fputs("T gaps\\|" GAPS_VERSION "\\|e+e- -> Z/gamma* -> q qbar at leading order with a "
          "Catani-Seymour dipole shower (parallel veto algorithm)\n", f);
}

static void write_event(FILE *f, const gaps_records *r, int64_t ev, double ecm, double sigma,
                        double sigma_err, long n_acc)
{
    const int n = r->n[ev];
    const long base = (long)ev * r->maxp;
    const double e_beam = 0.5 * ecm;

    fprintf(f, "E %" PRId64 " 2 %d\n", ev, ID_FIRST_PARTON - 1 + n);
    fputs("U GEV MM\n", f);
    fprintf(f, "W %.17g\n", r->weight[ev]);
    fprintf(f, "A 0 GenCrossSection %.17g %.17g %ld %ld\n", sigma, sigma_err, n_acc, n_acc);
    for (int i = 0; i < n; ++i)
        if (r->col[base + i] != 0)
            fprintf(f, "A %d flow1 %d\n", ID_FIRST_PARTON + i, r->col[base + i]);
    for (int i = 0; i < n; ++i)
        if (r->acol[base + i] != 0)
            fprintf(f, "A %d flow2 %d\n", ID_FIRST_PARTON + i, r->acol[base + i]);

    /* Beams: massless, e+ along +z (physics.md section 1), status 4 = incoming beam. */
    fprintf(f, "P %d 0 -11 0 0 %.17g %.17g 0 4\n", ID_EPLUS, e_beam, e_beam);
    fprintf(f, "P %d 0 11 0 0 %.17g %.17g 0 4\n", ID_EMINUS, -e_beam, e_beam);
    fprintf(f, "V -1 0 [%d,%d]\n", ID_EPLUS, ID_EMINUS);
    /* The s-channel Z/gamma* at rest, mass sqrt(s); status 2 = decayed. */
    fprintf(f, "P %d -1 23 0 0 0 %.17g %.17g 2\n", ID_BOSON, ecm, ecm);
    /* Final partons from the boson's (implicit) decay vertex.  Records hold (E, px, py, pz). */
    for (int i = 0; i < n; ++i) {
        const double *p = r->p + (base + i) * 4;
        fprintf(f, "P %d %d %d %.17g %.17g %.17g %.17g 0 1\n", ID_FIRST_PARTON + i, ID_BOSON,
                r->flav[base + i], p[1], p[2], p[3], p[0]);
    }
}

int gaps_hepmc_write(FILE *f, const gaps_records *r, int64_t n_events, double ecm, double sigma,
                     double sigma_err)
{
    if (n_events > 0 && !(r && r->n && r->weight && r->p && r->flav && r->col && r->acol))
        return -1;
    /* A record never holds more than its capacity; anything else is a corrupt record, which is
     * refused rather than read out of bounds. */
    for (int64_t ev = 0; ev < n_events; ++ev)
        if (r->n[ev] < 0 || r->n[ev] > r->maxp) return -1;
    /* The readers parse the event counts of GenCrossSection (and the event number) with atoi:
     * beyond INT_MAX, -1 ("unknown") is written rather than a number they would mangle. */
    const long n_acc = n_events <= INT_MAX ? (long)n_events : -1L;

    write_header(f);
    for (int64_t ev = 0; ev < n_events && !ferror(f); ++ev)
        write_event(f, r, ev, ecm, sigma, sigma_err, n_acc);
    fputs("HepMC::Asciiv3-END_EVENT_LISTING\n\n", f);   /* an empty last line, as WriterAscii */
    return ferror(f) ? -1 : 0;
}
