#pragma once
// The event sources behind the GUI's live mode, behind one interface for the capture worker:
//   InProcess  a private tracefs instance in this process (root only);
//   Helper     schedscope-capture spawned on a pipe, directly or through pkexec (a normal user,
//              or forced with --capture-helper / SCHEDSCOPE_CAPTURE_HELPER=1);
//   Attach     a helper started elsewhere (`sudo schedscope-capture --socket PATH`), read from
//              its socket or FIFO (--attach-capture PATH).
// Helper records go through CaptureClient into the same EventStore as in-process events, so
// everything downstream (chunks, snapshots, views) is the same. Qt-free.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "event_store.h"
#include "util/result.h"

namespace schedscope::gui {

enum class LiveSourceKind { InProcess, Helper, Attach };

struct LiveSourceConfig {
    std::string attachPath;    // non-empty: Attach
    bool forceHelper = false;  // Helper even when this process could capture itself
    size_t bufferKb = 0;       // --buffer-kb: ring buffer per CPU (0: the kernel's or the helper's default)
};

// Attach when a path is given, Helper when forced or not root, else InProcess.
LiveSourceKind liveSourceKind(const LiveSourceConfig& config);
// Why live capture cannot start with this configuration (one line), or "" when it can be
// tried (an attach target or pkexec can still fail later; the feed reports that).
std::string liveUnavailableReason(const LiveSourceConfig& config);
// The helper's BPF ring (--ring-mb, a power of two in 1..256 MB) that holds what `bufferKb` per
// CPU would on `cpus` CPUs: one ring is shared by all CPUs.
uint32_t helperRingMbFor(size_t bufferKb, unsigned cpus);
// True when starting would go through pkexec (an authentication dialog).
bool liveNeedsAuthentication(const LiveSourceConfig& config);

class LiveFeed {
public:
    virtual ~LiveFeed() = default;
    // Waits up to `waitMs` for events and appends them to `store`. False once the source has
    // ended (endedText() says why); an error is one line.
    virtual Result<bool> poll(tracing::EventStore& store, int waitMs) = 0;
    // Events lost so far (ring buffer overruns or failed BPF reservations).
    virtual uint64_t lost() const = 0;
    // Moves counts of lost/skipped events into `store` (before its stats are read).
    virtual void flushCounts(tracing::EventStore& store) = 0;
    // What the views show as the source, e.g. "tracefs" or "BPF via schedscope-capture".
    virtual std::string label() const = 0;
    // The ring buffer per CPU the events pass through, in KB; 0 when it is not per CPU (the
    // helper's one BPF ring) or unknown.
    virtual size_t bufferKb() const { return 0; }
    virtual std::string endedText() const { return "the source ended"; }
    // Lines for the user about interference noticed since the last call (capture goes on).
    virtual std::vector<std::string> takeWarnings() { return {}; }
};

// Starts the source of `config` (spawns the helper; the helper's hello, pkexec's dialog and its
// answer come later through poll()).
Result<std::unique_ptr<LiveFeed>> openLiveFeed(const LiveSourceConfig& config);

}  // namespace schedscope::gui
