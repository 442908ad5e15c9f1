#pragma once
// The schema of the sched event table, declared once. Every source (trace.dat, ftrace text,
// live tracefs, a future BPF ring buffer) produces SchedEvent values; EventStore keeps them as
// struct-of-arrays columns (see event_store.h for the resident encoding).
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace schedscope::tracing {

// The event kinds the store keeps; every other event is only counted by name.
enum class EventKind : uint8_t {
    Switch,        // sched_switch
    Waking,        // sched_waking
    Wakeup,        // sched_wakeup
    WakeupNew,     // sched_wakeup_new
    MigrateTask,   // sched_migrate_task
    ProcessFork,   // sched_process_fork
    ProcessExec,   // sched_process_exec
    ProcessExit,   // sched_process_exit
    MoveNuma,      // sched_move_numa
    SwapNuma,      // sched_swap_numa
    StickNuma,     // sched_stick_numa
    CpuIdle,       // power:cpu_idle
    Count
};
constexpr int kEventKindCount = static_cast<int>(EventKind::Count);

// Names exactly as the kernel (and trace-cmd report) spell them.
constexpr std::array<std::string_view, kEventKindCount> kEventKindNames = {
    "sched_switch", "sched_waking", "sched_wakeup", "sched_wakeup_new", "sched_migrate_task",
    "sched_process_fork", "sched_process_exec", "sched_process_exit", "sched_move_numa",
    "sched_swap_numa", "sched_stick_numa", "cpu_idle"};

constexpr std::string_view eventKindName(EventKind k) { return kEventKindNames[static_cast<size_t>(k)]; }
std::optional<EventKind> eventKindFromName(std::string_view name);
// sched_waking, sched_wakeup, sched_wakeup_new: the events that carry a target CPU and a waker.
constexpr bool isWakeKind(EventKind k) { return k == EventKind::Waking || k == EventKind::Wakeup || k == EventKind::WakeupNew; }

// Task state at a sched_switch (prev_state), reduced to what the scheduler views need. The
// raw TASK_* bits differ across kernel versions; sources map the letters of the kernel's own
// table with taskStateFromLetters() (prev_state_table.h reads that table from a format).
enum class TaskState : uint8_t {
    Runnable,   // R: preempted, still on the runqueue
    Sleeping,   // S: interruptible sleep
    DiskSleep,  // D: uninterruptible sleep
    Stopped,    // T / t
    Dead,       // X / Z
    Parked,     // P
    Idle,       // I
    Unknown
};
TaskState taskStateFromChar(char c);
// The letters a kernel printed for prev_state ("S", "R+", "D|K", "x", "D|N"), with every
// kernel's table: besides 4.14+'s R S D T t X Z P I, older kernels printed x (TASK_DEAD: the
// final switch of an exiting task), K (TASK_WAKEKILL, a modifier: D|K is TASK_KILLABLE),
// W (TASK_WAKING), N (TASK_NOLOAD: D|N is TASK_IDLE, what 4.14+ prints as I) and P at 512.
TaskState taskStateFromLetters(std::string_view letters);
char taskStateChar(TaskState s);

// One decoded event. Column meanings per kind (the single place they are declared):
//   ts      timestamp in ns (trace clock)
//   cpu     CPU whose ring buffer recorded the event (the CPU that executed the tracepoint)
//   kind    EventKind
//   pid     switch: prev_pid; waking/wakeup/wakeup_new: woken pid; migrate: migrated pid;
//           fork: parent pid; exec: pid; exit: pid; move/stick_numa: pid; swap_numa: src_pid;
//           cpu_idle: state (-1 = leaving idle, 0xffffffff in the kernel)
//   pid2    switch: next_pid; fork: child_pid; exec: old_pid; swap_numa: dst_pid; else -1
//   prio    switch: prev_prio; waking/wakeup/wakeup_new/migrate/exit: prio; else 0
//   state   switch: prev_state (TaskState); else Unknown
//   srcCpu  migrate: orig_cpu; move/swap/stick_numa: src_cpu; else -1
//   dstCpu  migrate: dest_cpu; waking/wakeup/wakeup_new: target_cpu; move/swap/stick_numa:
//           dst_cpu; cpu_idle: cpu_id; else -1
//   waker   waking/wakeup/wakeup_new: the task that executed the tracepoint (common_pid), -1 when
//           the source does not say. For sched_waking and sched_wakeup_new that is the waker; a
//           sched_wakeup may run on the target CPU (the kernel's remote wakeup list), where it
//           names whatever that CPU was running.
//   byInterrupt the tracepoint ran for an interrupt (interrupt_context.h): in a hardirq or an NMI
//           (the record's trace flags), or in a softirq serving timers, block I/O, tasklets,
//           RCU or the scheduler (its CPU's latest softirq_entry); false when the source does
//           not say. A wakeup from there is no task's doing, whichever task it interrupted:
//           see wakerOf().
// Not kept: next_prio (the next task's prio is that of its own events), comm strings per event
// (kept per task as a history of names, see EventStore::commAt), numa node ids.
struct SchedEvent {
    uint64_t ts = 0;
    int32_t cpu = 0;
    EventKind kind = EventKind::Switch;
    int32_t pid = -1;
    int32_t pid2 = -1;
    int32_t prio = 0;
    TaskState state = TaskState::Unknown;
    int32_t srcCpu = -1;
    int32_t dstCpu = -1;
    int32_t waker = -1;
    bool byInterrupt = false;
    // sched_migrate_task: the task was inside execve() (task_struct::in_execve), which only the
    // BPF program can see; a trace.dat's migrations leave it false
    bool inExec = false;
    // sched_migrate_task: the tracepoint ran in the scheduler's softirq (SCHED_SOFTIRQ:
    // run_rebalance_domains(), the periodic balance of its CPU and the nohz idle balance for
    // others), from the record's softirq flag and its CPU's latest softirq_entry (a softirq of
    // no known vector counts: none other moves a queued task); false in task context or when
    // the source does not say
    bool inSchedSoftirq = false;
};

}  // namespace schedscope::tracing
