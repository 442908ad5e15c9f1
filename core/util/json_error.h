#pragma once
// nlohmann::json's exception texts for a user: "[json.exception.out_of_range.403] key 'cpus' not
// found" is the library's id, not the file's problem; the words after it are.
#include <string>
#include <string_view>

namespace schedscope {

// `what` without the library's "[json.exception.NAME.ID] " prefix, at most 200 characters.
std::string jsonErrorText(std::string_view what);

}  // namespace schedscope
