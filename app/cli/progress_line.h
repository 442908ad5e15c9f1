#pragma once
// A progress line on stderr for long work ("simulating: 43% of 20.0 s simulated, about 12 s
// left"), redrawn in place at most every 0.2 s, and only when stderr is a terminal: scripts,
// pipes and CI logs get nothing of it. The line is cleared when the work is over (destructor).
#include <chrono>
#include <mutex>
#include <vector>
#include <functional>
#include <string>

namespace schedscope::cli {

// The line's text for `share` (0..1) of the work done after `elapsedS` seconds of wall time:
// once the work has run for a second and is past 2%, also the time left at the rate so far.
std::string progressText(const std::string& label, double share, double totalS, double elapsedS);

class ProgressLine {
public:
    // `label` comes before the percentage; `totalS` is what 100% stands for, in seconds.
    ProgressLine(std::string label, double totalS);
    ~ProgressLine();
    ProgressLine(const ProgressLine&) = delete;
    ProgressLine& operator=(const ProgressLine&) = delete;

    // For sim::SimOptions::progress: draws the share done; never stops the work. Empty when
    // stderr is not a terminal.
    std::function<bool(double)> callback();
    // For one of `parts` runs done at once on several threads: the line shows the share of all
    // of them (the mean of the parts' shares). Empty when stderr is not a terminal.
    std::function<bool(double)> partCallback(size_t part, size_t parts);

private:
    void draw(double share);

    std::string label_;
    double totalS_;
    bool drawn_ = false;
    std::mutex lock_;             // parts report from several threads
    std::vector<double> parts_;  // partCallback(): each part's share done
    std::chrono::steady_clock::time_point last_{};
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace schedscope::cli
