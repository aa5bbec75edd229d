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

/* Hadron collisions.  Incoming partons keep their physical colours in the pool; the shower
 * sees them crossed into the final state (an incoming quark's colour is the crossed
 * antiquark's anticolour), so that a dipole is always "colour of one = anticolour of the
 * other" and the owner maps are indexed by crossed colours.  n_in: the incoming rows. */
GAPS_ALWAYS_INLINE int gaps_xcol(const gaps_pool *pool, int e, int p, int n_in)
{
    return p < n_in ? pool->acol[gaps_at(pool, p, e)] : pool->col[gaps_at(pool, p, e)];
}

GAPS_ALWAYS_INLINE int gaps_xacol(const gaps_pool *pool, int e, int p, int n_in)
{
    return p < n_in ? pool->col[gaps_at(pool, p, e)] : pool->acol[gaps_at(pool, p, e)];
}

/* Give parton p the crossed colours (c, a) and register it in the owner maps. */
GAPS_ALWAYS_INLINE void gaps_set_xcolours(gaps_pool *pool, int e, int p, int n_in, int c, int a)
{
    pool->col[gaps_at(pool, p, e)] = p < n_in ? a : c;
    pool->acol[gaps_at(pool, p, e)] = p < n_in ? c : a;
    if (c > 0) pool->col_owner[gaps_at(pool, c, e)] = p;
    if (a > 0) pool->acol_owner[gaps_at(pool, a, e)] = p;
}

/* The colours of a backward step of incoming parton i (crossed colours (a, b)) on its dipole
 * side `side`, emitting outgoing parton j; kernel and the new incoming flavour nf as in
 * enum gaps_kernel; `tag` a fresh tag.  Returns 1 if the tag was used.
 *   I_QQ, I_GG (a gluon emitted): as a final-state emitter along that side,
 *       side 0: (a, b) -> (tag, b) + g (a, tag);  side 1: (a, b) -> (a, tag) + g (tag, b)
 *   I_GQ (the quark came from a gluon): quark (0, b) -> g (tag, b) + qbar (0, tag);
 *       antiquark (a, 0) -> g (a, tag) + q (tag, 0)
 *   I_QG (the gluon came from a quark nf, emitted too): nf > 0: (a, b) -> q (0, b) + q (a, 0);
 *       nf < 0: (a, b) -> qbar (a, 0) + qbar (0, b) */
GAPS_ALWAYS_INLINE int gaps_colour_backward(gaps_pool *pool, int e, int i, int j, int n_in,
                                            int side, int kernel, int nf, int tag)
{
    const int a = gaps_xcol(pool, e, i, n_in), b = gaps_xacol(pool, e, i, n_in);
    switch (kernel) {
    case GAPS_KERNEL_I_QQ:
    case GAPS_KERNEL_I_GG:
        if (side == 0) {
            gaps_set_xcolours(pool, e, i, n_in, tag, b);
            gaps_set_xcolours(pool, e, j, n_in, a, tag);
        } else {
            gaps_set_xcolours(pool, e, i, n_in, a, tag);
            gaps_set_xcolours(pool, e, j, n_in, tag, b);
        }
        return 1;
    case GAPS_KERNEL_I_GQ:
        if (b > 0) {
            gaps_set_xcolours(pool, e, i, n_in, tag, b);
            gaps_set_xcolours(pool, e, j, n_in, 0, tag);
        } else {
            gaps_set_xcolours(pool, e, i, n_in, a, tag);
            gaps_set_xcolours(pool, e, j, n_in, tag, 0);
        }
        return 1;
    default:
        if (nf > 0) {
            gaps_set_xcolours(pool, e, i, n_in, 0, b);
            gaps_set_xcolours(pool, e, j, n_in, a, 0);
        } else {
            gaps_set_xcolours(pool, e, i, n_in, a, 0);
            gaps_set_xcolours(pool, e, j, n_in, 0, b);
        }
        return 0;
    }
}

GAPS_DEVICE_END

#endif
