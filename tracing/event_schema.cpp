#include "event_schema.h"

namespace schedscope::tracing {

std::optional<EventKind> eventKindFromName(std::string_view name) {
    for (size_t i = 0; i < kEventKindNames.size(); ++i)
        if (kEventKindNames[i] == name) return static_cast<EventKind>(i);
    return std::nullopt;
}

TaskState taskStateFromChar(char c) {
    switch (c) {
        case 'R': return TaskState::Runnable;
        case 'S': return TaskState::Sleeping;
        case 'D': return TaskState::DiskSleep;
        case 'T': case 't': return TaskState::Stopped;
        case 'X': case 'Z': return TaskState::Dead;
        case 'P': return TaskState::Parked;
        case 'I': return TaskState::Idle;
        default: return TaskState::Unknown;
    }
}

char taskStateChar(TaskState s) {
    constexpr char chars[] = {'R', 'S', 'D', 'T', 'X', 'P', 'I', '?'};
    return chars[static_cast<size_t>(s)];
}

}  // namespace schedscope::tracing
