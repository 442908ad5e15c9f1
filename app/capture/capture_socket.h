#pragma once
// The helper's end of `--socket PATH`: one listening Unix stream socket, one accepted client.
// The caller runs these with the invoking user's effective ids (see helper_privileges.h), so
// the file system judges the path as that user would: no root-owned file can be replaced
// through a pkexec'ed helper, and the socket file belongs to the user.
#include <signal.h>
#include <sys/types.h>

#include <string>

#include "util/result.h"

namespace schedscope::capture {

// Binds a new socket at `path` with mode 0600 and listens. An existing file is refused unless
// it is a socket nobody listens on (a stale one from a helper that was killed), which is
// replaced. Errors name the path and the reason (one line).
Result<int> listenOnSocket(const std::string& path);

struct AcceptedClient {
    int fd = -1;
    pid_t pid = 0;
    uid_t uid = 0;
};
// Waits for a client whose uid is `allowedUid` or root (SO_PEERCRED; others are turned away
// with a line on stderr), until `stop` is set. Closes nothing.
Result<AcceptedClient> acceptClient(int listenFd, uid_t allowedUid, const volatile sig_atomic_t& stop);

// The client side of the stream: true when it closed or hung up. Bytes from the client are a
// protocol violation (version 1 is one-way, helper to client): `sentData` is set then.
bool clientGone(int fd, bool isSocket, bool& sentData);

}  // namespace schedscope::capture
