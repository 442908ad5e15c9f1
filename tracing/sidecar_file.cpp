#include "sidecar_file.h"

#include <sys/stat.h>

#include <fstream>

#include "util/input_file.h"

namespace schedscope::tracing {

Status writeSidecarText(const std::string& path, const std::string& what, const std::string& text) {
    std::ofstream out(path, std::ios::trunc);
    if (!out) return Error{path + ": cannot write the " + what};
    out << text;
    if (!out) return Error{path + ": write failed"};
    return {};
}

Result<std::optional<std::string>> readSidecarText(const std::string& path, const std::string& what) {
    struct stat st {};
    if (stat(path.c_str(), &st) != 0) return std::optional<std::string>{};
    auto text = readInputFile(path, what);
    if (!text) return Error{text.error()};
    return std::optional<std::string>{std::move(*text)};
}

}  // namespace schedscope::tracing
