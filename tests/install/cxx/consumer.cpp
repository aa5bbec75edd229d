// A C++17 program that uses the INSTALLED gaps library through its C headers (they declare
// everything extern "C"): the same checks as ../c/consumer.c, written the C++ way.  Exit 0 if
// all checks pass, 1 otherwise.
#include <cmath>
#include <cstdint>
#include <iostream>
#include <memory>
#include <numeric>
#include <string>

#include "gaps/generator.h"
#include "gaps/histogram.h"
#include "gaps/matrix_element.h"

namespace {

int failures = 0;

void check(bool ok, const std::string &what)
{
    std::cout << (ok ? "ok  : " : "FAIL: ") << what << '\n';
    if (!ok) ++failures;
}

// gaps_run owns heap memory: free it however main() is left.
struct RunFree {
    void operator()(gaps_run *run) const { gaps_run_free(run); }
};

}  // namespace

int main()
{
    gaps_config cfg;
    gaps_config_defaults(&cfg);
    cfg.events = 2000;
    cfg.allow_host = 1;   // an offload build on a machine without GPU runs on the host

    gaps_run run_storage{};
    char msg[256];
    if (gaps_generate(&cfg, &run_storage, msg, sizeof msg) != 0) {
        std::cerr << "consumer_cxx: gaps_generate failed: " << msg << '\n';
        return 1;
    }
    const std::unique_ptr<gaps_run, RunFree> run(&run_storage);
    std::cout << "gaps " << run->backend << " backend on " << run->device << ": " << run->events
              << " events, sigma = " << run->sigma << " +- " << run->sigma_err << " pb\n";

    gaps_me me;
    gaps_me_init(&me, cfg.ecm);
    const double exact = gaps_me_sigma_exact(&me);
    check(run->events == 2000, "2000 events generated");
    check(run->invalid_events == 0, "no invalid events");
    check(run->sigma > 0.0 && run->sigma_err > 0.0, "cross section and error positive");
    check(std::abs(run->sigma - exact) < 5.0 * run->sigma_err,
          "cross section agrees with the exact one");

    const gaps_hist_result &h = *run->hist;
    const gaps_hist_def *lep = gaps_analysis_table[GAPS_ANALYSIS_LEP].hist;
    const auto &tau = h.bin[GAPS_LEP_H_TAU];
    const int nbins = lep[GAPS_LEP_H_TAU].nbins;
    const std::uint64_t entries = std::accumulate(
        tau, tau + nbins + 2, std::uint64_t{0},
        [](std::uint64_t n, const gaps_bin_sums &b) { return n + b.entries; });
    check(h.n_events == 2000 && entries == 2000, "tau histogram holds every event once");

    const auto &np = h.bin[GAPS_LEP_H_NPARTONS];
    double sumw = 0.0, sumwx = 0.0;
    for (int b = 0; b <= lep[GAPS_LEP_H_NPARTONS].nbins + 1; ++b) {
        sumw += np[b].sumw;
        sumwx += np[b].sumwx;
    }
    const double mean_partons = sumwx / sumw;
    std::cout << "exact sigma " << exact << " pb, mean number of partons " << mean_partons << '\n';
    check(mean_partons > 2.0 && mean_partons <= cfg.max_partons, "mean parton multiplicity sane");
    return failures ? 1 : 0;
}
