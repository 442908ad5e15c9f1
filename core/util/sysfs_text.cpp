#include "util/sysfs_text.h"

#include <fstream>
#include <sstream>

namespace schedscope {

std::string readAttributeText(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::ostringstream text;
    text << in.rdbuf();
    std::string s = text.str();
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
    return s;
}

}  // namespace schedscope
