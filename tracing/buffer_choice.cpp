#include "buffer_choice.h"

#include <algorithm>

namespace schedscope::tracing {

std::string describeUnreadBuffers(const EventStore& store, bool chosen) {
    const auto& all = store.fileBuffers();
    if (chosen || all.size() < 2) return "";
    // the reader tried them in the file's order, "top" first (the store names it "")
    const auto read = store.buffer().empty() ? all.begin() : std::find(all.begin() + 1, all.end(), store.buffer());
    if (read == all.end() || read + 1 == all.end()) return "";
    std::string unread;
    for (auto it = read + 1; it != all.end(); ++it) unread += (unread.empty() ? "" : ", ") + (it->empty() ? std::string("(unnamed)") : *it);
    const std::string name = store.buffer().empty() ? "top-level buffer" : "buffer " + store.buffer();
    return "read its " + name + ", the first with sched events; not read: " + unread + " (--buffer NAME reads one)";
}

}  // namespace schedscope::tracing
