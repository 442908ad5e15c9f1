#include "helper_privileges.h"

#include <grp.h>
#include <pwd.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <string>

#include "process_caps.h"

namespace schedscope::capture {
namespace {

bool number(const char* s, unsigned long& out) {
    if (!s || !*s) return false;
    auto [p, ec] = std::from_chars(s, s + std::strlen(s), out);
    return ec == std::errc() && *p == '\0' && out > 0 && out < 0xfffffffeul;
}

std::string errnoText(const char* what) { return std::string(what) + ": " + std::strerror(errno); }

}  // namespace

std::optional<InvokingUser> invokingUser() {
    if (getuid() != 0) return std::nullopt;
    unsigned long u = 0, g = 0;
    if (number(std::getenv("PKEXEC_UID"), u)) {
        InvokingUser who{static_cast<uid_t>(u), static_cast<gid_t>(u)};
        // pkexec passes no gid: the user's primary group from the password database.
        if (const passwd* pw = getpwuid(who.uid)) who.gid = pw->pw_gid;
        return who;
    }
    if (number(std::getenv("SUDO_UID"), u) && number(std::getenv("SUDO_GID"), g))
        return InvokingUser{static_cast<uid_t>(u), static_cast<gid_t>(g)};
    return std::nullopt;
}

uid_t clientUid() {
    if (auto who = invokingUser()) return who->uid;
    return getuid();
}

AsInvokingUser::AsInvokingUser() {
    const auto who = invokingUser();
    if (!who) return;
    if (setgroups(0, nullptr) != 0) {
        status_ = Error{errnoText("setgroups")};
        return;
    }
    if (setresgid(static_cast<gid_t>(-1), who->gid, static_cast<gid_t>(-1)) != 0 ||
        setresuid(static_cast<uid_t>(-1), who->uid, static_cast<uid_t>(-1)) != 0) {
        status_ = Error{errnoText("switching to the invoking user's effective ids")};
        setresgid(static_cast<gid_t>(-1), 0, static_cast<gid_t>(-1));
        return;
    }
    switched_ = true;
}

AsInvokingUser::~AsInvokingUser() {
    if (!switched_) return;
    // Back to euid 0 (the saved uid): the kernel restores the effective capabilities.
    if (setresuid(static_cast<uid_t>(-1), 0, static_cast<uid_t>(-1)) != 0 ||
        setresgid(static_cast<gid_t>(-1), 0, static_cast<gid_t>(-1)) != 0)
        std::abort();  // half-switched ids: never continue a privileged program like this
}

Status dropPrivileges() {
    if (const auto who = invokingUser()) {
        if (Status s = tracing::dropCapabilities({tracing::kCapSetuid, tracing::kCapSetgid}); !s) return s;
        if (setgroups(0, nullptr) != 0 || setresgid(who->gid, who->gid, who->gid) != 0 ||
            setresuid(who->uid, who->uid, who->uid) != 0)
            return Error{errnoText("switching to the invoking user")};
    }
    return tracing::dropCapabilities({});
}

}  // namespace schedscope::capture
