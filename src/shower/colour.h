/* shower/colour.h -- colour flow of an emission in the leading-colour approximation
 * (doc/physics.md section 3.8).
 *
 * Colours are integer tags (0 = none) with owner maps tag -> parton, so that a dipole's
 * spectator is found in O(1).  An emission either opens a new colour line (a gluon emitted
 * along one side of the emitter's dipole) or splits a gluon's two lines between a quark and
 * an antiquark.
 */
#ifndef GAPS_SHOWER_COLOUR_H
#define GAPS_SHOWER_COLOUR_H

#include "gaps/constants.h"
#include "gaps/event_pool.h"

GAPS_DEVICE_BEGIN

/* Emitter i emits gluon j on its dipole side `side` (0: along its colour a, 1: along its
 * anticolour b); the new line gets tag `tag`.
 *   side 0: emitter (a, b) -> emitter (tag, b) + gluon (a, tag)
 *   side 1: emitter (a, b) -> emitter (a, tag) + gluon (tag, b) */
GAPS_ALWAYS_INLINE void gaps_colour_emit_gluon(gaps_pool *pool, int e, int i, int j, int side, int tag)
{
    const int a = pool->col[gaps_at(pool, i, e)], b = pool->acol[gaps_at(pool, i, e)];
    pool->flav[gaps_at(pool, j, e)] = GAPS_GLUON;
    if (side == 0) {
        pool->col[gaps_at(pool, i, e)] = tag;
        pool->col[gaps_at(pool, j, e)] = a;
        pool->acol[gaps_at(pool, j, e)] = tag;
        pool->col_owner[gaps_at(pool, tag, e)] = i;
        pool->col_owner[gaps_at(pool, a, e)] = j;
        pool->acol_owner[gaps_at(pool, tag, e)] = j;
    } else {
        pool->acol[gaps_at(pool, i, e)] = tag;
        pool->col[gaps_at(pool, j, e)] = tag;
        pool->acol[gaps_at(pool, j, e)] = b;
        pool->acol_owner[gaps_at(pool, tag, e)] = i;
        pool->col_owner[gaps_at(pool, tag, e)] = j;
        pool->acol_owner[gaps_at(pool, b, e)] = j;
    }
}

/* Gluon i splits into a quark of flavour f (stays in row i) and its antiquark j:
 *   g (a, b) -> q (a, 0) + qbar (0, b) */
GAPS_ALWAYS_INLINE void gaps_colour_split_gluon(gaps_pool *pool, int e, int i, int j, int f)
{
    const int b = pool->acol[gaps_at(pool, i, e)];
    pool->flav[gaps_at(pool, i, e)] = f;
    pool->acol[gaps_at(pool, i, e)] = 0;
    pool->flav[gaps_at(pool, j, e)] = -f;
    pool->col[gaps_at(pool, j, e)] = 0;
    pool->acol[gaps_at(pool, j, e)] = b;
    pool->acol_owner[gaps_at(pool, b, e)] = j;
}

GAPS_DEVICE_END

#endif
