#include "progress_relay.h"

namespace schedscope::gui {
namespace {
constexpr qint64 kMinIntervalMs = 40;  // 25 updates a second: smooth to the eye, cheap to paint
}

ProgressRelay::ProgressRelay(int maximum, QObject* parent) : QObject(parent), maximum_(maximum) {}

void ProgressRelay::report(int value, const QString& stage) {
    const bool newStage = !stage.isEmpty() && stage != stage_;
    if (!stage.isEmpty()) stage_ = stage;
    if (!newStage && value <= lastSent_) return;  // progress never runs backwards
    const bool due = newStage || value >= maximum_ || !sinceSent_.isValid() || sinceSent_.elapsed() >= kMinIntervalMs;
    if (!due) return;
    lastSent_ = std::max(lastSent_, value);
    sinceSent_.start();
    // emitted on the worker's thread to receivers on the GUI thread: queued, in order
    emit reported(lastSent_, stage_);
}

}  // namespace schedscope::gui
