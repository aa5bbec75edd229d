/* record_particles.h -- what the writers of events (src/io/hepmc.c, src/io/lhe_write.c) ask of
 * a row of an event record: is it a parton, the charge of a lepton, the invariant mass. */
#ifndef GAPS_IO_RECORD_PARTICLES_H
#define GAPS_IO_RECORD_PARTICLES_H

#include <math.h>
#include "gaps/constants.h"

/* A quark (|PDG| 1 to 6) or a gluon: a parton of the shower. */
static inline int gaps_record_is_parton(int flav)
{
    return flav == GAPS_GLUON || (flav != 0 && flav >= -6 && flav <= 6);
}

/* The electric charge of a colourless particle of the record in units of e: -1 for the charged
 * leptons (e-, mu-, tau-), +1 for their antiparticles, 0 for neutrinos and anything else; what
 * gives a decayed charged boson its sign. */
static inline int gaps_record_lepton_charge(int flav)
{
    const int af = flav < 0 ? -flav : flav;
    if (af != 11 && af != 13 && af != 15) return 0;
    return flav > 0 ? -1 : 1;
}

/* The invariant mass of p = (E, px, py, pz), 0 where rounding makes p^2 negative. */
static inline double gaps_record_mass(const double p[4])
{
    const double m2 = p[0] * p[0] - p[1] * p[1] - p[2] * p[2] - p[3] * p[3];
    return sqrt(m2 > 0.0 ? m2 : 0.0);
}

#endif
