/* shower/kinematics.h -- momentum maps of an accepted emission, as pure functions on
 * four-vectors (doc/physics.md section 3.7).
 *
 * Four-vectors are double[4] = (E, px, py, pz) in GeV.  The maps are named after the
 * Catani-Seymour dipole types: gaps_map_ff() takes a final-state emitter i and a final-state
 * spectator k to the three final-state momenta of the splitting.  They read and write plain
 * arrays, never the event pool, so that the same map can build the shower's emission and, at
 * next-to-leading order, the subtraction dipoles' reduced kinematics.
 */
#ifndef GAPS_SHOWER_KINEMATICS_H
#define GAPS_SHOWER_KINEMATICS_H

#include <math.h>

#include "gaps/fpmath.h"
#include "gaps/decl.h"

GAPS_DEVICE_BEGIN

/* Minkowski product a.b. */
GAPS_ALWAYS_INLINE double gaps_mdot(const double a[4], const double b[4])
{
    return a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
}

GAPS_ALWAYS_INLINE void gaps_cross3(const double a[3], const double b[3], double c[3])
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

/* Two unit space-like four-vectors n1, n2 orthogonal to the massless pi, pk and to each other.
 *
 * n1 = (0, u) with u = pi x pk (three-vectors) is orthogonal to both; when pi and pk are
 * (anti)parallel u is taken orthogonal to pi and a fixed coordinate axis instead, and n1 is
 * then projected onto the space orthogonal to pi and pk so that rounding never leaves a
 * component along them (which would give the new partons a mass).
 * n2 = (u . (pi x pk), Ei (pk x u) - Ek (pi x u)) is orthogonal to pi, pk and (0, u) for any u,
 * an identity of the triple product; unlike the time axis minus its projections it needs no
 * cancellation between large terms when pi and pk are nearly back to back. */
GAPS_ALWAYS_INLINE void gaps_transverse_basis(const double pi[4], const double pk[4], double n1[4],
                                         double n2[4])
{
    const double *vi = pi + 1, *vk = pk + 1;
    double u[3], c[3], a[3], b[3];
    gaps_cross3(vi, vk, u);
    gaps_cross3(vi, vk, c);
    const double u2 = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
    const double vi2 = vi[0] * vi[0] + vi[1] * vi[1] + vi[2] * vi[2];
    const double vk2 = vk[0] * vk[0] + vk[1] * vk[1] + vk[2] * vk[2];
    if (!(u2 > 1e-12 * vi2 * vk2)) {   /* reference axis: the one least aligned with pi */
        const double ax = fabs(vi[0]), ay = fabs(vi[1]), az = fabs(vi[2]);
        const double ref[3] = { (ax <= ay && ax <= az) ? 1.0 : 0.0,
                                (ay < ax && ay <= az) ? 1.0 : 0.0,
                                (az < ax && az < ay) ? 1.0 : 0.0 };
        gaps_cross3(vi, ref, u);
    }
    n1[0] = 0.0;
    n1[1] = u[0]; n1[2] = u[1]; n1[3] = u[2];
    const double pipk = gaps_mdot(pi, pk);
    const double ai = gaps_mdot(n1, pk) / pipk, ak = gaps_mdot(n1, pi) / pipk;
    for (int m = 0; m < 4; ++m) n1[m] -= ai * pi[m] + ak * pk[m];
    const double norm1 = 1.0 / sqrt(-gaps_mdot(n1, n1));
    for (int m = 0; m < 4; ++m) n1[m] *= norm1;

    gaps_cross3(vk, u, a);
    gaps_cross3(vi, u, b);
    n2[0] = u[0] * c[0] + u[1] * c[1] + u[2] * c[2];
    for (int m = 0; m < 3; ++m) n2[m + 1] = pi[0] * a[m] - pk[0] * b[m];
    const double norm2 = 1.0 / sqrt(-gaps_mdot(n2, n2));
    for (int m = 0; m < 4; ++m) n2[m] *= norm2;
}

/* Final-final map: emitter pi and spectator pk (massless, final state) to the emitter qi, the
 * emitted parton qj and the spectator qk for the splitting variables z, y and the azimuth phi
 * about the dipole axis:
 *   qi = z pi + (1 - z) y pk + k_perp,   qj = (1 - z) pi + z y pk - k_perp,   qk = (1 - y) pk
 * with k_perp^2 = -k_T^2 = -2 pi.pk y z (1 - z).  The map conserves pi + pk exactly in exact
 * arithmetic and leaves all three momenta massless. */
GAPS_ALWAYS_INLINE void gaps_map_ff(const double pi[4], const double pk[4], double z, double y,
                               double phi, double qi[4], double qj[4], double qk[4])
{
    double n1[4], n2[4];
    gaps_transverse_basis(pi, pk, n1, n2);
    const double m2 = 2.0 * gaps_mdot(pi, pk);
    const double kt = sqrt(m2 * y * z * (1.0 - z));
    double sphi, cphi;
    gaps_sincos(phi, &sphi, &cphi);
    const double c = kt * cphi, s = kt * sphi;
    for (int m = 0; m < 4; ++m) {
        const double kperp = c * n1[m] + s * n2[m];
        qi[m] = z * pi[m] + (1.0 - z) * y * pk[m] + kperp;
        qj[m] = (1.0 - z) * pi[m] + z * y * pk[m] - kperp;
        qk[m] = (1.0 - y) * pk[m];
    }
}

/* k_perp = k_T (cos phi n1 + sin phi n2), orthogonal to pi and pk, k_perp^2 = -k_T^2. */
GAPS_ALWAYS_INLINE void gaps_kperp(const double pi[4], const double pk[4], double kt, double phi,
                                   double kp[4])
{
    double n1[4], n2[4], sphi, cphi;
    gaps_transverse_basis(pi, pk, n1, n2);
    gaps_sincos(phi, &sphi, &cphi);
    for (int m = 0; m < 4; ++m) kp[m] = kt * (cphi * n1[m] + sphi * n2[m]);
}

/* Final-initial map: final emitter pi, incoming spectator pk (its physical momentum) to the
 * final qi, qj and the new incoming spectator qk = pk / x, for the variables z and x with
 * k_T^2 = 2 pi.pk z (1 - z) (1 - x)/x:
 *   qi = z pi + (1-z)(1-x)/x pk + k_perp,   qj = (1-z) pi + z (1-x)/x pk - k_perp
 * so that qi + qj - qk = pi - pk. */
GAPS_ALWAYS_INLINE void gaps_map_fi(const double pi[4], const double pk[4], double z, double x,
                                    double kt2, double phi, double qi[4], double qj[4],
                                    double qk[4])
{
    double kp[4];
    gaps_kperp(pi, pk, sqrt(kt2), phi, kp);
    const double r = (1.0 - x) / x;
    for (int m = 0; m < 4; ++m) {
        qi[m] = z * pi[m] + (1.0 - z) * r * pk[m] + kp[m];
        qj[m] = (1.0 - z) * pi[m] + z * r * pk[m] - kp[m];
        qk[m] = pk[m] / x;
    }
}

/* Initial-final map: incoming emitter pa (physical momentum), final spectator pk to the new
 * incoming qa = pa / x, the emitted qj and the spectator qk, for x and u with
 * k_T^2 = 2 pa.pk u (1 - u) (1 - x)/x:
 *   qj = (1-u)(1-x)/x pa + u pk - k_perp,   qk = u (1-x)/x pa + (1-u) pk + k_perp
 * so that qj + qk - qa = pk - pa. */
GAPS_ALWAYS_INLINE void gaps_map_if(const double pa[4], const double pk[4], double x, double u,
                                    double kt2, double phi, double qa[4], double qj[4],
                                    double qk[4])
{
    double kp[4];
    gaps_kperp(pa, pk, sqrt(kt2), phi, kp);
    const double r = (1.0 - x) / x;
    for (int m = 0; m < 4; ++m) {
        qa[m] = pa[m] / x;
        qj[m] = (1.0 - u) * r * pa[m] + u * pk[m] - kp[m];
        qk[m] = u * r * pa[m] + (1.0 - u) * pk[m] + kp[m];
    }
}

/* Initial-initial map: incoming emitter pa and spectator pb to the new incoming qa = pa / x
 * and the emitted qj, for x and v with k_T^2 = 2 pa.pb v (1 - x - v)/x:
 *   qj = (1-x-v)/x pa + v pb - k_perp;  pb stays.
 * The momentum K~ = pa + pb that the rest of the final state carried becomes
 * K = qa + pb - qj (K^2 = K~^2): gaps_boost_ii() moves every other final particle along. */
GAPS_ALWAYS_INLINE void gaps_map_ii(const double pa[4], const double pb[4], double x, double v,
                                    double kt2, double phi, double qa[4], double qj[4])
{
    double kp[4];
    gaps_kperp(pa, pb, sqrt(kt2), phi, kp);
    const double r = (1.0 - x - v) / x;
    for (int m = 0; m < 4; ++m) {
        qa[m] = pa[m] / x;
        qj[m] = r * pa[m] + v * pb[m] - kp[m];
    }
}

/* The Lorentz transformation taking K~ to K (equal masses) that Catani and Seymour give for
 * the initial-initial dipole, applied to q in place:
 *   q -> q - 2 (K + K~).q / (K + K~)^2 (K + K~) + 2 K~.q / K^2 K */
GAPS_ALWAYS_INLINE void gaps_boost_ii(const double Kt[4], const double K[4], double q[4])
{
    double S[4];
    for (int m = 0; m < 4; ++m) S[m] = K[m] + Kt[m];
    const double a = 2.0 * gaps_mdot(S, q) / gaps_mdot(S, S), b = 2.0 * gaps_mdot(Kt, q) / gaps_mdot(K, K);
    for (int m = 0; m < 4; ++m) q[m] += -a * S[m] + b * K[m];
}

GAPS_DEVICE_END

#endif
