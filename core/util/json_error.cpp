#include "util/json_error.h"

namespace schedscope {

std::string jsonErrorText(std::string_view what) {
    if (what.starts_with("[json.exception."))
        if (const auto at = what.find("] "); at != std::string_view::npos) what.remove_prefix(at + 2);
    std::string text(what);
    if (text.size() > 200) {  // (resize and append: substr() + "..." trips GCC 12's -Warray-bounds)
        text.resize(197);
        text += "...";
    }
    return text;
}

}  // namespace schedscope
