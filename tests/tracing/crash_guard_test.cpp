// callSurvivingCrashes(): a fault inside the call comes back as false, on the calling thread;
// the process, and calls after it, go on.
#include <gtest/gtest.h>

#include <csignal>
#include <thread>

#include "crash_guard.h"

namespace schedscope::tracing {
namespace {

// raise(): the same handler as a real fault, without undefined behaviour a sanitizer would
// stop at first
void faultWith(void* signal) { std::raise(*static_cast<int*>(signal)); }
void setFlag(void* flag) { *static_cast<bool*>(flag) = true; }

TEST(CrashGuard, AFaultInsideTheCallReturnsFalseAndTheProcessGoesOn) {
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL}) {
        int s = sig;
        EXPECT_FALSE(callSurvivingCrashes(faultWith, &s)) << sig;
    }
    bool ran = false;
    EXPECT_TRUE(callSurvivingCrashes(setFlag, &ran));
    EXPECT_TRUE(ran);
}

// A guarded call inside another: the inner fault returns to the inner call, and the outer one
// still survives its own fault afterwards.
TEST(CrashGuard, NestedCallsReturnToTheirOwnCaller) {
    struct Ctx {
        bool inner = true;
    } ctx;
    auto outer = [](void* c) {
        int s = SIGSEGV;
        static_cast<Ctx*>(c)->inner = callSurvivingCrashes(faultWith, &s);
        std::raise(SIGSEGV);
    };
    EXPECT_FALSE(callSurvivingCrashes(outer, &ctx));
    EXPECT_FALSE(ctx.inner);
}

// The guard is the calling thread's: another thread's guarded calls fault and return alone.
TEST(CrashGuard, EachThreadHasItsOwnGuard) {
    bool results[4] = {true, true, true, true};
    std::thread threads[4];
    for (int i = 0; i < 4; ++i)
        threads[i] = std::thread([&results, i] {
            int s = SIGSEGV;
            for (int k = 0; k < 100; ++k) results[i] = results[i] && !callSurvivingCrashes(faultWith, &s);
        });
    for (auto& t : threads) t.join();
    for (bool r : results) EXPECT_TRUE(r);
}

}  // namespace
}  // namespace schedscope::tracing
