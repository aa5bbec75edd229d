/* gaps/hard_batch.h -- hard events handed to the generator from outside, a batch at a time.
 *
 * A process whose row of GAPS_PROCESSES says source LHE (gaps/process.h) draws nothing: its
 * hard events are read by the program from a Les Houches Event file (--lhe FILE) and handed
 * to the generator through gaps_hooks.hard_events (gaps/generator.h), one batch of consecutive
 * event numbers per segment.  The generator copies the batch to where the loops run; each
 * event's shower then starts from its entry (gaps_shower_start, src/shower/veto.c).
 *
 * Plain arrays, structure of arrays as the pool's: entry i (event number first + i) owns the
 * rows row0[i] .. row0[i + 1] - 1 of the row arrays, incoming partons first, as a built-in
 * process's gaps_hard_event orders them.  Colour tags run from 1 to next_tag - 1 within each
 * event, physical colours for incoming partons too (a quark's colour in col, its anticolour
 * in acol), as gaps_hard_event has them.
 */
#ifndef GAPS_HARD_BATCH_H
#define GAPS_HARD_BATCH_H

#include <stdint.h>
#include "gaps/decl.h"

GAPS_C_BEGIN

typedef struct gaps_hard_batch {
    int64_t first;          /* event number of entry 0 */
    int count;              /* entries filled */
    int capacity;           /* entries the arrays hold */
    int row_capacity;       /* rows the row arrays hold */
    /* per entry (capacity; row0 capacity + 1) */
    int32_t *row0;          /* first row of entry i; row0[count] = rows in use */
    int32_t *n_in;          /* incoming partons (0 or 2), the entry's first rows */
    int32_t *next_tag;      /* the first colour tag not used */
    uint32_t *draw;         /* where the shower's random stream starts: 0, or the draw index
                               after the hard event of a gaps-written file (round trip) */
    double *weight;         /* pb */
    double *t_start;        /* the shower's start scale, GeV^2: the largest of its rows' */
    double *x;              /* 2 per entry: momentum fractions of the incoming partons */
    /* per row (row_capacity) */
    double *p;              /* 4 per row: (E, px, py, pz), GeV */
    int32_t *flav, *col, *acol;
    double *t_start_row;    /* the k_T^2 (GeV^2) below which the row's dipoles start: the
                               event's SCALUP^2, or for a product of a colourless resonance
                               the resonance's mass squared (doc/physics.md 13.7) */
} gaps_hard_batch;

GAPS_C_END

#endif
