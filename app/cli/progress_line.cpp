#include "progress_line.h"

#include <cstdio>
#include <unistd.h>

namespace schedscope::cli {

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
    std::fprintf(stderr, "\r\033[K%s: %3.0f%% of %.1f s simulated", label_.c_str(), share * 100.0, totalS_);
    std::fflush(stderr);
}

}  // namespace schedscope::cli
