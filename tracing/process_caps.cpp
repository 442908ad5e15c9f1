#include "process_caps.h"

#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace schedscope::tracing {
namespace {

constexpr int kLastCapGuess = 63;

bool readCaps(__user_cap_data_struct (&data)[2]) {
    __user_cap_header_struct hdr{};
    hdr.version = _LINUX_CAPABILITY_VERSION_3;
    hdr.pid = 0;
    return syscall(SYS_capget, &hdr, data) == 0;
}

bool inSet(const __user_cap_data_struct (&d)[2], int cap) {
    return (d[cap / 32].effective >> (cap % 32)) & 1u;
}

std::string errnoText(const char* what) { return std::string(what) + ": " + std::strerror(errno); }

}  // namespace

bool hasEffectiveCap(int cap) {
    __user_cap_data_struct d[2]{};
    return cap >= 0 && cap < 64 && readCaps(d) && inSet(d, cap);
}

bool canLoadBpf() {
    return hasEffectiveCap(kCapSysAdmin) || (hasEffectiveCap(kCapBpf) && hasEffectiveCap(kCapPerfmon));
}

Status dropCapabilities(const std::vector<int>& keep) {
    auto kept = [&](int c) {
        for (int k : keep)
            if (k == c) return true;
        return false;
    };
    // The bounding set first (needs CAP_SETPCAP, which we may hold only now); EINVAL past the
    // kernel's last capability ends the loop.
    for (int c = 0; c <= kLastCapGuess; ++c) {
        if (kept(c)) continue;
        if (prctl(PR_CAPBSET_DROP, c, 0, 0, 0) != 0) {
            if (errno == EINVAL) break;
            if (errno != EPERM) return Error{errnoText("prctl(PR_CAPBSET_DROP)")};
        }
    }
    if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 && errno != EINVAL)
        return Error{errnoText("prctl(PR_CAP_AMBIENT_CLEAR_ALL)")};
    __user_cap_header_struct hdr{};
    hdr.version = _LINUX_CAPABILITY_VERSION_3;
    __user_cap_data_struct d[2]{};
    for (int c : keep) {
        if (c < 0 || c >= 64) continue;
        d[c / 32].permitted |= 1u << (c % 32);
        d[c / 32].effective |= 1u << (c % 32);
    }
    if (syscall(SYS_capset, &hdr, d) != 0) return Error{errnoText("capset")};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return Error{errnoText("prctl(PR_SET_NO_NEW_PRIVS)")};
    return {};
}

std::string effectiveCapsText() {
    static const char* names[] = {"chown", "dac_override", "dac_read_search", "fowner", "fsetid", "kill", "setgid",
                                  "setuid", "setpcap", "linux_immutable", "net_bind_service", "net_broadcast",
                                  "net_admin", "net_raw", "ipc_lock", "ipc_owner", "sys_module", "sys_rawio",
                                  "sys_chroot", "sys_ptrace", "sys_pacct", "sys_admin", "sys_boot", "sys_nice",
                                  "sys_resource", "sys_time", "sys_tty_config", "mknod", "lease", "audit_write",
                                  "audit_control", "setfcap", "mac_override", "mac_admin", "syslog", "wake_alarm",
                                  "block_suspend", "audit_read", "perfmon", "bpf", "checkpoint_restore"};
    __user_cap_data_struct d[2]{};
    if (!readCaps(d)) return "?";
    std::string out;
    for (int c = 0; c < 64; ++c) {
        if (!inSet(d, c)) continue;
        if (!out.empty()) out += ',';
        out += c < static_cast<int>(sizeof names / sizeof *names) ? std::string("cap_") + names[c] : std::to_string(c);
    }
    return out.empty() ? "none" : out;
}

}  // namespace schedscope::tracing
