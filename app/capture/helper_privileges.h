#pragma once
// Who the helper works for, and how it gives up what it was started with. Under sudo or pkexec
// the helper runs as root on behalf of a user (SUDO_UID/SUDO_GID, PKEXEC_UID): file-system work
// for that user (the --socket file) runs with the user's effective ids, and after the BPF
// program is loaded the helper becomes that user for good, with no capabilities left.
#include <sys/types.h>

#include <optional>

#include "util/result.h"

namespace schedscope::capture {

struct InvokingUser {
    uid_t uid = 0;
    gid_t gid = 0;
};

// The user who ran us through pkexec or sudo, when we are root because of them.
std::optional<InvokingUser> invokingUser();

// The uid that may talk to us: the invoking user, else our real uid.
uid_t clientUid();

// Runs with the invoking user's effective uid/gid (and no supplementary groups) for its
// lifetime, when we are root on behalf of someone; does nothing otherwise. ok() says whether
// the switch (or the switch back, in the destructor) worked.
class AsInvokingUser {
public:
    AsInvokingUser();
    ~AsInvokingUser();
    AsInvokingUser(const AsInvokingUser&) = delete;
    AsInvokingUser& operator=(const AsInvokingUser&) = delete;
    const Status& status() const { return status_; }

private:
    bool switched_ = false;
    Status status_;
};

// Becomes the invoking user for good (when there is one) and drops every capability. The
// links, maps and the mmapped ring stay usable through their file descriptors.
Status dropPrivileges();

}  // namespace schedscope::capture
