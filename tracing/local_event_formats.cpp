#include "local_event_formats.h"

#include <event-parse.h>
#include <unistd.h>

#include <fstream>
#include <iterator>

#include "trace_c_api.h"

namespace schedscope::tracing {

void TepDeleter::operator()(tep_handle* tep) const { tep_free(tep); }

namespace {

bool readFile(const std::string& path, std::string& out) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    return !in.bad();
}

}  // namespace

Result<TepPtr> loadLocalEventFormats(const std::string& tracingDir, const std::vector<std::string>& systems) {
    TepPtr tep(tep_alloc());
    if (!tep) return Error{tracingDir + ": out of memory for the event formats"};
    // the layout of the ring buffer's pages, which the raw-buffer iteration decodes
    std::string text;
    const std::string header = tracingDir + "/events/header_page";
    if (!readFile(header, text) || text.empty()) return Error{header + ": cannot read the ring buffer's page format"};
    if (tep_parse_header_page(tep.get(), text.data(), text.size(), sizeof(long)) != 0)
        return Error{header + ": the ring buffer's page format does not parse"};
    for (const auto& system : systems) {
        char** events = tracefs_system_events(tracingDir.c_str(), system.c_str());
        std::string systemDir = tracingDir;
        systemDir.append("/events/").append(system).append("/");
        for (char** e = events; e && *e; ++e) {
            std::string format = systemDir;
            format.append(*e).append("/format");
            if (!readFile(format, text)) continue;
            tep_parse_event(tep.get(), text.data(), text.size(), system.c_str());
        }
        tracefs_list_free(events);
    }
    tep_set_cpus(tep.get(), static_cast<int>(sysconf(_SC_NPROCESSORS_CONF)));
    tep_set_long_size(tep.get(), tep_get_header_page_size(tep.get()));
    return tep;
}

}  // namespace schedscope::tracing
