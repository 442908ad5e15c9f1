#pragma once
// `schedscope --screenshot OUT.png [--view NAME] [--size WxH] [inputs]`: open the inputs in an
// unmapped window, wait for the load, write the picture and return the exit code.
#include "launch_options.h"

namespace schedscope::gui {

// Needs a QApplication. Returns 0 on success, 1 when the load failed (the image is still
// written, showing the error banner) or the file could not be written.
int runScreenshot(const LaunchOptions& options);

}  // namespace schedscope::gui
