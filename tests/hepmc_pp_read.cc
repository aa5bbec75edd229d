// hepmc_pp_read.cc -- hadron-collision events of gaps's HepMC3 writer read back by HepMC3's own
// ReaderAscii (tests/test_pp_processes.c writes the file from p p -> Z and p p -> e- e+ hard
// events; src/io/hepmc.c).
//
// Usage: hepmc_pp_read EVENTS.hepmc MIN_EVENTS
//
// Each event must have: two proton beams (status 4) of sqrt(s)/2; two incoming partons
// (status 21), each a child of the beam it moves along, whose other child is its remnant (PDG
// 82, status 1, beam minus parton); a hard vertex with those two as its incoming particles
// whose outgoing momenta add up to theirs; every other final particle (status 1) made in the
// hard vertex or in the decay of a Z/gamma* (PDG 23, status 62), whose momentum is the sum of
// its decay products; a colour-singlet q qbar pair (flow1 of the quark = flow2 of the
// antiquark).  Exit status: 0 pass, 1 a check failed, 2 usage or unreadable input.
#include <HepMC3/Attribute.h>
#include <HepMC3/GenEvent.h>
#include <HepMC3/GenParticle.h>
#include <HepMC3/GenVertex.h>
#include <HepMC3/ReaderAscii.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>

static int failures = 0;

static void fail(long event, const char *what)
{
    if (failures < 20) std::cout << "FAIL event " << event << ": " << what << "\n";
    ++failures;
}

static bool close(const HepMC3::FourVector &a, const HepMC3::FourVector &b, double scale)
{
    return std::fabs(a.e() - b.e()) <= 1e-12 * scale && std::fabs(a.px() - b.px()) <= 1e-12 * scale
           && std::fabs(a.py() - b.py()) <= 1e-12 * scale
           && std::fabs(a.pz() - b.pz()) <= 1e-12 * scale;
}

static int flow(const HepMC3::ConstGenParticlePtr &p, const char *name)
{
    auto a = p->attribute<HepMC3::IntAttribute>(name);
    return a ? a->value() : 0;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        std::cerr << "usage: hepmc_pp_read EVENTS.hepmc MIN_EVENTS\n";
        return 2;
    }
    HepMC3::ReaderAscii reader(argv[1]);
    if (reader.failed()) {
        std::cerr << "hepmc_pp_read: cannot open " << argv[1] << "\n";
        return 2;
    }
    long n = 0, with_boson = 0;
    while (true) {
        HepMC3::GenEvent evt;
        if (!reader.read_event(evt) || reader.failed()) break;
        if (evt.particles().empty()) break;
        const long id = evt.event_number();
        ++n;
        int beams = 0, incoming = 0;
        HepMC3::ConstGenVertexPtr hard;
        HepMC3::ConstGenParticlePtr quark, antiquark;
        for (const auto &p : evt.particles()) {
            if (p->status() == 4) {
                ++beams;
                if (p->pid() != 2212 || std::fabs(p->momentum().e() - 6500.0) > 1e-9)
                    fail(id, "beam is not a 6500 GeV proton");
            } else if (p->status() == 21) {
                ++incoming;
                auto pv = p->production_vertex();
                if (!pv || pv->particles_in().size() != 1 || pv->particles_in()[0]->status() != 4)
                    fail(id, "incoming parton does not come from a beam");
                else {
                    const auto &beam = pv->particles_in()[0];
                    if (beam->momentum().pz() * p->momentum().pz() <= 0.0)
                        fail(id, "incoming parton does not move along its beam");
                    int remnants = 0;
                    for (const auto &r : pv->particles_out())
                        if (r->pid() == 82 && r->status() == 1) {
                            ++remnants;
                            if (!close(r->momentum(), beam->momentum() - p->momentum(),
                                       beam->momentum().e()))
                                fail(id, "remnant is not beam minus incoming parton");
                        }
                    if (remnants != 1 || pv->particles_out().size() != 2)
                        fail(id, "beam's vertex: not one incoming parton and one remnant");
                }
                if (!p->end_vertex()) fail(id, "incoming parton ends nowhere");
                else if (!hard) hard = p->end_vertex();
                else if (hard != p->end_vertex()) fail(id, "incoming partons meet in two vertices");
                if (p->pid() > 0) quark = p;
                else antiquark = p;
            }
        }
        if (beams != 2 || incoming != 2 || !hard || !quark || !antiquark) {
            fail(id, "not two beams and two incoming partons in one hard vertex");
            continue;
        }
        if (flow(quark, "flow1") == 0 || flow(quark, "flow1") != flow(antiquark, "flow2")
            || flow(quark, "flow2") != 0 || flow(antiquark, "flow1") != 0)
            fail(id, "the q qbar pair is not a colour singlet (flow1 of q = flow2 of qbar)");
        HepMC3::FourVector in, out;
        for (const auto &p : hard->particles_in()) in += p->momentum();
        for (const auto &p : hard->particles_out()) out += p->momentum();
        if (!close(in, out, in.e())) fail(id, "momentum not conserved in the hard vertex");
        for (const auto &p : evt.particles()) {
            if (p->status() == 62) {
                ++with_boson;
                if (p->pid() != 23 || p->production_vertex() != hard || !p->end_vertex())
                    fail(id, "decayed particle is not a Z/gamma* from the hard vertex");
                else {
                    HepMC3::FourVector sum;
                    for (const auto &d : p->end_vertex()->particles_out()) sum += d->momentum();
                    if (p->end_vertex()->particles_out().size() != 2
                        || !close(sum, p->momentum(), p->momentum().e()))
                        fail(id, "Z/gamma* is not the sum of its two decay products");
                    if (std::fabs(p->generated_mass() - p->momentum().m()) > 1e-9)
                        fail(id, "Z/gamma* generated mass");
                }
            } else if (p->status() == 1 && p->pid() != 82) {
                auto pv = p->production_vertex();
                if (!pv || (pv != hard && !(pv->particles_in().size() == 1
                                            && pv->particles_in()[0]->status() == 62)))
                    fail(id, "final particle from neither the hard vertex nor a decay");
            } else if (p->status() != 1 && p->status() != 4 && p->status() != 21) {
                fail(id, "a status other than 1, 4, 21, 62");
            }
        }
    }
    const long min_events = std::atol(argv[2]);
    if (n < min_events) {
        std::cout << "FAIL read " << n << " events, expected at least " << min_events << "\n";
        ++failures;
    }
    std::cout << "hepmc_pp_read: " << n << " events read by HepMC3 (" << with_boson
              << " with a decayed Z/gamma*, status 62): " << (failures ? "FAILED" : "passed") << "\n";
    return failures ? 1 : 0;
}
