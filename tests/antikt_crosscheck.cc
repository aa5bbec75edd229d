// antikt_crosscheck.cc -- the LHC analysis's anti-k_T (src/analysis/antikt.c) against FastJet.
//
// What is compared, and why this comparison.  GAPS 2.1's anti-k_T (doc/physics.md section 13)
// measures Delta R with the *pseudorapidity* eta = -ln tan(theta/2); FastJet's
// antikt_algorithm uses the *rapidity* y = (1/2) ln((E + pz)/(E - pz)).  For the massless
// partons of the input the two are equal, but every merged cluster is massive (E-scheme),
// and from the first merging on eta != y for it: the two algorithms then cluster differently
// wherever a distance involving a merged cluster falls on the other side of a rival one.
// Comparing gaps_antikt() with plain fastjet::antikt_algorithm would test the difference
// between two definitions, not the code.
//
// The comparison that is right: FastJet's own antikt_algorithm (its clustering engine, its
// distances, its bookkeeping) with a recombiner that keeps the E-scheme 3-momentum of a
// merged cluster but sets its energy to |p| (MasslessProjection below).  Such a cluster has
// the pT, the azimuth and the 3-momentum direction of the E-scheme cluster, and its rapidity
// *is* the E-scheme cluster's pseudorapidity (y = eta when E = |p|), so FastJet's
// d_ij = min(pT_i^-2, pT_j^-2) (Delta y^2 + Delta phi^2)/R^2 and d_iB = pT_i^-2 are exactly
// GAPS's distances, step after step.  The E-scheme energy of a jet is then restored as the
// sum of its constituents' energies (cs.constituents()).  (FastJet's plugin route, its
// generic nearest-neighbour engine NNH or plugin_simple_N2_cluster, would do as well, but
// Debian's libfastjet-dev 3.4.0 lacks the headers they need, NNBase.hh and
// ClusterSequence_N2.icc.)  Required to 1e-10 relative (every four-momentum component of
// every jet, in units of the jet's energy; the same number of jets):
//   (A) plain anti-k_T, R = 0.4: gaps_antikt(n, p, 0.4, no jet limit, d_max = +inf) against
//       FastJet's inclusive jets;
//   (B) GAPS's rules: at most 10 jets, nothing at d >= 1e6 GeV^-2 (what the analysis uses):
//       FastJet's clustering history read in order and stopped where GAPS stops (the first
//       step with d >= 1e6, or the 10th jet), its jets being those made before.
// And against the standard fastjet::antikt_algorithm with the E-scheme (rapidity), for what
// they share: (C) the first clustering step (all clusters still massless partons, so
// eta = y) must be the same step (same pair, or same jet) with the same distance to 1e-10;
// and the fraction of events whose final jets also agree is printed, with the largest
// deviation where they do not, to show where the two definitions part.
//
// Events: 10^4 (or argv[1]) random events of 2..40 massless partons from four families:
// LHC-like (steep p_T spectrum, |eta| < 6, some very soft partons), hard jets with
// soft-collinear sprays around them, near-collinear splittings (Delta R from 1e-7 to 1e-2)
// and soft events (p_T from 0.1 MeV to 10 GeV, which probes the 1e6 GeV^-2 rule), with
// azimuths across the +-pi line.  Exact ties (which the two codes may break differently) have
// probability zero in these events.
//
// Exit status 0 if every required comparison passes.
#include "gaps/jets.h"

#include <fastjet/ClusterSequence.hh>
#include <fastjet/JetDefinition.hh>
#include <fastjet/PseudoJet.hh>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

namespace {

const double kPi = 3.14159265358979323846;
const double kR = 0.4;
const double kTol = 1e-10;

// ---- anti-k_T with GAPS's distance, run by FastJet ----

// E-scheme 3-momentum, energy |p|: the cluster's rapidity is the E-scheme pseudorapidity.
class MasslessProjection : public fastjet::JetDefinition::Recombiner {
public:
    std::string description() const override
    {
        return "E-scheme 3-momentum with E = |p| (rapidity = pseudorapidity)";
    }
    void recombine(const fastjet::PseudoJet &a, const fastjet::PseudoJet &b,
                   fastjet::PseudoJet &ab) const override
    {
        const double px = a.px() + b.px(), py = a.py() + b.py(), pz = a.pz() + b.pz();
        ab.reset_momentum(px, py, pz, std::sqrt(px * px + py * py + pz * pz));
    }
};

// The E-scheme jet of a FastJet jet: its 3-momentum, and the sum of its constituents'
// energies.
struct Jet4 {
    double p[4];
    double pt;
};

Jet4 escheme(const fastjet::ClusterSequence &cs, const fastjet::PseudoJet &jet)
{
    Jet4 j{ { 0.0, jet.px(), jet.py(), jet.pz() }, jet.pt() };
    for (const auto &c : cs.constituents(jet)) j.p[0] += c.E();
    return j;
}

std::vector<Jet4> by_pt(std::vector<Jet4> v)
{
    std::stable_sort(v.begin(), v.end(), [](const Jet4 &a, const Jet4 &b) { return a.pt > b.pt; });
    return v;
}

// (A): every jet of the sequence
std::vector<Jet4> all_jets(const fastjet::ClusterSequence &cs)
{
    std::vector<Jet4> out;
    for (const auto &j : cs.inclusive_jets()) out.push_back(escheme(cs, j));
    return by_pt(out);
}

// (B): the history in order, stopped where GAPS stops
std::vector<Jet4> jets_gaps_rules(const fastjet::ClusterSequence &cs, int max_jets, double d_max)
{
    std::vector<Jet4> out;
    const auto &h = cs.history();
    for (size_t s = cs.n_particles(); s < h.size() && (int)out.size() < max_jets; ++s) {
        if (!(h[s].dij < d_max)) break;
        if (h[s].parent2 == fastjet::ClusterSequence::BeamJet)
            out.push_back(escheme(cs, cs.jets()[h[h[s].parent1].jetp_index]));
    }
    return by_pt(out);
}

// ---- random events ----

struct Rng {
    uint64_t s;
    double uniform()   // (0, 1)
    {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        return ((double)(s >> 11) + 0.5) * 0x1.0p-53;
    }
    double range(double a, double b) { return a + (b - a) * uniform(); }
    int integer(int a, int b) { return a + (int)(uniform() * (b - a + 1)); }   // [a, b]
};

typedef std::vector<std::vector<double>> Event;   // (E, px, py, pz) each

void add_parton(Event &ev, double pt, double eta, double phi)
{
    ev.push_back({ pt * std::cosh(eta), pt * std::cos(phi), pt * std::sin(phi),
                   pt * std::sinh(eta) });
}

double wrap_phi(double phi)
{
    while (phi > kPi) phi -= 2.0 * kPi;
    while (phi <= -kPi) phi += 2.0 * kPi;
    return phi;
}

// steep spectrum: pT = 1 GeV x u^(-1/2.5), capped, with a few very soft partons
double lhc_pt(Rng &r)
{
    if (r.uniform() < 0.05) return std::exp(r.range(std::log(1e-4), 0.0));
    return std::min(1.0 * std::pow(r.uniform(), -1.0 / 2.5), 2000.0);
}

Event make_event(Rng &r, int family)
{
    Event ev;
    const int n = r.integer(2, 40);
    switch (family) {
    case 0:   // LHC-like
        for (int k = 0; k < n; ++k) add_parton(ev, lhc_pt(r), r.range(-6, 6), r.range(-kPi, kPi));
        break;
    case 1: {   // hard jets with soft-collinear sprays
        const int hard = r.integer(1, 4);
        std::vector<double> he, hp;
        for (int k = 0; k < hard; ++k) {
            he.push_back(r.range(-2.5, 2.5));
            hp.push_back(k == 0 ? r.range(kPi - 0.2, kPi) : r.range(-kPi, kPi));
            add_parton(ev, r.range(50, 500), he.back(), hp.back());
        }
        while ((int)ev.size() < std::max(n, hard)) {
            const int k = r.integer(0, hard - 1);
            const double dr = std::exp(r.range(std::log(0.01), std::log(1.0)));
            const double a = r.range(0, 2 * kPi);
            add_parton(ev, std::exp(r.range(std::log(0.1), std::log(40.0))),
                       he[k] + dr * std::cos(a), wrap_phi(hp[k] + dr * std::sin(a)));
        }
        break;
    }
    case 2: {   // near-collinear splittings of a few partons
        while ((int)ev.size() < n) {
            const double pt = std::exp(r.range(std::log(2.0), std::log(300.0)));
            const double eta = r.range(-4, 4), phi = r.range(-kPi, kPi);
            const int pieces = std::min(r.integer(1, 4), n - (int)ev.size());
            double left = 1.0;
            for (int q = 0; q < pieces; ++q) {
                const double z = q == pieces - 1 ? left : left * r.range(0.05, 0.95);
                left -= z;
                const double dr = q == 0 ? 0.0 : std::exp(r.range(std::log(1e-7), std::log(1e-2)));
                const double a = r.range(0, 2 * kPi);
                add_parton(ev, z * pt, eta + dr * std::cos(a), wrap_phi(phi + dr * std::sin(a)));
            }
        }
        break;
    }
    default:   // soft
        for (int k = 0; k < n; ++k)
            add_parton(ev, std::exp(r.range(std::log(1e-4), std::log(10.0))), r.range(-5, 5),
                       r.range(-kPi, kPi));
        break;
    }
    return ev;
}

// ---- comparison ----

struct Stats {
    long events = 0, jets = 0, failures = 0;
    double worst = 0.0;
};

std::vector<fastjet::PseudoJet> to_pseudojets(const Event &ev)
{
    std::vector<fastjet::PseudoJet> in;
    for (const auto &p : ev) in.emplace_back(p[1], p[2], p[3], p[0]);
    return in;
}

// largest |p_mu(gaps) - p_mu(fastjet)| / E_jet over all jets; infinity if the counts differ
double deviation(const gaps_jet *gj, int ng, const std::vector<Jet4> &fj)
{
    if ((size_t)ng != fj.size()) return std::numeric_limits<double>::infinity();
    double worst = 0.0;
    for (int k = 0; k < ng; ++k)
        for (int m = 0; m < 4; ++m)
            worst = std::max(worst, std::abs(gj[k].p[m] - fj[k].p[m]) / fj[k].p[0]);
    return worst;
}

void compare(const char *what, Stats &st, double dev, long event, int ng, size_t nf)
{
    ++st.events;
    st.jets += ng;
    if (dev > st.worst) st.worst = dev;
    if (!(dev <= kTol)) {
        if (++st.failures <= 10)
            std::printf("FAIL %s: event %ld: %d jets against FastJet's %zu, deviation %.3g\n",
                        what, event, ng, nf, dev);
    }
}

}   // namespace

int main(int argc, char **argv)
{
    const long n_events = argc > 1 ? std::atol(argv[1]) : 10000;
    fastjet::ClusterSequence::set_fastjet_banner_stream(nullptr);
    const MasslessProjection projection;
    fastjet::JetDefinition eta_def(fastjet::antikt_algorithm, kR);
    eta_def.set_recombiner(&projection);
    const fastjet::JetDefinition std_def(fastjet::antikt_algorithm, kR, fastjet::E_scheme);
    Rng rng{ 0x9e3779b97f4a7c15ull };
    Stats plain, rules, first;
    long std_agree = 0, std_events = 0;
    double std_worst = 0.0;
    gaps_jet jets[GAPS_MAX_PARTONS];
    double p[GAPS_MAX_PARTONS][4];
    for (long e = 0; e < n_events; ++e) {
        const Event ev = make_event(rng, (int)(e % 4));
        const int n = (int)ev.size();
        for (int k = 0; k < n; ++k)
            for (int m = 0; m < 4; ++m) p[k][m] = ev[k][m];
        const std::vector<fastjet::PseudoJet> in = to_pseudojets(ev);
        fastjet::ClusterSequence cs_eta(in, eta_def);

        // (A) plain anti-k_T
        const auto fj_plain = all_jets(cs_eta);
        int ng = gaps_antikt(n, p, kR, GAPS_MAX_PARTONS, HUGE_VAL, jets);
        compare("plain anti-kT", plain, deviation(jets, ng, fj_plain), e, ng, fj_plain.size());

        // (B) GAPS's rules
        const auto fj_rules = jets_gaps_rules(cs_eta, 10, 1e6);
        ng = gaps_antikt(n, p, kR, 10, 1e6, jets);
        compare("10 jets, d < 1e6", rules, deviation(jets, ng, fj_rules), e, ng, fj_rules.size());

        // (C) standard FastJet (rapidity): the first step is the same
        fastjet::ClusterSequence cs_std(in, std_def);
        const auto &h_std = cs_std.history()[n], &h_eta = cs_eta.history()[n];
        const bool same_step =
            std::min(h_std.parent1, h_std.parent2) == std::min(h_eta.parent1, h_eta.parent2)
            && std::max(h_std.parent1, h_std.parent2) == std::max(h_eta.parent1, h_eta.parent2);
        const double ddij = std::abs(h_std.dij - h_eta.dij) / h_eta.dij;
        compare("first step against antikt_algorithm", first, same_step ? ddij : HUGE_VAL, e,
                same_step, 1);
        std::vector<Jet4> fj_std;
        for (const auto &j : cs_std.inclusive_jets())
            fj_std.push_back({ { j.E(), j.px(), j.py(), j.pz() }, j.pt() });
        fj_std = by_pt(fj_std);
        ng = gaps_antikt(n, p, kR, GAPS_MAX_PARTONS, HUGE_VAL, jets);
        const double dev = deviation(jets, ng, fj_std);
        ++std_events;
        if (dev <= kTol) ++std_agree;
        else if (std::isfinite(dev)) std_worst = std::max(std_worst, dev);
    }
    std::printf("(A) plain anti-kT R=0.4 vs FastJet antikt_algorithm with pseudorapidity "
                "(massless-projection recombiner): %ld events, %ld jets, largest deviation "
                "%.3g (required <= %.0e), %ld failures\n",
                plain.events, plain.jets, plain.worst, kTol, plain.failures);
    std::printf("(B) GAPS's rules (10 jets, d < 1e6 GeV^-2): %ld events, %ld jets, largest "
                "deviation %.3g, %ld failures\n", rules.events, rules.jets, rules.worst,
                rules.failures);
    std::printf("(C) first step vs fastjet::antikt_algorithm (rapidity): %ld events, largest "
                "relative d difference %.3g, %ld failures\n", first.events, first.worst,
                first.failures);
    std::printf("    all jets equal to %.0e with antikt_algorithm in %ld of %ld events; where "
                "not, the largest deviation with equal jet counts is %.3g (rapidity vs "
                "pseudorapidity of merged clusters)\n", kTol, std_agree, std_events, std_worst);
    const long failures = plain.failures + rules.failures + first.failures;
    std::printf("antikt_crosscheck: %s\n", failures ? "FAILED" : "all comparisons passed");
    return failures ? 1 : 0;
}
