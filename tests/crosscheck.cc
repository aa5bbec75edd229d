// crosscheck.cc -- gaps output against the field's standard libraries.
//
// Usage: crosscheck EVENTS.hepmc OBSERVABLES.csv
// (both from one gaps run: --hepmc EVENTS.hepmc --observables-out OBSERVABLES.csv)
//
// HepMC3: the event file is read by HepMC3's own ReaderAscii, so a file HepMC3 cannot parse,
// or parses into something else than intended, fails here.  Every event must agree with its
// CSV row (event number, weight, multiplicity) and be physically sound: beams, the s-channel
// boson, momentum conservation, massless partons, a consistent leading-colour flow.
//
// FastJet: the final partons are clustered with FastJet's ee_kt_algorithm (Durham) in the
// E-scheme, and its exclusive_ymerge(n) must equal our y_{n,n+1}.
//   Normalisation: FastJet's ee_kt distance is d_ij = 2 min(E_i^2, E_j^2) (1 - cos theta_ij)
//   and exclusive_ymerge(n) = exclusive_dmerge(n) / Q2(), where Q2() = Q^2 with Q the sum of
//   the energies of the clustered particles (ClusterSequence::_Qtot), i.e. Q^2 = E_vis^2.
//   Ours is y_ij = 2 min(E_i, E_j)^2 (1 - cos theta_ij) / E_vis^2, and E_vis = sqrt(s) for
//   a complete final state: the two are the same quantity, compared without conversion.
//
// Exit status: 0 all checks pass, 1 some check failed, 2 usage or unreadable input.
#include <HepMC3/Attribute.h>
#include <HepMC3/GenCrossSection.h>
#include <HepMC3/GenEvent.h>
#include <HepMC3/GenParticle.h>
#include <HepMC3/GenVertex.h>
#include <HepMC3/ReaderAscii.h>
#include <HepMC3/Units.h>
#include <HepMC3/Version.h>
#include <fastjet/ClusterSequence.hh>
#include <fastjet/JetDefinition.hh>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

// Weights reach both files as %.17g text of the same double: they must agree to rounding.
// FastJet recomputes y with its own arithmetic (1 - cos from dot products, its own merging
// order of sums), hence 1e-10; the physics checks use the generator's own event-check
// tolerances (doc/physics.md section 7.4).
constexpr double kWeightTol = 1e-15;
constexpr double kMomentumTol = 1e-10;
constexpr double kMassTol = 1e-10;
constexpr double kYTol = 1e-10;
// Each event's cross section is the running mean(w) over the events before it, summed in event
// order; the same sums of the CSV weights computed here must agree far below any statistical
// meaning.  The error comes from sum(w^2)/N - mean^2, which cancels: a looser bound.
constexpr double kSigmaTol = 1e-9;
constexpr double kSigmaErrTol = 1e-6;
constexpr int kMaxReports = 10;  // failure messages printed per kind of check

struct Row {
    long long event = -1;
    double weight = 0;
    int n_partons = 0;
    double y[4] = { 0, 0, 0, 0 };  // y23, y34, y45, y56
};

// Numbers in failure messages: std::to_string's fixed six decimals hide small differences.
std::string num(double x)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", x);
    return buf;
}

double rel_diff(double a, double b)
{
    if (a == b) return 0.0;  // also both zero
    return std::fabs(a - b) / std::max(std::fabs(a), std::fabs(b));
}

// Failures are counted per kind and the first few of each kind are printed.
class Failures {
public:
    void add(const std::string &kind, const std::string &what)
    {
        int &n = count_[kind];
        if (n++ < kMaxReports) std::cout << "FAIL [" << kind << "] " << what << "\n";
    }
    long total() const
    {
        long t = 0;
        for (const auto &kv : count_) t += kv.second;
        return t;
    }
    void summary() const
    {
        for (const auto &kv : count_)
            std::cout << "  failed " << kv.first << ": " << kv.second << "\n";
    }

private:
    std::map<std::string, int> count_;
};

// The --observables-out CSV: '#' header, then event,weight,n_partons,y23,y34,y45,y56,...
bool read_csv(const char *path, std::vector<Row> &rows)
{
    std::ifstream in(path);
    if (!in) {
        std::cerr << "crosscheck: cannot read " << path << "\n";
        return false;
    }
    std::string line;
    long lineno = 0;
    while (std::getline(in, line)) {
        ++lineno;
        if (line.empty() || line[0] == '#') continue;
        std::vector<std::string> f;
        std::stringstream ss(line);
        for (std::string cell; std::getline(ss, cell, ',');) f.push_back(cell);
        if (f.size() < 7) {
            std::cerr << "crosscheck: " << path << ":" << lineno << ": fewer than 7 columns\n";
            return false;
        }
        Row r;
        r.event = std::strtoll(f[0].c_str(), nullptr, 10);
        r.weight = std::strtod(f[1].c_str(), nullptr);
        r.n_partons = std::atoi(f[2].c_str());
        for (int k = 0; k < 4; ++k) r.y[k] = std::strtod(f[3 + k].c_str(), nullptr);
        rows.push_back(r);
    }
    return true;
}

// gaps writes the listing's closing line last: a file without it was cut short.
bool ends_with_footer(const char *path)
{
    std::ifstream in(path, std::ios::binary);
    std::string last, line;
    while (std::getline(in, line))
        if (!line.empty()) last = line;
    return last == "HepMC::Asciiv3-END_EVENT_LISTING";
}

int flow(const HepMC3::ConstGenParticlePtr &p, const char *name)
{
    auto a = p->attribute<HepMC3::IntAttribute>(name);
    return a ? a->value() : 0;
}

struct Worst {
    double weight = 0, momentum = 0, mass = 0, sigma = 0, y[4] = { 0, 0, 0, 0 };
    long y_compared[4] = { 0, 0, 0, 0 };
};

// All checks of one event; ecm is taken from the beams (and checked against the boson).
void check_event(const HepMC3::GenEvent &evt, const Row &row,
                 const fastjet::JetDefinition &durham, Failures &fail, Worst &worst,
                 double &ecm_out, double &xs, double &xs_err)
{
    std::ostringstream id;
    id << "event " << evt.event_number() << ": ";

    if (evt.event_number() != row.event)
        fail.add("event number", id.str() + "CSV row has event " + std::to_string(row.event));
    if (evt.momentum_unit() != HepMC3::Units::GEV || evt.length_unit() != HepMC3::Units::MM)
        fail.add("units", id.str() + "not GEV MM");
    if (evt.weights().size() != 1) {
        fail.add("weight", id.str() + std::to_string(evt.weights().size()) + " weights");
    } else {
        double d = rel_diff(evt.weights()[0], row.weight);
        worst.weight = std::max(worst.weight, d);
        if (!(d <= kWeightTol)) fail.add("weight", id.str() + "relative difference " + num(d));
    }
    auto cs = evt.cross_section();
    if (!cs) {
        fail.add("cross section", id.str() + "no GenCrossSection");
        xs = xs_err = NAN;
    } else {
        xs = cs->xsec();
        xs_err = cs->xsec_err();
    }

    // Beams -> boson -> final partons.
    HepMC3::ConstGenParticlePtr eplus, eminus, boson;
    std::vector<HepMC3::ConstGenParticlePtr> finals;
    int n_other = 0;
    for (const auto &p : evt.particles()) {
        if (p->status() == 4 && p->pid() == -11 && !eplus) eplus = p;
        else if (p->status() == 4 && p->pid() == 11 && !eminus) eminus = p;
        else if (p->status() == 2 && p->pid() == 23 && !boson) boson = p;
        else if (p->status() == 1) finals.push_back(p);
        else ++n_other;
    }
    if (!eplus || !eminus || !boson || n_other) {
        fail.add("structure", id.str() + "beams e+ e- (status 4) and Z/gamma* (status 2) "
                                         "expected, nothing else but final partons");
        return;
    }
    const double ecm = eplus->momentum().e() + eminus->momentum().e();
    ecm_out = ecm;
    const double eb = 0.5 * ecm;
    const auto &pp = eplus->momentum(), &pm = eminus->momentum(), &pz = boson->momentum();
    if (!(pp.px() == 0 && pp.py() == 0 && pp.pz() == eb && pp.e() == eb) ||
        !(pm.px() == 0 && pm.py() == 0 && pm.pz() == -eb && pm.e() == eb))
        fail.add("structure", id.str() + "beams not e+ along +z, e- along -z, E = sqrt(s)/2");
    if (!(pz.px() == 0 && pz.py() == 0 && pz.pz() == 0 && pz.e() == ecm &&
          boson->generated_mass() == ecm))
        fail.add("structure", id.str() + "boson not at rest with mass sqrt(s)");
    auto v1 = boson->production_vertex(), v2 = boson->end_vertex();
    if (!v1 || v1->particles_in().size() != 2 || v1->particles_out().size() != 1 ||
        eplus->end_vertex() != v1 || eminus->end_vertex() != v1)
        fail.add("structure", id.str() + "boson not produced by the beams alone");
    if (!v2 || v2->particles_in().size() != 1 || v2->particles_out().size() != finals.size())
        fail.add("structure", id.str() + "final partons not from the boson's decay vertex");
    for (const auto &p : finals)
        if (p->production_vertex() != v2)
            fail.add("structure", id.str() + "a final parton not from the boson");

    if ((int)finals.size() != row.n_partons)
        fail.add("multiplicity", id.str() + std::to_string(finals.size()) +
                                     " final particles, CSV " + std::to_string(row.n_partons));

    // Momentum conservation and masses.
    double sum[4] = { 0, 0, 0, 0 };
    std::vector<fastjet::PseudoJet> partons;
    std::map<int, int> n_flow1, n_flow2;
    for (const auto &p : finals) {
        const auto &m = p->momentum();
        sum[0] += m.e();
        sum[1] += m.px();
        sum[2] += m.py();
        sum[3] += m.pz();
        double m2 = m.e() * m.e() - m.px() * m.px() - m.py() * m.py() - m.pz() * m.pz();
        double dm = std::fabs(m2) / (m.e() * m.e());
        worst.mass = std::max(worst.mass, dm);
        if (!(dm <= kMassTol) || p->generated_mass() != 0)
            fail.add("mass", id.str() + "parton " + std::to_string(p->id()) + " m^2/E^2 = " +
                                 num(dm));
        partons.emplace_back(m.px(), m.py(), m.pz(), m.e());

        // Colour flow: quarks carry colour only, antiquarks anticolour only, gluons both.
        const int pid = p->pid(), c = flow(p, "flow1"), a = flow(p, "flow2");
        bool ok;
        if (pid >= 1 && pid <= 5) ok = c > 0 && a == 0;
        else if (pid >= -5 && pid <= -1) ok = c == 0 && a > 0;
        else if (pid == 21) ok = c > 0 && a > 0;
        else ok = false;
        if (!ok)
            fail.add("colour", id.str() + "parton " + std::to_string(p->id()) + " pdg " +
                                   std::to_string(pid) + " flow1 " + std::to_string(c) +
                                   " flow2 " + std::to_string(a));
        if (c) ++n_flow1[c];
        if (a) ++n_flow2[a];
    }
    for (const auto &p : { eplus, eminus, boson })
        if (flow(p, "flow1") || flow(p, "flow2"))
            fail.add("colour", id.str() + "colour flow on a beam or the boson");
    // Every tag once as a colour and once as an anticolour: an open line or a tag used twice
    // shows up as a count other than one on either side.
    for (const auto &kv : n_flow1)
        if (kv.second != 1 || n_flow2[kv.first] != 1)
            fail.add("colour", id.str() + "tag " + std::to_string(kv.first) + " not exactly once "
                                                                       "as flow1 and as flow2");
    for (const auto &kv : n_flow2)
        if (!n_flow1.count(kv.first))
            fail.add("colour", id.str() + "tag " + std::to_string(kv.first) + " only as flow2");
    const double dev = std::fabs(sum[0] - ecm) + std::fabs(sum[1]) + std::fabs(sum[2]) +
                       std::fabs(sum[3]);
    worst.momentum = std::max(worst.momentum, dev / ecm);
    if (!(dev <= kMomentumTol * ecm))
        fail.add("momentum", id.str() + "|sum p - (sqrt s, 0)| / sqrt s = " + num(dev / ecm));

    // Durham jet rates against FastJet.
    const int n = (int)partons.size();
    fastjet::ClusterSequence cs_fj(partons, durham);
    for (int nj = 2; nj <= 5; ++nj) {
        const double ours = row.y[nj - 2];
        const std::string name = "y" + std::to_string(nj) + std::to_string(nj + 1);
        if (n < nj + 1) {
            // no step from nj+1 to nj clusters: our CSV holds 0
            if (ours != 0) fail.add("durham", id.str() + name + " = " + num(ours) +
                                                  " with only " + std::to_string(n) + " partons");
            continue;
        }
        const double theirs = cs_fj.exclusive_ymerge(nj);
        const double d = rel_diff(ours, theirs);
        worst.y[nj - 2] = std::max(worst.y[nj - 2], d);
        ++worst.y_compared[nj - 2];
        if (!(d <= kYTol)) {
            char buf[160];
            std::snprintf(buf, sizeof buf, "%s ours %.17g FastJet %.17g (relative %.3g)",
                          name.c_str(), ours, theirs, d);
            fail.add("durham", id.str() + buf);
        }
    }
}

}  // namespace

int main(int argc, char **argv)
{
    if (argc != 3) {
        std::cerr << "usage: crosscheck EVENTS.hepmc OBSERVABLES.csv\n";
        return 2;
    }
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<Row> rows;
    if (!read_csv(argv[2], rows)) return 2;

    HepMC3::ReaderAscii reader(argv[1]);
    if (reader.failed()) {
        std::cerr << "crosscheck: HepMC3 cannot open " << argv[1] << "\n";
        return 2;
    }
    fastjet::ClusterSequence::set_fastjet_banner_stream(nullptr);  // keep the summary short
    // Durham = ee_kt; E-scheme recombination is FastJet's default, asserted below.
    const fastjet::JetDefinition durham(fastjet::ee_kt_algorithm);

    Failures fail;
    if (durham.recombination_scheme() != fastjet::E_scheme)
        fail.add("setup", "ee_kt_algorithm does not default to the E-scheme");
    if (!ends_with_footer(argv[1]))
        fail.add("format", "file does not end with HepMC::Asciiv3-END_EVENT_LISTING");

    Worst worst;
    long n_events = 0;
    double ecm = NAN, xs_first = NAN, xs_err_first = NAN, run_w = 0, run_w2 = 0;
    for (;;) {
        HepMC3::GenEvent evt;
        if (!reader.read_event(evt)) {
            fail.add("format", "ReaderAscii failed after event " + std::to_string(n_events));
            break;
        }
        // At the end the reader hits end of file and hands back an empty event.
        if (reader.failed() && evt.particles().empty()) break;
        if (n_events < (long)rows.size()) {
            const Row &row = rows[n_events];
            double xs = NAN, xs_err = NAN;
            check_event(evt, row, durham, fail, worst, ecm, xs, xs_err);
            // Each event carries the running estimate over the events so far, in file order
            // (doc/physics.md section 8): recompute it from the CSV weights.
            run_w += row.weight;
            run_w2 += row.weight * row.weight;
            const double nn = (double)(n_events + 1), mean = run_w / nn;
            const double err = std::sqrt(std::max(run_w2 / nn - mean * mean, 0.0) / nn);
            const double d = rel_diff(xs, mean), de = n_events > 0 ? rel_diff(xs_err, err) : 0;
            worst.sigma = std::max(worst.sigma, d);
            if (!(d <= kSigmaTol) || !(de <= kSigmaErrTol))
                fail.add("cross section", "event " + std::to_string(evt.event_number()) +
                         ": GenCrossSection " + num(xs) + " +- " + num(xs_err) +
                         " pb, running estimate from the CSV " + num(mean) + " +- " + num(err));
            auto cs = evt.cross_section();
            if (cs && (cs->get_accepted_events() != n_events + 1
                       || cs->get_attempted_events() != n_events + 1))
                fail.add("cross section", "event " + std::to_string(evt.event_number()) +
                                              ": event counts of GenCrossSection");
            if (n_events == 0) xs_first = xs, xs_err_first = xs_err;
        }
        ++n_events;
        if (reader.failed()) break;
    }
    // The run's settings travel as run attributes (doc/physics.md section 8).
    if (auto ri = reader.run_info()) {
        for (const char *name : { "gaps_version", "sqrt_s_GeV", "alphas_mz", "alphas_order",
                                  "tcut_GeV2", "seed", "max_partons" })
            if (!ri->attribute_as_string(name).size())
                fail.add("run info", std::string("run attribute ") + name + " missing");
        if (ecm == ecm && std::atof(ri->attribute_as_string("sqrt_s_GeV").c_str()) != ecm)
            fail.add("run info", "run attribute sqrt_s_GeV differs from the beams");
    } else {
        fail.add("run info", "no GenRunInfo");
    }
    reader.close();

    if (n_events != (long)rows.size())
        fail.add("event count", std::to_string(n_events) + " events in the HepMC3 file, " +
                                    std::to_string(rows.size()) + " rows in the CSV");
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    std::printf("crosscheck: %ld events (HepMC3 %s ReaderAscii, %s ee_kt), %.2f s\n",
                n_events, HEPMC3_VERSION, fastjet::fastjet_version_string().c_str(), secs);
    std::printf("  sqrt(s) %.17g GeV   cross section of the first event %.10g +- %.6g pb\n", ecm,
                xs_first, xs_err_first);
    std::printf("  worst relative differences:\n");
    std::printf("    weight vs CSV        %.3g (tolerance %.0e)\n", worst.weight, kWeightTol);
    std::printf("    sigma vs running mean(w) %.3g (tolerance %.0e)\n", worst.sigma, kSigmaTol);
    std::printf("    momentum sum         %.3g (tolerance %.0e)\n", worst.momentum, kMomentumTol);
    std::printf("    parton m^2/E^2       %.3g (tolerance %.0e)\n", worst.mass, kMassTol);
    for (int k = 0; k < 4; ++k)
        std::printf("    y%d%d vs FastJet       %.3g over %ld events (tolerance %.0e)\n", k + 2,
                    k + 3, worst.y[k], worst.y_compared[k], kYTol);
    if (fail.total()) {
        fail.summary();
        std::printf("crosscheck: FAILED (%ld failures)\n", fail.total());
        return 1;
    }
    std::printf("crosscheck: all checks passed\n");
    return 0;
}
