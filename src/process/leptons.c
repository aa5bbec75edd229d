/* leptons.c -- the lepton flavours of the Drell-Yan-like processes (pp-ll, pp-w): --leptons
 * on their hard events (process/processes.h). */
#include "gaps/constants.h"
#include "process/processes.h"

GAPS_DEVICE_BEGIN

void gaps_pp_lepton_flavour(int leptons, gaps_rng *rng, gaps_hard_event *ev)
{
    int mu = leptons == GAPS_LEPTONS_MU;
    if (leptons == GAPS_LEPTONS_E_MU) {
        mu = gaps_rng_uniform(rng) < 0.5;
        ev->weight *= 2.0;   /* a power of two: exact */
    }
    if (!mu) return;
    for (int r = 2; r < 4; ++r) {
        /* e -> mu, nu_e -> nu_mu, the sign (particle or antiparticle) kept */
        const int f = ev->flav[r], af = f < 0 ? -f : f, sgn = f < 0 ? -1 : 1;
        ev->flav[r] = sgn * (af == GAPS_PDG_ELECTRON ? GAPS_PDG_MUON : GAPS_PDG_NU_MU);
    }
}

GAPS_DEVICE_END
