// CapturedStderr: what a library writes to stderr while it lives is read back, and stderr
// points where it did before once it ends, also when a QuietDescriptor holds it.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "util/quiet_descriptor.h"

namespace schedscope {
namespace {

// writes `text` through both the descriptor and the C stream, as C libraries do
void say(const std::string& text) {
    ASSERT_EQ(::write(STDERR_FILENO, text.data(), text.size()), static_cast<ssize_t>(text.size()));
    std::fputs(text.c_str(), stderr);
}

TEST(CapturedStderr, ReadsWhatWasWrittenAndPutsStderrBack) {
    const int before = ::dup(STDERR_FILENO);
    ASSERT_GE(before, 0);
    {
        CapturedStderr said;
        say("Synthetic string with unknown object type\n");
        EXPECT_EQ(said.text(), "Synthetic string with unknown object type\nSynthetic string with unknown object type\n");
        say("");  // after text(), stderr is back: nothing more is captured
        EXPECT_EQ(said.text(), "Synthetic string with unknown object type\nSynthetic string with unknown object type\n");
    }
    // the same file as before the capture
    struct stat was {}, now {};
    ASSERT_EQ(::fstat(before, &was), 0);
    ASSERT_EQ(::fstat(STDERR_FILENO, &now), 0);
    EXPECT_EQ(was.st_ino, now.st_ino);
    EXPECT_EQ(was.st_dev, now.st_dev);
    ::close(before);
}

TEST(CapturedStderr, MoreThanThePipeHoldsIsDroppedNotWaitedFor) {
    CapturedStderr said;
    const std::string line(1000, 'x');
    for (int i = 0; i < 200; ++i) (void)::write(STDERR_FILENO, line.data(), line.size());  // 200 KB: would block a full pipe
    const std::string text = said.text();
    EXPECT_GE(text.size(), 4096u);
    EXPECT_LT(text.size(), 200000u);
}

TEST(CapturedStderr, CapturesNothingWhileAQuietDescriptorHoldsStderr) {
    const QuietDescriptor quiet(STDERR_FILENO);
    CapturedStderr said;
    say("to /dev/null\n");
    EXPECT_EQ(said.text(), "");
}

}  // namespace
}  // namespace schedscope
