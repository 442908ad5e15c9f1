// schedscope-capture's argument parser (no privileges needed): --socket paths are checked for
// syntax before the helper does anything with them.
#include <gtest/gtest.h>

#include "capture_args.h"

using namespace schedscope;
using namespace schedscope::capture;

TEST(CaptureArgs, SocketPathSyntax) {
    for (const char* good : {"/run/user/1000/schedscope.sock", "/tmp/s", "/tmp//s", "/a.b/..c/s..."})
        EXPECT_TRUE(checkSocketPathSyntax(good)) << good;
    const std::string tooLong = "/" + std::string(107, 'x');
    for (const std::string& bad : {std::string(), std::string("s"), std::string("./s"), std::string("/tmp/../s"),
                                   std::string("/tmp/./s"), std::string("/tmp/.."), std::string("/tmp/"),
                                   std::string("/tmp/a\nb"), std::string("/tmp/a\x7f"), tooLong}) {
        Status s = checkSocketPathSyntax(bad);
        ASSERT_FALSE(s) << bad;
        EXPECT_EQ(s.error().find('\n'), std::string::npos) << s.error();
    }
    EXPECT_TRUE(checkSocketPathSyntax("/" + std::string(106, 'x')));
}

TEST(CaptureArgs, SocketOption) {
    auto a = parseCaptureArgs({"--socket", "/tmp/s", "--mode=stream"});
    ASSERT_TRUE(a) << a.error();
    EXPECT_EQ(a->socketPath, "/tmp/s");
    EXPECT_FALSE(a->aggregate);
    auto b = parseCaptureArgs({"--socket=/tmp/a\nb"});
    ASSERT_FALSE(b);
    EXPECT_EQ(b.error().find('\n'), std::string::npos) << "control characters are shown escaped";
    EXPECT_FALSE(parseCaptureArgs({"--socket", "/tmp/a", "--socket", "/tmp/b"}));
    EXPECT_FALSE(parseCaptureArgs({"--socket"}));
}
