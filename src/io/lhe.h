/* lhe.h -- reading Les Houches Event files (LHEF 1.0, 2.0 and 3.0): the hard events of
 * another generator (MadGraph5_aMC@NLO, POWHEG-BOX, Sherpa, Pythia 8 write them), for
 * `gaps lhe-check` and for a shower that starts from them.
 *
 * The reader streams: it holds one line and fixed buffers (about 1.2 MB in all, whatever the
 * file's length), never the file, and fills one caller-owned event at a time.  The input is a
 * regular file, a FIFO (a pipe from the generator, `<(zcat ...)`) or standard input ("-"),
 * plain text or gzip-compressed: gzip is recognised by its first two bytes (1f 8b), not by
 * the name, and decompressed as it is read (zlib's inflate, concatenated members allowed).
 *
 * Use:
 *
 *   gaps_lhe_reader *r = gaps_lhe_open(path, &status, msg, sizeof msg);   reads up to </init>
 *   const gaps_lhe_init *init = gaps_lhe_init_of(r);     beams, PDFs, IDWTUP, processes, ...
 *   static gaps_lhe_event ev;                            about 55 kB: not on a small stack
 *   while ((rc = gaps_lhe_read_event(r, &ev, msg, sizeof msg)) == GAPS_LHE_EVENT)
 *       ... gaps_lhe_showerable(init, &ev, capacity, why, sizeof why, &line) ...
 *   gaps_lhe_close(r);
 *
 * rc is then GAPS_LHE_END (the file ended properly with </LesHouchesEvents>), or an error:
 * GAPS_LHE_INVALID (the file is not a valid event file: `gaps lhe-check` exits 2) or
 * GAPS_LHE_FAILED (the system failed: memory, a read error of the device; exit 1).  Every
 * message is one line "FILE:LINE: what is wrong" (FILE as given, "standard input" for "-";
 * LINE counts the lines of the decompressed text from 1).  After an error the reader only
 * repeats it.
 *
 * What is read, what is checked and with which tolerances: doc/formats.md, "Les Houches
 * Event files (read)".  In short, every event that gaps_lhe_read_event returns has:
 * NUP particle lines of 13 finite numbers, known status codes (-1, 1, 2, 3, -2, -9), mother
 * indices inside the event and never a final-state particle, colour only on quarks
 * (|id| 1..6) and gluons (21), closed colour lines, colour carried through each resonance
 * to its decay products, and four-momentum conserved between the incoming (status -1) and
 * the final-state (status 1) particles to 1e-6 of the incoming energy.
 */
#ifndef GAPS_LHE_H
#define GAPS_LHE_H

#include <stddef.h>

#define GAPS_LHE_MAX_PARTICLES 512    /* NUP per event */
#define GAPS_LHE_MAX_WEIGHTS 256      /* weights per event (<rwgt> or <weights>) */
#define GAPS_LHE_MAX_PROCESSES 100    /* NPRUP (the accord's MAXPUP) */
#define GAPS_LHE_MAX_GROUPS 64        /* <weightgroup>s of the declared weights */
#define GAPS_LHE_NAME_MAX 128         /* bytes of a weight id, group, generator or PDF name,
                                         with the terminating NUL */
#define GAPS_LHE_LINE_MAX (1 << 20)   /* bytes of one line */
#define GAPS_LHE_TAG_OFFSET 500       /* a gaps-written file's colour tags: the record's + 500
                                         (the accord's custom, tags above MAXNUP) */

/* The reader's outcomes (gaps_lhe_open's *status, gaps_lhe_read_event's value). */
enum gaps_lhe_status {
    GAPS_LHE_EVENT = 1,       /* an event was read */
    GAPS_LHE_END = 0,         /* </LesHouchesEvents>: no more events, nothing after it */
    GAPS_LHE_INVALID = -1,    /* the input is not a valid event file (message) */
    GAPS_LHE_FAILED = -2      /* the system failed: memory, a read error (message) */
};

/* One process of <init>: a line XSECUP XERRUP XMAXUP LPRUP. */
typedef struct gaps_lhe_process {
    double xsec;              /* XSECUP, pb */
    double xerr;              /* XERRUP, pb */
    double xmax;              /* XMAXUP: the largest event weight */
    int id;                   /* LPRUP: what the events' IDPRUP refer to */
} gaps_lhe_process;

/* Where the weights of the events get their names. */
enum gaps_lhe_weight_names {
    GAPS_LHE_NAMES_NONE = 0,      /* no weights besides XWGTUP, or <weights> without names */
    GAPS_LHE_NAMES_INITRWGT,      /* <initrwgt> (header or init): <weight id="..."> */
    GAPS_LHE_NAMES_WEIGHTINFO,    /* <weightinfo name="..."> in <init> (LHEF 2.0, 3.0) */
    GAPS_LHE_NAMES_FIRST_EVENT    /* undeclared: the ids of the first event's <wgt id=...> */
};

/* How the events carry their extra weights. */
enum gaps_lhe_weight_form {
    GAPS_LHE_WEIGHTS_NONE = 0,    /* none: XWGTUP only */
    GAPS_LHE_WEIGHTS_RWGT,        /* <rwgt><wgt id="...">w</wgt>...</rwgt> (LHEF 3.0) */
    GAPS_LHE_WEIGHTS_LIST         /* <weights>w1 w2 ...</weights> (LHEF 2.0, 3.0) */
};

/* What the file says before its events: the <LesHouchesEvents> tag, the header's weight
 * declarations, generator and PDF name, and the <init> block. */
typedef struct gaps_lhe_init {
    char version[8];              /* "1.0", "2.0" or "3.0" */
    int beam_id[2];               /* IDBMUP: PDG codes of the beams (beam 1 along +z) */
    double beam_energy[2];        /* EBMUP, GeV */
    double sqrt_s;                /* 2 sqrt(E1 E2), GeV: head-on beams, masses neglected */
    int pdf_group[2];             /* PDFGUP (old PDFLIB group; usually 0 or -1) */
    int pdf_set[2];               /* PDFSUP: the LHAPDF ID of each beam's PDF set */
    int weighting;                /* IDWTUP: +-3 (unweighted) or +-4 (weighted); the sign
                                     allows negative weights */
    int n_processes;              /* NPRUP, 1..GAPS_LHE_MAX_PROCESSES */
    gaps_lhe_process process[GAPS_LHE_MAX_PROCESSES];
    char generator[GAPS_LHE_NAME_MAX];           /* the first <generator name=...> (in
                                                    <init>, or the header), "" if none */
    char generator_version[GAPS_LHE_NAME_MAX];   /* its version=..., "" if none */
    char pdf_name[GAPS_LHE_NAME_MAX];  /* a PDF set named in the header ("" if none): the
                                          name of a <weightgroup> whose combine= is a PDF
                                          error type (replicas, hessian, ...) */
    /* The extra weights of each event, in the order of weight[] of gaps_lhe_event. */
    int n_weights;                /* weights per event, 0..GAPS_LHE_MAX_WEIGHTS */
    enum gaps_lhe_weight_form weight_form;
    enum gaps_lhe_weight_names weight_names;
    char weight_id[GAPS_LHE_MAX_WEIGHTS][GAPS_LHE_NAME_MAX];   /* "" where unnamed */
    int weight_group[GAPS_LHE_MAX_WEIGHTS];    /* index into group_name, or -1 */
    int n_groups;
    char group_name[GAPS_LHE_MAX_GROUPS][GAPS_LHE_NAME_MAX];
    /* A file written by gaps --lhe-out (doc/formats.md, "Les Houches Event files
     * (written)"): its header's <gaps process=... weight_unit=.../> */
    int gaps_written;             /* 1 if the header has the element */
    char gaps_process[32];        /* the built-in process that made the events */
    double gaps_w_unit;           /* the weight unit of that run's sums, pb */
    int gaps_has_seed;            /* 1 if it names the run's seed */
    unsigned gaps_seed;           /* that run's --seed */
    int gzip;                     /* 1 if the input was gzip-compressed */
    long init_line;               /* line of <init> */
} gaps_lhe_init;

/* One particle line: IDUP ISTUP MOTHUP(1) MOTHUP(2) ICOLUP(1) ICOLUP(2) PUP(1..5) VTIMUP
 * SPINUP. */
typedef struct gaps_lhe_particle {
    int id;                       /* IDUP, PDG code */
    int status;                   /* ISTUP: -1 incoming, 1 final state, 2 intermediate
                                     resonance (its mass kept), 3 intermediate (for
                                     documentation), -2 space-like propagator, -9 beam */
    int mother[2];                /* MOTHUP: first and last mother, 1-based; 0 for none */
    int colour[2];                /* ICOLUP: colour and anticolour tag; 0 for none */
    double p[4];                  /* PUP(1..4): px, py, pz, E in GeV */
    double mass;                  /* PUP(5): generated mass, GeV */
    double lifetime;              /* VTIMUP: c tau, mm */
    double spin;                  /* SPINUP: cosine of the spin angle; 9 = unknown */
    long line;                    /* the file's line of this particle */
} gaps_lhe_particle;

/* One event: the first line NUP IDPRUP XWGTUP SCALUP AQEDUP AQCDUP, the NUP particles and
 * the extra weights.  Fixed capacity: reading an event allocates nothing. */
typedef struct gaps_lhe_event {
    long number;                  /* 0 for the file's first event */
    long line;                    /* line of its <event> tag */
    int n;                        /* NUP */
    int process_id;               /* IDPRUP, one of the LPRUP of <init> */
    double weight;                /* XWGTUP */
    double scale;                 /* SCALUP, GeV */
    double alpha_qed;             /* AQEDUP */
    double alpha_qcd;             /* AQCDUP */
    gaps_lhe_particle particle[GAPS_LHE_MAX_PARTICLES];   /* particle[0] is particle 1 */
    int n_weights;                /* = the init's n_weights */
    double weights[GAPS_LHE_MAX_WEIGHTS];   /* in the order of the init's weight_id */
    /* A gaps-written event's <gaps event=N draw=D t=T x1=X x2=X/>: what the shower needs to
     * continue the run that wrote it bit for bit (other readers ignore the element) */
    int has_gaps;                 /* 1 if the event has the element */
    long long gaps_event;         /* its event number in that run */
    unsigned gaps_draw;           /* the draw index of its random stream after the hard event */
    double gaps_t;                /* the shower's start scale, GeV^2 */
    double gaps_x[2];             /* the incoming partons' momentum fractions */
    long gaps_line;               /* the element's line */
} gaps_lhe_event;

typedef struct gaps_lhe_reader gaps_lhe_reader;

/* Open path ("-": standard input) and read everything up to and including </init>.  A FIFO
 * waits for its writer.  Returns the reader, or NULL with *status GAPS_LHE_INVALID or
 * GAPS_LHE_FAILED and a message "FILE:LINE: ..." in msg. */
gaps_lhe_reader *gaps_lhe_open(const char *path, int *status, char *msg, size_t len);

/* The file's init block and declarations.  n_weights and the weight names of a file that
 * declares none are set once the first event is read (GAPS_LHE_NAMES_FIRST_EVENT). */
const gaps_lhe_init *gaps_lhe_init_of(const gaps_lhe_reader *r);

/* The file's name as messages show it ("standard input" for "-"). */
const char *gaps_lhe_shown_name(const gaps_lhe_reader *r);

/* Read the next event into *ev: GAPS_LHE_EVENT, GAPS_LHE_END, or an error (enum
 * gaps_lhe_status) with its message in msg. */
int gaps_lhe_read_event(gaps_lhe_reader *r, gaps_lhe_event *ev, char *msg, size_t len);

/* Reading in parallel (program/lhe_feed.c).  The text after an event is cut into pieces
 * that each begin with a line that opens an <event>, never inside a comment, CDATA section
 * or processing instruction, and each piece's events are read by a reader of its own, on
 * any thread, with the checks of the serial reader.  A piece's reader cannot know the file's
 * line and event numbers; so whenever a piece's events are not exactly what the serial
 * reader would read (an error of any kind, a file's end inside it, an <eventgroup> state
 * other than the cutter's), the caller puts the text from that piece on back into the reader
 * (gaps_lhe_put_back) and reads on serially, which finds the same events and the same
 * error, with its line. */
typedef struct gaps_lhe_piece {
    char *text;               /* len bytes and a NUL; the caller frees it */
    size_t len, cap;
    int in_group;             /* inside an <eventgroup> at its start (the cutter's reading) */
    int end_group;            /* and at its end */
    int last;                 /* the input ends with it */
    int serial;               /* the cutter met a read error, or found no event for 64 MB:
                                 read this piece and the rest serially */
} gaps_lhe_piece;

/* Whether the reader can be cut from here: after an event, at the end of its line. */
int gaps_lhe_can_cut(gaps_lhe_reader *r);

/* Lines read so far; the line of the last <eventgroup> opened; the event group state of the
 * text the cutter holds. */
long gaps_lhe_lines(const gaps_lhe_reader *r);
long gaps_lhe_group_line(const gaps_lhe_reader *r);
int gaps_lhe_carry_group(const gaps_lhe_reader *r);

/* The next piece of the input into *pc (its text reused), of at least target bytes where
 * the input has them: 0, or -1 out of memory.  A read error is not returned: the piece is
 * marked serial and the serial reader meets it where it would have. */
int gaps_lhe_cut(gaps_lhe_reader *r, gaps_lhe_piece *pc, size_t target);

/* A reader of pieces for r's file (its init and weight names), NULL if out of memory; closed
 * with gaps_lhe_close.  gaps_lhe_piece_begin points it at a piece (which must stay while it
 * is read); gaps_lhe_read_event then reads its events and returns GAPS_LHE_END at the end of
 * a piece that is not the last; gaps_lhe_piece_end tells the state it ended in. */
gaps_lhe_reader *gaps_lhe_piece_reader(const gaps_lhe_reader *r);
void gaps_lhe_piece_begin(gaps_lhe_reader *p, const gaps_lhe_piece *pc);
void gaps_lhe_piece_end(const gaps_lhe_reader *p, int *in_group, int *ended, long *lines,
                        long *group_line);

/* Read on serially from text (the pieces not read, in order) as the reader would have: the
 * text's first line is line lines_before + 1, events_before events were read before it, the
 * event group state in_group (the group opened at line group_line).  0, or -1 out of
 * memory. */
int gaps_lhe_put_back(gaps_lhe_reader *r, const char *text, size_t len, long lines_before,
                      long events_before, int in_group, long group_line);

/* Close the input and free the reader (NULL: nothing). */
void gaps_lhe_close(gaps_lhe_reader *r);

/* The name of a beam particle the reader takes ("p", "pbar", "n", "nbar", "e-", "e+",
 * "mu-", "mu+", "gamma", "nucleus" for PDG 10LZZZAAAI), or NULL for any other PDG code: a
 * file whose IDBMUP is not one of them is refused. */
const char *gaps_lhe_beam_name(int id);

/* Why the built-in shower cannot start from an event, the first reason found, checked in
 * this order (gaps_lhe_showerable). */
enum gaps_lhe_refusal {
    GAPS_LHE_SHOWERABLE = 0,
    GAPS_LHE_TOO_MANY_PARTICLES,  /* more particles than the shower's record holds */
    GAPS_LHE_BEAMS,               /* beams other than p p, p pbar or e+ e- */
    GAPS_LHE_UNSUPPORTED_STATUS,  /* a status -9 (beam) or -2 (space-like propagator) line */
    GAPS_LHE_NOT_TWO_INCOMING,    /* a decay (one incoming particle) */
    GAPS_LHE_MASSIVE_COLOURED,    /* a top quark, or a quark or gluon with mass > 0.5 GeV */
    GAPS_LHE_EPSILON,             /* a colour tag on three partons (baryon number violation) */
    GAPS_LHE_COLOURED_DECAY,      /* a resonance that decays into quarks or gluons */
    GAPS_LHE_INCOMING_OFF_AXIS,   /* an incoming parton with transverse momentum */
    GAPS_LHE_MOMENTUM_FRACTION    /* an incoming parton with more energy than its beam */
};

/* The quark mass above which a quark is massive for the shower, GeV. */
#define GAPS_LHE_MASSLESS_BELOW 0.5

/* Can the built-in shower (massless partons, p p or e+ e- beams, records of at most
 * max_particles) start from this event?  GAPS_LHE_SHOWERABLE, or the first reason with a
 * one-line explanation for a user in why (without file or line) and the file's line it
 * concerns in *line. */
enum gaps_lhe_refusal gaps_lhe_showerable(const gaps_lhe_init *init, const gaps_lhe_event *ev,
                                          int max_particles, char *why, size_t len,
                                          long *line);

/* The colourless resonance (status 2, its one mother) whose decay final-state quark or gluon
 * i (0-based) of ev is: its 0-based index, or -1 where particle i is no such decay product.
 * The shower starts such a decay at the resonance's mass squared (doc/physics.md 13.7). */
int gaps_lhe_decay_resonance(const gaps_lhe_event *ev, int i);

#endif
