#include "replay_seeds.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "replay_json.h"
#include "sim/sim_json.h"

namespace schedscope::cli {
namespace {

constexpr double kNoValue = std::numeric_limits<double>::quiet_NaN();

// What a run that lacks a metric has: 0 migrations at a level it never migrated at; no value
// otherwise (scalarMetrics()' completion_s of -1: its tasks had not all exited).
double missing(const std::string& name) { return name.starts_with("migrations_") ? 0.0 : kNoValue; }
double valueOf(const std::string& name, double v) { return name == "completion_s" && v < 0 ? kNoValue : v; }

nlohmann::json sideJson(const sim::MetricStats& s) {
    if (s.n == 0) return {{"mean", nullptr}, {"sd", nullptr}, {"n", 0}};
    return {{"mean", s.mean}, {"sd", s.n > 1 ? nlohmann::json(s.sd) : nlohmann::json(nullptr)}, {"n", s.n}};  // one run: no spread
}

}  // namespace

void ReplaySeeds::add(const replay::ReplayResult& r) {
    auto take = [this](const replay::ReplayMetrics& m, std::map<std::string, std::vector<double>>& into) {
        for (const auto& [name, v] : replay::scalarMetrics(m)) {
            if (std::find(names_.begin(), names_.end(), name) == names_.end()) names_.push_back(name);
            auto& values = into[name];
            values.resize(static_cast<size_t>(count_), missing(name));  // the earlier seeds lacked it
            values.push_back(valueOf(name, v));
        }
    };
    if (r.baseline) take(r.baseline->metrics, baseline_);
    take(r.whatIf.metrics, whatIf_);
    ++count_;
    for (auto* side : {&baseline_, &whatIf_})  // and this one lacked what the earlier had
        for (auto& [name, values] : *side) values.resize(static_cast<size_t>(count_), missing(name));
}

ReplaySeeds::Row ReplaySeeds::row(const std::string& name, const replay::ReplayMetrics& recorded, bool withBaseline) const {
    // a side whose runs all lacked the metric: none migrated at that level (0 each), or none had
    // a value (completion_s: not finished)
    auto valuesOf = [&name, this](const std::map<std::string, std::vector<double>>& side) {
        const auto it = side.find(name);
        return it == side.end() ? std::vector<double>(static_cast<size_t>(count_), missing(name)) : it->second;
    };
    Row r;
    r.whatIf = sim::metricStats(valuesOf(whatIf_));
    if (withBaseline) {
        r.reference = sim::metricStats(valuesOf(baseline_));
    } else {
        // the recording is one figure: the change of the what-if's mean from it, no interval
        double rec = missing(name);
        for (const auto& [k, v] : replay::scalarMetrics(recorded))
            if (k == name) rec = valueOf(name, v);
        r.reference = sim::metricStats({rec});
    }
    r.change = sim::metricChange(r.reference, r.whatIf, sim::metricResolutionPct(name));
    return r;
}

void ReplaySeeds::print(const replay::ReplayMetrics& recorded, bool withBaseline) const {
    std::printf("\nover %d seeds (%llu..%llu), the simulated runs' mean and sd:\n", count_,
                static_cast<unsigned long long>(firstSeed_), static_cast<unsigned long long>(firstSeed_ + count_ - 1));
    std::printf("  %-22s %14s %10s %14s %10s %12s%s\n", "metric", withBaseline ? "baseline mean" : "recorded",
                withBaseline ? "sd" : "", "what-if mean", "sd", withBaseline ? "vs baseline" : "vs recorded",
                withBaseline ? "  95% interval" : "");
    auto cell = [](const sim::MetricStats& s, double v) {
        if (s.n == 0) std::printf(" %14s", "not finished");
        else std::printf(" %14.4f", v);
    };
    bool anyInterval = false;
    for (const auto& name : names_) {
        const Row r = row(name, recorded, withBaseline);
        std::printf("  %-22s", name.c_str());
        cell(r.reference, r.reference.mean);
        auto spread = [](const sim::MetricStats& s) {
            if (s.n > 1) std::printf(" %10.4f", s.sd);
            else std::printf(" %10s", "-");
        };
        if (withBaseline) spread(r.reference);
        else std::printf(" %10s", "");
        cell(r.whatIf, r.whatIf.mean);
        spread(r.whatIf);
        if (r.change.defined) std::printf(" %+11.2f%%", r.change.relativePct);
        else std::printf(" %12s", "-");
        if (r.change.hasInterval) {
            anyInterval = true;
            std::printf("  %s", sim::intervalText(r.change).c_str());
        }
        if (r.whatIf.n < r.whatIf.runs) std::printf("  (what-if finished in %d of %d)", r.whatIf.n, r.whatIf.runs);
        std::printf("\n");
    }
    if (anyInterval) std::printf("  %s\n", sim::intervalFootnote("the baseline's mean").c_str());
}

nlohmann::json ReplaySeeds::toJson(const replay::ReplayMetrics& recorded, bool withBaseline) const {
    nlohmann::json metrics = nlohmann::json::object();
    for (const auto& name : names_) {
        const Row r = row(name, recorded, withBaseline);
        nlohmann::json m = {{"whatif", sideJson(r.whatIf)}};
        sim::addChangeJson(m, r.change);
        if (withBaseline) m["baseline"] = sideJson(r.reference);
        metrics[name] = std::move(m);
    }
    return {{"first", firstSeed_}, {"count", count_}, {"against", withBaseline ? "baseline" : "recorded"}, {"metrics", metrics}};
}

}  // namespace schedscope::cli
