/* The records and maps shared by sched.bpf.c and user space (BpfSource, the capture helper and
 * its protocol). Plain C, fixed layout, little-endian on every architecture we build for.
 * Changing a layout here changes the capture protocol: bump kCaptureProtocolVersion. */
#ifndef SCHEDSCOPE_SCHED_RECORD_H
#define SCHEDSCOPE_SCHED_RECORD_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

/* Record kinds (ssc_record.kind). */
enum ssc_kind {
    SSC_SWITCH = 0,     /* sched_switch */
    SSC_WAKING = 1,     /* sched_waking */
    SSC_WAKEUP = 2,     /* sched_wakeup */
    SSC_WAKEUP_NEW = 3, /* sched_wakeup_new */
    SSC_MIGRATE = 4,    /* sched_migrate_task */
    SSC_FORK = 5,       /* sched_process_fork */
    SSC_EXIT = 6,       /* sched_process_exit */
    SSC_COMM = 7,       /* not an event: the name of `pid` from `ts` on (struct ssc_comm_record) */
    SSC_EXEC = 8,       /* sched_process_exec */
    SSC_KIND_COUNT = 9
};

/* prev_state of a switch, as the kernel prints it (R S D T t X Z P I). */
enum ssc_state {
    SSC_STATE_R = 0, SSC_STATE_S, SSC_STATE_D, SSC_STATE_T, SSC_STATE_t, SSC_STATE_X, SSC_STATE_Z,
    SSC_STATE_P, SSC_STATE_I, SSC_STATE_UNKNOWN
};

/* state bit of a wake record: the tracepoint ran in a hardirq (a device, an hrtimer's expiry) or
 * in a softirq other than the network's; see tracing/interrupt_context.h */
#define SSC_WAKE_BY_INTERRUPT 0x80
/* state bit of a migrate record: the task was inside execve() (task_struct::in_execve), where a
 * stopper's move is sched_exec()'s; a reader that predates the bit ignored migrate states */
#define SSC_MIGRATE_IN_EXEC 0x80
/* state bit of a migrate record: the tracepoint ran in SCHED_SOFTIRQ (periodic and nohz idle
 * balancing), as SchedEvent::inSchedSoftirq */
#define SSC_MIGRATE_IN_SCHED_SOFTIRQ 0x40

/* Migration causes, in the order of tracing::MigrationCause (static_assert'ed in C++). */
enum ssc_cause {
    SSC_CAUSE_WAKEUP = 0,
    SSC_CAUSE_FORK = 1,
    SSC_CAUSE_LB_PERIODIC = 2,
    SSC_CAUSE_LB_NEWIDLE = 3,
    SSC_CAUSE_LB_ACTIVE = 4,
    SSC_CAUSE_NUMA = 5,
    SSC_CAUSE_AFFINITY = 6,
    SSC_CAUSE_EXEC = 7,
    SSC_CAUSE_COUNT = 8
};

/* One event, 24 bytes (32 in the ring buffer with its 8-byte header).
 *   pid   switch: prev pid; waking/wakeup/wakeup_new/migrate/exit: the task; fork: parent
 *   arg   switch: next pid; fork: child pid; migrate: src << 16 | dst;
 *         waking/wakeup/wakeup_new: target CPU; exit: -1; exec: old pid (the thread that called
 *         execve(), whose pid a multithreaded process's exec gives to the leader)
 *   prio  switch: prev prio; waking/wakeup/wakeup_new/migrate/exit: prio; fork: 0
 *   state switch: enum ssc_state of prev; else SSC_STATE_UNKNOWN, for the wake kinds with
 *         SSC_WAKE_BY_INTERRUPT set when an interrupt did the wakeup (a reader that predates
 *         the bit sees a state it does not know, which it ignored for wake kinds anyway)
 *   waker waking/wakeup/wakeup_new: 1 + the pid that ran the tracepoint, 24 bits little-endian;
 *         0 when unknown (a pid >= 2^24 - 1) and for every other kind. These bytes were zero
 *         padding before, which reads as unknown, so the protocol version did not change. */
struct ssc_record {
    __u64 ts;   /* bpf_ktime_get_ns(): CLOCK_MONOTONIC ns */
    __s32 pid;
    __s32 arg;
    __u16 cpu;  /* CPU that executed the tracepoint */
    __u8 kind;  /* enum ssc_kind */
    __u8 prio;
    __u8 state; /* enum ssc_state */
    __u8 waker[3];
};

/* kind == SSC_COMM: 40 bytes. Sent the first time a pid is seen and when its name changes. */
struct ssc_comm_record {
    struct ssc_record h;
    char comm[16];
};

/* log2 histograms: bucket b counts durations in [2^b, 2^(b+1)) ns, bucket 0 also 0 ns, the last
 * bucket everything from 2^(SSC_HIST_BUCKETS-1) ns (~2.1 s) up. */
#define SSC_HIST_BUCKETS 32

/* Per-CPU counters (a BPF_MAP_TYPE_PERCPU_ARRAY with one element). */
struct ssc_cpu_stats {
    __u64 events[SSC_KIND_COUNT]; /* tracepoint hits by kind (SSC_COMM: comm records sent) */
    __u64 lost;                  /* ring buffer reservations that failed */
    __u64 slice_start;           /* internal: when the current task was switched in */
    __u64 in_sched_softirq;      /* internal: inside SCHED_SOFTIRQ (aggregate mode) */
    __u64 run_hist[SSC_HIST_BUCKETS];  /* aggregate mode: run time of each slice (not idle) */
    __u64 wait_hist[SSC_HIST_BUCKETS]; /* aggregate mode: runnable -> running latency */
};

/* Key of the in-kernel migration counters (aggregate mode). */
struct ssc_mig_key {
    __u16 src;
    __u16 dst;
    __u8 cause; /* enum ssc_cause */
    __u8 pad[3];
};

#endif
