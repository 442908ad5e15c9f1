#pragma once
// One small kernel attribute file (sysfs, procfs, debugfs, cgroupfs) as text: the whole file
// with its trailing newline and spaces dropped; empty when it cannot be read.
#include <filesystem>
#include <string>

namespace schedscope {

std::string readAttributeText(const std::filesystem::path& file);

}  // namespace schedscope
