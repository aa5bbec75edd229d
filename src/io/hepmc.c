/* hepmc.c -- HepMC3 ASCII event output (doc/physics.md sections 1 and 3 give the content).
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
 * itself would print 8 digits).
 *
 * The cross section of each event is the running estimate over the events written so far
 * (mean weight and its error, accepted = attempted = events so far), as generators that
 * stream their events do: the final value is not known until the last event, and events
 * are written while the run goes.  The last event carries the run's estimate. */
#include "gaps/hepmc.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "gaps/constants.h"
#include "gaps/process.h"
#include <math.h>
#include "io/c_locale.h"
#include "io/fmt_double.h"
#include "io/record_particles.h"

#ifndef GAPS_VERSION
#define GAPS_VERSION "0.0"
#endif

/* Particle ids of an event: the beams first, then the s-channel boson (e+ e-) or the incoming
 * partons, then (Drell-Yan) the decayed boson, then the outgoing particles in record order,
 * then (hadron collisions) the two beam remnants.  Hadron collisions: beam -> incoming parton
 * and remnant (implicit vertices -1, -2), the hard vertex -3 "V -3 0 [q,qbar]", and for
 * Drell-Yan the boson's implicit decay vertex -4. */
enum { ID_BEAM_A = 1, ID_BEAM_B = 2, ID_NEXT = 3 };

/* HepMC3 status codes (the Pythia 8 convention: HepMC3 leaves 11-200 to the generator): the
 * beams 4, the incoming partons of the hard process 21, a decayed resonance of a hadron
 * collision 62 (Pythia's code of the last copy of a hard-process particle, with every recoil
 * included, which is what the record's decay products add up to), the e+ e- boson 2 (decayed),
 * final particles 1. */
enum { ST_FINAL = 1, ST_DECAYED = 2, ST_BEAM = 4, ST_INCOMING = 21, ST_RESONANCE = 62 };

/* The PDG code of a beam remnant: a pseudo-particle (the PDG numbering leaves 81-100 to
 * generators; 82 is Herwig's and ThePEG's remnant).  A hadron collision has one per beam,
 * beam minus incoming parton, so that the final particles add up to the beams. */
enum { PDG_REMNANT = 82 };

/* The process a header's run attributes name ("process"; absent: ee-qq, whose files keep
 * their bytes from before the attribute existed), or -1 for a name gaps does not know. */
static int header_process(const char *const *attributes, int n_attributes)
{
    for (int i = 0; i + 1 < 2 * n_attributes; i += 2)
        if (strcmp(attributes[i], "process") == 0) return gaps_process_lookup(attributes[i + 1]);
    return GAPS_PROCESS_EE_QQ;
}

/* 1 when the run attributes say "nlo" with a value other than 0 (an NLO run) */
static int header_nlo(const char *const *attributes, int n_attributes)
{
    for (int i = 0; i + 1 < 2 * n_attributes; i += 2)
        if (strcmp(attributes[i], "nlo") == 0) return strcmp(attributes[i + 1], "0") != 0;
    return 0;
}

static void write_header(FILE *f, const char *const *attributes, int n_attributes,
                         const char *const *weight_names, int n_weights)
{
    /* The version of the format written, i.e. of the WriterAscii this layout follows; readers
     * only test the "HepMC::" prefix of the line. */
    fputs("HepMC::Version 3.01.02\n", f);
    fputs("HepMC::Asciiv3-START_EVENT_LISTING\n", f);
    /* Run info: one weight, under a name Rivet takes for the nominal one; the tool line holds
     * name, version and description separated by the two characters "\|": the process (that
     * of the "process" attribute) and the shower. */
    fputs("W Default", f);
    for (int k = 0; k < n_weights; ++k) fprintf(f, " %s", weight_names[k]);
    fputc('\n', f);
    const int process = header_process(attributes, n_attributes);
    /* an NLO run says so (the process table's titles name the leading order), as the YODA
     * file's Process line does */
    const int nlo = header_nlo(attributes, n_attributes);
    if (process == GAPS_PROCESS_EE_QQ)
        fprintf(f, "T gaps\\|" GAPS_VERSION "\\|e+e- -> Z/gamma* -> q qbar at %s with a "
                "Catani-Seymour dipole shower (parallel veto algorithm)\n",
                nlo ? "next-to-leading order (MC@NLO, signed weights)" : "leading order");
    else if (process >= 0 && process < GAPS_N_PROCESSES)
        fprintf(f, "T gaps\\|" GAPS_VERSION "\\|%s%s; Catani-Seymour dipoles, parallel veto "
                "algorithm\n", gaps_process_table[process].title,
                nlo ? " (--nlo 1: NLO matched with MC@NLO, signed weights)" : "");
    else
        fputs("T gaps\\|" GAPS_VERSION "\\|Catani-Seymour dipole shower (parallel veto "
              "algorithm)\n", f);
    /* Run attributes, as WriterAscii writes GenRunInfo attributes: "A <name> <value>". */
    for (int i = 0; i + 1 < 2 * n_attributes; i += 2)
        fprintf(f, "A %s %s\n", attributes[i], attributes[i + 1]);
}

/* Append the text of a double that reads back as exactly the same double: the bytes of
 * "%.17g", from a formatter ~10 times faster than printf's (src/io/fmt_double.c). */
static char *put_double(char *s, double v)
{
    return gaps_fmt_g17(s, v);
}

/* One particle line: id, parent (a vertex if negative, else the particle whose decay made
 * it), PDG code, (px, py, pz, E), mass and status. */
static char *put_particle(char *s, int id, int parent, int pdg, const double p[4], double m,
                          int status)
{
    s += sprintf(s, "P %d %d %d ", id, parent, pdg);
    for (int c = 1; c <= 4; ++c) {
        s = put_double(s, p[c & 3]);   /* px, py, pz, then E */
        *s++ = ' ';
    }
    s = put_double(s, m);
    return s + sprintf(s, " %d\n", status);
}

static void write_event(FILE *f, const gaps_process *proc, const gaps_records *r, int i,
                        const gaps_hepmc_xsec *xs, const double *w, const double *xs_w,
                        int n_weights)
{
    const int n = r->n[i];
    const long base = (long)i * r->maxp;
    int n_in = 0;
    while (n_in < n && r->status[base + n_in] == GAPS_STATUS_INCOMING) ++n_in;
    double beam[2][4], boson[4];
    gaps_process_beams(proc, beam);
    const int boson_pdg = n_in == 0 ? gaps_process_intermediate(proc, boson) : 0;
    const int first_parton = ID_NEXT + (boson_pdg != 0);   /* id of record row 0 */
    /* A hadron collision whose boson decayed (Drell-Yan): the boson is rebuilt from its
     * decay products in the record (after the shower's recoil), written right after the
     * incoming partons, so that it precedes the particles that name it as their parent.
     * The process names the boson's PDG code; a charged boson (a W) takes the sign of its
     * products' charge: W+ (24) for e+ nu, W- (-24) for e- nu~ (a neutral one, the Z, keeps
     * its code). */
    int decayed_pdg = n_in > 0 ? gaps_process_decayed_boson(proc) : 0;
    double decayed[4] = { 0.0, 0.0, 0.0, 0.0 };
    int decayed_charge = 0;
    if (decayed_pdg != 0)
        for (int k = n_in; k < n; ++k)
            if (!gaps_record_is_parton(r->flav[base + k])) {
                for (int c = 0; c < 4; ++c) decayed[c] += r->p[(base + k) * 4 + c];
                decayed_charge += gaps_record_lepton_charge(r->flav[base + k]);
            }
    if (decayed_charge < 0) decayed_pdg = -decayed_pdg;
    const int id_decayed = first_parton + n_in;   /* its id when decayed_pdg != 0 */
    /* hadron collisions: a remnant per beam, the last two particles */
    const int n_remnants = n_in < 2 ? n_in : 2;
    const int n_particles = first_parton - 1 + n + (decayed_pdg != 0) + n_remnants;
    const int id_remnant = n_particles - n_remnants + 1;   /* the first remnant's id */
    /* which beam each incoming parton leaves: the one it moves along (the record's row 0 is
     * the quark of the hard process, whichever beam it came from); row_of_beam[b]: the parton
     * of beam b, whose remnant is beam b minus that parton */
    int row_of_beam[2] = { 0, 1 };
    if (n_remnants == 2 && r->p[base * 4 + 3] < 0.0 && r->p[(base + 1) * 4 + 3] > 0.0) {
        row_of_beam[0] = 1;
        row_of_beam[1] = 0;
    }
    double remnant[2][4];
    for (int b = 0; b < n_remnants; ++b)
        for (int c = 0; c < 4; ++c)
            remnant[b][c] = beam[b][c] - r->p[(base + row_of_beam[b]) * 4 + c];
    const long n_acc = xs->events <= INT_MAX ? (long)xs->events : -1L;
    /* one event is formatted into a local buffer and written with one call: far fewer
     * library calls than one fprintf per field (GAPS_MAX_PARTONS + 5 particle lines of at
     * most ~145 bytes and two colour attributes each fit) */
    char buf[1024 + GAPS_MAX_PARTONS * 192 + 3 * 26 * GAPS_HEPMC_MAX_WEIGHTS], *s = buf;
    if (n_weights > GAPS_HEPMC_MAX_WEIGHTS) n_weights = GAPS_HEPMC_MAX_WEIGHTS;

    /* vertices: e+ e-: the beams' and the boson's decay; with incoming partons: one per beam
     * (parton from beam), the hard vertex, and a decayed boson's */
    const int n_vertices = n_in > 0 ? 3 + (decayed_pdg != 0) : 2;
    s += sprintf(s, "E %" PRId64 " %d %d\nU GEV MM\nW ", r->event[i], n_vertices, n_particles);
    s = put_double(s, r->weight[i]);
    for (int k = 0; k < n_weights; ++k) {
        *s++ = ' ';
        s = put_double(s, w[k]);
    }
    s += sprintf(s, "\nA 0 GenCrossSection ");
    s = put_double(s, xs->sigma);
    *s++ = ' ';
    s = put_double(s, xs->sigma_err);
    s += sprintf(s, " %ld %ld", n_acc, n_acc);
    for (int k = 0; k < 2 * n_weights; ++k) {
        *s++ = ' ';
        s = put_double(s, xs_w[k]);
    }
    *s++ = '\n';
    /* particle id of record row k: a decayed boson's id sits between the incoming and the
     * outgoing rows */
#define ROW_ID(k) (first_parton + (k) + (decayed_pdg != 0 && (k) >= n_in))
    /* a remnant carries the colour that its beam keeps: the anticolour of the incoming parton
     * as its colour and the colour as its anticolour, so that every colour line of the final
     * particles ends in another final particle */
    for (int k = 0; k < n; ++k)
        if (r->col[base + k] != 0)
            s += sprintf(s, "A %d flow1 %d\n", ROW_ID(k), r->col[base + k]);
    for (int b = 0; b < n_remnants; ++b)
        if (r->acol[base + row_of_beam[b]] != 0)
            s += sprintf(s, "A %d flow1 %d\n", id_remnant + b, r->acol[base + row_of_beam[b]]);
    for (int k = 0; k < n; ++k)
        if (r->acol[base + k] != 0)
            s += sprintf(s, "A %d flow2 %d\n", ROW_ID(k), r->acol[base + k]);
    for (int b = 0; b < n_remnants; ++b)
        if (r->col[base + row_of_beam[b]] != 0)
            s += sprintf(s, "A %d flow2 %d\n", id_remnant + b, r->col[base + row_of_beam[b]]);

    /* Beams from the process, massless, the first along +z; status 4 = incoming beam. */
    for (int b = 0; b < 2; ++b)
        s = put_particle(s, ID_BEAM_A + b, 0, gaps_process_beam_pdg(proc, b), beam[b], 0.0,
                         ST_BEAM);
    int parent_out;   /* where the outgoing partons come from */
    if (n_in == 0) {
        /* the beams annihilate (vertex -1) into the s-channel boson, status 2 = decayed; the
         * outgoing partons come from its (implicit) decay vertex */
        s += sprintf(s, "V -1 0 [%d,%d]\n", ID_BEAM_A, ID_BEAM_B);
        if (boson_pdg != 0)
            s = put_particle(s, ID_NEXT, -1, boson_pdg, boson, boson[0], ST_DECAYED);
        parent_out = boson_pdg != 0 ? ID_NEXT : -1;
    } else {
        /* each incoming parton leaves its beam (status 21, the incoming partons of the hard
         * process in the Pythia convention); they meet in vertex -3 */
        for (int k = 0; k < n_in; ++k)
            s = put_particle(s, first_parton + k, row_of_beam[0] == k ? ID_BEAM_A : ID_BEAM_B,
                             r->flav[base + k],
                             r->p + (base + k) * 4, 0.0, ST_INCOMING);
        s += sprintf(s, "V -3 0 [%d,%d]\n", first_parton, first_parton + 1);
        parent_out = -3;
        /* the decayed boson (status 62) comes out of the hard vertex; its decay vertex (-4) is
         * implicit: its products name it as their parent */
        if (decayed_pdg != 0)
            s = put_particle(s, id_decayed, -3, decayed_pdg, decayed, gaps_record_mass(decayed),
                             ST_RESONANCE);
    }
    for (int k = n_in; k < n; ++k) {
        const double *p = r->p + (base + k) * 4;
        /* partons are massless; a colourless particle (a Z, a lepton) carries its mass */
        const int flav = r->flav[base + k];
        const int parent = decayed_pdg != 0 && !gaps_record_is_parton(flav) ? id_decayed : parent_out;
        s = put_particle(s, ROW_ID(k), parent, flav, p, gaps_record_is_parton(flav) ? 0.0 : gaps_record_mass(p),
                         ST_FINAL);
    }
    /* the beam remnants (final), each from its beam's vertex */
    for (int b = 0; b < n_remnants; ++b)
        s = put_particle(s, id_remnant + b, ID_BEAM_A + b, PDG_REMNANT, remnant[b],
                         gaps_record_mass(remnant[b]), ST_FINAL);
#undef ROW_ID
    fwrite(buf, 1, (size_t)(s - buf), f);
}

static void write_footer(FILE *f)
{
    fputs("HepMC::Asciiv3-END_EVENT_LISTING\n\n", f);   /* an empty last line, as WriterAscii */
}

/* The public writers: the numbers in the C locale's notation, whatever the caller's locale
 * (io/c_locale.h; the fast formatter needs no locale, its rare fallback to snprintf does). */
void gaps_hepmc_write_header(FILE *f, const char *const *attributes, int n_attributes)
{
    gaps_hepmc_write_header_named(f, attributes, n_attributes, NULL, 0);
}

void gaps_hepmc_write_header_named(FILE *f, const char *const *attributes, int n_attributes,
                                   const char *const *weight_names, int n_weights)
{
    const gaps_c_locale saved = gaps_c_locale_enter();
    write_header(f, attributes, n_attributes, weight_names, n_weights);
    gaps_c_locale_leave(saved);
}

void gaps_hepmc_write_event(FILE *f, const gaps_process *proc, const gaps_records *r, int i,
                            const gaps_hepmc_xsec *xs)
{
    gaps_hepmc_write_event_named(f, proc, r, i, xs, NULL, NULL, 0);
}

void gaps_hepmc_write_event_named(FILE *f, const gaps_process *proc, const gaps_records *r,
                                  int i, const gaps_hepmc_xsec *xs, const double *w,
                                  const double *xs_w, int n_weights)
{
    const gaps_c_locale saved = gaps_c_locale_enter();
    write_event(f, proc, r, i, xs, w, xs_w, n_weights);
    gaps_c_locale_leave(saved);
}

void gaps_hepmc_write_footer(FILE *f)
{
    const gaps_c_locale saved = gaps_c_locale_enter();
    write_footer(f);
    gaps_c_locale_leave(saved);
}
