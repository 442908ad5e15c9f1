#include "topology/isolcpus_list.h"

#include <cctype>

namespace schedscope {

Result<std::string> isolcpusCpuList(std::string_view value) {
    bool flags = false, domain = false;
    // the flags come first; the cpulist starts at the first item that begins with a digit (or
    // N, the last CPU, which the cpulist parser then explains)
    while (!value.empty() && std::isalpha(static_cast<unsigned char>(value.front())) && value.front() != 'N') {
        const size_t comma = value.find(',');
        const std::string_view flag = value.substr(0, comma);
        if (flag == "domain") domain = true;
        else if (flag != "nohz" && flag != "managed_irq")
            return Error{"unknown isolcpus flag '" + escapeControl(std::string(flag)) + "' (nohz, domain or managed_irq)"};
        flags = true;
        if (comma == std::string_view::npos) return Error{"isolcpus flags without a cpulist"};
        value.remove_prefix(comma + 1);
    }
    if (flags && !domain)
        return Error{"isolcpus= with nohz or managed_irq alone leaves the CPUs in the sched domains (the domain flag, or no "
                     "flag, takes them out)"};
    return std::string(value);
}

}  // namespace schedscope
