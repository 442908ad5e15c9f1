#pragma once
// The task groups a recording without a groups sidecar most likely ran in, guessed as the
// kernel's autogroup builds them (CONFIG_SCHED_AUTOGROUP, kernel.sched_autogroup_enabled): a
// session's tasks share one group, and a forked task joins its parent's (sched_autogroup_fork()).
// The trace shows the forks in its window; it cannot show a setsid() or the forks before it.
// So each task the trace does not show being forked is taken as the leader of a session of its
// own (as a login shell or a daemon is), and every task forked in the window as in its
// parent's. Kernel threads and init stay in the root group, as the kernel keeps them.
//
// Why guess at all: the balancer weighs a task by its hierarchical load (task_h_load()), its
// share of its group's share of the CPU. 160 tasks of one session weigh together what one task
// of the root group weighs, so a balance pass between overloaded CPUs moves many of them at
// once; replayed in the root group each weighs a whole task and a pass moves a few.
#include "event_store.h"
#include "task_groups.h"

namespace schedscope::replay {

// A snapshot (tracing/task_groups.h) with a group per guessed session leader ("session-PID",
// shares 1024: an autogroup of nice 0) and "/" for kernel threads, kthreadd and init; the
// tasks forked in the window find theirs through their parents (tracing::groupsOfTasks()).
tracing::TaskGroupSnapshot guessSessionsFromForks(const tracing::EventStore& store);

}  // namespace schedscope::replay
