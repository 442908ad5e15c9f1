#include "crash_guard.h"

#include <csetjmp>
#include <csignal>
#include <mutex>

namespace schedscope::tracing {
namespace {

constexpr int kFaults[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};
constexpr int kMaxSignal = 65;

thread_local sigjmp_buf* t_guard = nullptr;  // this thread is inside callSurvivingCrashes()
struct sigaction g_previous[kMaxSignal];      // who had each fault signal before us
std::mutex g_install;

void onFault(int sig, siginfo_t* info, void* ucontext) {
    if (sigjmp_buf* env = t_guard) {
        t_guard = nullptr;
        siglongjmp(*env, sig);
    }
    // Not ours: the handler that was there before (a sanitizer's, a test framework's), else the
    // default action: restored, and the faulting instruction runs again and ends the process.
    const struct sigaction& prev = g_previous[sig];
    if ((prev.sa_flags & SA_SIGINFO) && prev.sa_sigaction) {
        prev.sa_sigaction(sig, info, ucontext);
    } else if (!(prev.sa_flags & SA_SIGINFO) && prev.sa_handler != SIG_DFL && prev.sa_handler != SIG_IGN) {
        prev.sa_handler(sig);
    } else {
        std::signal(sig, SIG_DFL);
    }
}

// Ours on every fault signal. Checked on each call: a handler installed after ours (a crash
// reporter, a test framework) would otherwise take the fault and end the process.
void installHandler() {
    std::lock_guard lock(g_install);
    for (int sig : kFaults) {
        struct sigaction current {};
        sigaction(sig, nullptr, &current);
        if ((current.sa_flags & SA_SIGINFO) && current.sa_sigaction == onFault) continue;
        struct sigaction ours {};
        ours.sa_sigaction = onFault;
        ours.sa_flags = SA_SIGINFO;
        sigemptyset(&ours.sa_mask);
        sigaction(sig, &ours, &g_previous[sig]);
    }
}

}  // namespace

bool callSurvivingCrashes(void (*body)(void*), void* context) {
    installHandler();
    sigjmp_buf* const outer = t_guard;  // a guarded call inside another: back to it afterwards
    sigjmp_buf env;
    // savemask 1: the jump restores the signal mask, which the handler ran with its fault blocked
    if (sigsetjmp(env, 1) != 0) {
        t_guard = outer;
        return false;
    }
    t_guard = &env;
    body(context);
    t_guard = outer;
    return true;
}

}  // namespace schedscope::tracing
