// The progress line's text: the share of simulated time done, and the wall time left at the
// rate so far once there is enough of a rate to tell.
#include <gtest/gtest.h>

#include "progress_line.h"

namespace schedscope::cli {
namespace {

TEST(ProgressText, SaysTheShareDoneAndTheTimeLeftAtTheRateSoFar) {
    // a quarter in 10 s: three quarters take 30 s more
    EXPECT_EQ(progressText("simulating", 0.25, 20.0, 10.0), "simulating:  25% of 20.0 s simulated, about 30 s left");
    // a tenth in 20 s: 180 s more, said in minutes
    EXPECT_EQ(progressText("simulating", 0.10, 60.0, 20.0), "simulating:  10% of 60.0 s simulated, about 3 min left");
}

TEST(ProgressText, NoTimeLeftBeforeThereIsARateOrOnceDone) {
    EXPECT_EQ(progressText("simulating", 0.01, 20.0, 30.0), "simulating:   1% of 20.0 s simulated");  // barely started
    EXPECT_EQ(progressText("simulating", 0.50, 20.0, 0.5), "simulating:  50% of 20.0 s simulated");   // under a second
    EXPECT_EQ(progressText("3 runs, 2 at once", 1.0, 5.0, 40.0), "3 runs, 2 at once: 100% of 5.0 s simulated");
}

}  // namespace
}  // namespace schedscope::cli
