#include "progress_line.h"

#include <cstdio>
#include <unistd.h>

#include "util/time_left.h"

namespace schedscope::cli {

std::string progressText(const std::string& label, double share, double totalS, double elapsedS) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "%s: %3.0f%% of %.1f s simulated", label.c_str(), share * 100.0, totalS);
    const std::string left = timeLeftText(share, elapsedS);
    return left.empty() ? std::string(buf) : std::string(buf) + ", " + left;
}

ProgressLine::ProgressLine(std::string label, double totalS) : label_(std::move(label)), totalS_(totalS) {}

ProgressLine::~ProgressLine() {
    if (drawn_) std::fputs("\r\033[K", stderr);  // back to the line's start, erase it
}

std::function<bool(double)> ProgressLine::callback() {
    if (!isatty(STDERR_FILENO)) return {};
    return [this](double share) {
        draw(share);
        return true;
    };
}

std::function<bool(double)> ProgressLine::partCallback(size_t part, size_t parts) {
    if (!isatty(STDERR_FILENO) || part >= parts) return {};
    {
        const std::lock_guard hold(lock_);
        if (parts_.size() != parts) parts_.assign(parts, 0.0);
    }
    return [this, part](double share) {
        const std::lock_guard hold(lock_);
        parts_[part] = share;
        double sum = 0;
        for (double p : parts_) sum += p;
        draw(sum / static_cast<double>(parts_.size()));
        return true;
    };
}

void ProgressLine::draw(double share) {
    const auto now = std::chrono::steady_clock::now();
    if (drawn_ && now - last_ < std::chrono::milliseconds(200)) return;
    last_ = now;
    drawn_ = true;
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    std::fprintf(stderr, "\r\033[K%s", progressText(label_, share, totalS_, elapsed).c_str());
    std::fflush(stderr);
}

}  // namespace schedscope::cli
