#pragma once
// The wall time a long job has left at the rate it went so far, as progress displays (the CLI's
// progress line, the what-if panel's bar) say it.
#include <string>

namespace schedscope {

// "about 30 s left" or "about 3 min left" for `shareDone` (0..1) of the job done in `elapsedS`
// seconds; empty while there is no rate to go by yet (under a second, or 2% done) and once done.
std::string timeLeftText(double shareDone, double elapsedS);

}  // namespace schedscope
