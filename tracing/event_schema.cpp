#include "event_schema.h"

namespace schedscope::tracing {

std::optional<EventKind> eventKindFromName(std::string_view name) {
    for (size_t i = 0; i < kEventKindNames.size(); ++i)
        if (kEventKindNames[i] == name) return static_cast<EventKind>(i);
    return std::nullopt;
}

TaskState taskStateFromLetters(std::string_view letters) {
    bool dead = false, parked = false, idle = false, stopped = false, disk = false, sleeping = false, noload = false,
         running = false, waking = false;
    for (char c : letters) {
        switch (c) {
            case 'X': case 'Z': case 'x': dead = true; break;
            case 'P': parked = true; break;
            case 'I': idle = true; break;
            case 'T': case 't': stopped = true; break;
            case 'D': disk = true; break;
            case 'S': sleeping = true; break;
            case 'N': noload = true; break;
            case 'R': running = true; break;
            case 'W': waking = true; break;
            default: break;  // '|', '+', K
        }
    }
    // an exit outranks everything else the task had set; D|N is an idle kthread, not I/O
    if (dead) return TaskState::Dead;
    if (parked) return TaskState::Parked;
    if (idle || (disk && noload)) return TaskState::Idle;
    if (stopped) return TaskState::Stopped;
    if (disk) return TaskState::DiskSleep;
    if (sleeping) return TaskState::Sleeping;
    if (running || waking) return TaskState::Runnable;
    return TaskState::Unknown;
}

TaskState taskStateFromChar(char c) { return taskStateFromLetters(std::string_view(&c, 1)); }

char taskStateChar(TaskState s) {
    constexpr char chars[] = {'R', 'S', 'D', 'T', 'X', 'P', 'I', '?'};
    return chars[static_cast<size_t>(s)];
}

}  // namespace schedscope::tracing
