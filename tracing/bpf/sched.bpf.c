// SPDX-License-Identifier: GPL-2.0
/* schedscope's sched tracer (CO-RE). Two modes chosen before load through rodata:
 *   stream:    every event as a fixed ssc_record in a ring buffer (BpfSource -> EventStore);
 *   aggregate: nothing leaves the kernel but counters: events by kind, per-(src,dst,cause)
 *              migrations, per-CPU run-time and wait-time log2 histograms.
 * Every program exists twice: tp_btf (preferred) and raw_tp (fallback when tp_btf will not
 * attach); user space turns autoload on for one set. Fields are read with BPF_CORE_READ so the
 * same body is valid for both (raw_tp arguments are plain u64 to the verifier). */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "sched_record.h"

char LICENSE[] SEC("license") = "GPL";

const volatile bool do_stream = true;
const volatile bool do_aggregate = false;
const volatile __u32 ignore_tgid[2] = {0, 0};   /* stream mode: the tracer and its consumer */
const volatile __u64 wakeup_bytes = 1 << 20;    /* ring fill at which the consumer is woken */

struct {
    __uint(type, BPF_MAP_TYPE_RINGBUF);
    __uint(max_entries, 16 << 20);
} events SEC(".maps");

struct {
    __uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
    __uint(max_entries, 1);
    __type(key, __u32);
    __type(value, struct ssc_cpu_stats);
} stats SEC(".maps");

/* Last name sent per pid (first 16 bytes as two u64), so comms travel only when they change. */
struct comm_val {
    __u64 a, b;
};
struct {
    __uint(type, BPF_MAP_TYPE_LRU_HASH);
    __uint(max_entries, 32768);
    __type(key, __s32);
    __type(value, struct comm_val);
} comm_sent SEC(".maps");

/* Bumped whenever comm_sent changes (an update, or a delete at exit). */
__u32 comm_gen = 0;

/* Per CPU, the last few (pid, name) pairs this CPU saw match comm_sent, stamped with comm_gen:
 * a CPU switching between the same few tasks (any busy workload) then skips the hash lookup.
 * An entry is valid only while comm_gen is unchanged, so a name changed elsewhere (even back
 * and forth) is never missed. */
#define COMM_CACHE_WAYS 4
struct comm_cache_entry {
    __s32 pid;
    __u32 gen;
    struct comm_val v;
};
struct comm_cache {
    struct comm_cache_entry e[COMM_CACHE_WAYS];
    __u32 next;
};
struct {
    __uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
    __uint(max_entries, 1);
    __type(key, __u32);
    __type(value, struct comm_cache);
} comm_cache SEC(".maps");

struct {
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, 65536);
    __type(key, struct ssc_mig_key);
    __type(value, __u64);
} migrations SEC(".maps");

/* Aggregate mode: when each task became runnable (wakeup or preemption). */
struct {
    __uint(type, BPF_MAP_TYPE_LRU_HASH);
    __uint(max_entries, 65536);
    __type(key, __s32);
    __type(value, __u64);
} runnable_since SEC(".maps");

/* Aggregate mode: a stopper (migration/N) was woken from softirq context (active balance),
 * or from task context (affinity change, exec balance). Keyed by the stopper's pid. */
struct {
    __uint(type, BPF_MAP_TYPE_LRU_HASH);
    __uint(max_entries, 8192); /* one stopper per CPU, on the largest machines the tool reads */
    __type(key, __s32);
    __type(value, __u8);
} stopper_softirq SEC(".maps");

/* Stream mode: what this CPU is serving, so a wake record can say an interrupt did it (as a
 * trace.dat record's flags and softirq_entry say; tracing/interrupt_context.h has the rule).
 * Flags set at an entry tracepoint and cleared at its exit, not depth counts: a BPF program
 * that an interrupt finds already running on its CPU is skipped, so an entry or an exit can go
 * unseen, and a flag is right again at the next exit where a count would stay wrong for good.
 *   irq_handler  inside irq_handler_entry/exit: a device's handler
 *   hrtimer      inside hrtimer_expire_entry/exit: every hrtimer callback (nanosleep, timerfd
 *                and futex timeouts, the tick), in a hardirq or in HRTIMER_SOFTIRQ
 *   softirq_vec  1 + the vector of the softirq being served, 0 outside one (they do not nest)
 * Interrupts do not migrate, so this is per CPU. */
struct irq_ctx {
    __u8 irq_handler;
    __u8 hrtimer;
    __u16 pad;
    __u32 softirq_vec;
};
struct {
    __uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
    __uint(max_entries, 1);
    __type(key, __u32);
    __type(value, struct irq_ctx);
} irq_ctx SEC(".maps");

/* Aggregate mode: children forked and not yet woken by wake_up_new_task(). */
struct {
    __uint(type, BPF_MAP_TYPE_LRU_HASH);
    __uint(max_entries, 8192);
    __type(key, __s32);
    __type(value, __u8);
} fork_pending SEC(".maps");

static __always_inline struct ssc_cpu_stats *cpu_stats(void)
{
    __u32 zero = 0;
    return bpf_map_lookup_elem(&stats, &zero);
}

static __always_inline void count(struct ssc_cpu_stats *s, int kind)
{
    if (s && kind >= 0 && kind < SSC_KIND_COUNT)
        s->events[kind]++;
}

/* tp_btf programs read task_struct fields with plain loads (the verifier checks them against
 * BTF; CO-RE still relocates the offsets); raw_tp programs need bpf_probe_read_kernel
 * (BPF_CORE_READ), one helper call per field. The hot bodies take `btf` as a compile-time
 * constant, so each flavour keeps only its own kind of read. */
#define READ(btf, p, field) ((btf) ? (p)->field : BPF_CORE_READ(p, field))

static __always_inline bool ignored(struct task_struct *t, const bool btf)
{
    __u32 tgid = READ(btf, t, tgid);
    return tgid && (tgid == ignore_tgid[0] || tgid == ignore_tgid[1]);
}

static __always_inline __u32 log2_bucket(__u64 v)
{
    __u32 r, sh;
    r = (v > 0xffffffffull) << 5; v >>= r;
    sh = (v > 0xffff) << 4; v >>= sh; r |= sh;
    sh = (v > 0xff) << 3; v >>= sh; r |= sh;
    sh = (v > 0xf) << 2; v >>= sh; r |= sh;
    sh = (v > 0x3) << 1; v >>= sh; r |= sh;
    r |= (__u32)(v >> 1);
    return r < SSC_HIST_BUCKETS ? r : SSC_HIST_BUCKETS - 1;
}

/* Submit without waking the consumer below the threshold: every wakeup is a context switch,
 * which is another record (the self-feedback trap of PLATFORM-NOTES). The consumer drains on
 * a timer as well. */
static __always_inline void submit(void *r)
{
    __u64 avail = bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA);
    bpf_ringbuf_submit(r, avail >= wakeup_bytes ? BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP);
}

static __always_inline void emit_wake(struct ssc_cpu_stats *s, int kind, __s32 pid, __s32 arg, int prio, __u8 state,
                                      __u32 waker1)
{
    struct ssc_record *r = bpf_ringbuf_reserve(&events, sizeof(*r), 0);
    if (!r) {
        if (s)
            s->lost++;
        return;
    }
    r->ts = bpf_ktime_get_ns();
    r->pid = pid;
    r->arg = arg;
    r->cpu = (__u16)bpf_get_smp_processor_id();
    r->kind = (__u8)kind;
    r->prio = (__u8)prio;
    r->state = state;
    r->waker[0] = (__u8)waker1;
    r->waker[1] = (__u8)(waker1 >> 8);
    r->waker[2] = (__u8)(waker1 >> 16);
    submit(r);
}

static __always_inline void emit(struct ssc_cpu_stats *s, int kind, __s32 pid, __s32 arg, int prio, __u8 state)
{
    emit_wake(s, kind, pid, arg, prio, state, 0);
}

static __always_inline void forget_comm(__s32 pid)
{
    bpf_map_delete_elem(&comm_sent, &pid);
    __sync_fetch_and_add(&comm_gen, 1);
}

/* Sends t's name when it differs from the last one sent for its pid. */
static __always_inline void note_comm(struct ssc_cpu_stats *s, struct task_struct *t, __s32 pid)
{
    struct comm_val v = {};
    BPF_CORE_READ_INTO(&v, t, comm);
    __u32 zero = 0;
    struct comm_cache *c = bpf_map_lookup_elem(&comm_cache, &zero);
    __u32 gen = *(volatile __u32 *)&comm_gen;
    if (c) {
#pragma unroll
        for (int i = 0; i < COMM_CACHE_WAYS; i++) {
            struct comm_cache_entry *e = &c->e[i];
            if (e->pid == pid && e->gen == gen && e->v.a == v.a && e->v.b == v.b)
                return;
        }
    }
    struct comm_val *old = bpf_map_lookup_elem(&comm_sent, &pid);
    if (old && old->a == v.a && old->b == v.b) {
        if (c) {
            __u32 way = c->next % COMM_CACHE_WAYS;
            c->next = way + 1;
            if (way < COMM_CACHE_WAYS) {
                c->e[way].pid = pid;
                c->e[way].gen = gen;
                c->e[way].v = v;
            }
        }
        return;
    }
    bpf_map_update_elem(&comm_sent, &pid, &v, BPF_ANY);
    __sync_fetch_and_add(&comm_gen, 1);
    struct ssc_comm_record *r = bpf_ringbuf_reserve(&events, sizeof(*r), 0);
    if (!r) {
        if (s)
            s->lost++;
        forget_comm(pid); /* retry next time */
        return;
    }
    r->h.ts = bpf_ktime_get_ns();
    r->h.pid = pid;
    r->h.arg = -1;
    r->h.cpu = (__u16)bpf_get_smp_processor_id();
    r->h.kind = SSC_COMM;
    r->h.prio = 0;
    r->h.state = SSC_STATE_UNKNOWN;
    r->h.waker[0] = r->h.waker[1] = r->h.waker[2] = 0;
    __builtin_memcpy(r->comm, &v, sizeof(r->comm));
    count(s, SSC_COMM);
    submit(r);
}

/* mirrors __trace_sched_switch_state() in include/trace/events/sched.h */
static __always_inline __u8 switch_state(bool preempt, unsigned int st)
{
    if (preempt)
        return SSC_STATE_R;
    if ((st & 0x0402) == 0x0402) /* TASK_IDLE = TASK_UNINTERRUPTIBLE | TASK_NOLOAD */
        return SSC_STATE_I;
    if (st & 0x0001) return SSC_STATE_S;
    if (st & (0x0002 | 0x1000)) return SSC_STATE_D; /* incl. TASK_RTLOCK_WAIT */
    if (st & 0x0004) return SSC_STATE_T;
    if (st & 0x0008) return SSC_STATE_t;
    if (st & 0x0010) return SSC_STATE_X;
    if (st & 0x0020) return SSC_STATE_Z;
    if (st & 0x0040) return SSC_STATE_P;
    if (st & 0x0080) return SSC_STATE_X; /* TASK_DEAD */
    return SSC_STATE_R;
}

/* True while this CPU runs SCHED_SOFTIRQ (periodic and nohz load balancing), from the
 * softirq_entry/exit tracepoints (aggregate mode only). Reading preempt_count through the
 * __preempt_count ksym would be cheaper but needs CONFIG_KALLSYMS_ALL, which many kernels
 * (this project's CI among them) lack. */
static __always_inline bool in_serving_softirq(void)
{
    struct ssc_cpu_stats *s = cpu_stats();
    return s && s->in_sched_softirq;
}

static __always_inline bool is_stopper(const char *c)
{
    return c[0] == 'm' && c[1] == 'i' && c[2] == 'g' && c[3] == 'r' && c[4] == 'a' && c[5] == 't' &&
           c[6] == 'i' && c[7] == 'o' && c[8] == 'n' && c[9] == '/';
}

struct task_struct___pre514 {
    long state;
};

static __always_inline long task_state(struct task_struct *t)
{
    if (bpf_core_field_exists(t->__state))
        return BPF_CORE_READ(t, __state);
    return BPF_CORE_READ((struct task_struct___pre514 *)t, state);
}

/* Why is p moving to dst? Decided from the calling context (see tracing/migration_causes.h for
 * the trace-based rules these mirror):
 *   current is migration/N        a cpu stopper: load_balance_active when it was woken from
 *                                 softirq (active_load_balance_cpu_stop kicked by
 *                                 sched_balance_rq), exec when p is inside execve()
 *                                 (p->in_execve: sched_exec()), else affinity (affine_move_task)
 *   p->on_rq == 0                 p is not queued: try_to_wake_up() placing it -> wakeup, or
 *                                 fork when its wake_up_new_task() is pending
 *   softirq                       SCHED_SOFTIRQ (run_rebalance_domains()): load_balance_periodic,
 *                                 pulling to this CPU or, in the nohz idle balance, for another
 *   task context, dst == this CPU the balance inside __schedule() of a blocking task or of the
 *   and current blocks or is idle idle task -> load_balance_newidle
 *   anything else                 another task moved p (sched_setaffinity of a queued task ->
 *                                 move_queued_task()) -> affinity */
static __always_inline __u8 migrate_cause(struct task_struct *p, __s32 pid, int dst)
{
    char comm[16];
    bpf_get_current_comm(comm, sizeof(comm));
    __s32 cur = (__s32)bpf_get_current_pid_tgid();
    if (is_stopper(comm)) {
        __u8 *soft = bpf_map_lookup_elem(&stopper_softirq, &cur);
        if (soft && *soft)
            return SSC_CAUSE_LB_ACTIVE;
        return BPF_CORE_READ_BITFIELD_PROBED(p, in_execve) ? SSC_CAUSE_EXEC : SSC_CAUSE_AFFINITY;
    }
    if (BPF_CORE_READ(p, on_rq) == 0)
        return bpf_map_lookup_elem(&fork_pending, &pid) ? SSC_CAUSE_FORK : SSC_CAUSE_WAKEUP;
    int this_cpu = (int)bpf_get_smp_processor_id();
    if (in_serving_softirq())
        return SSC_CAUSE_LB_PERIODIC; /* its own periodic balance, or the nohz idle balance for others */
    if (dst == this_cpu) {
        if (cur == 0)
            return SSC_CAUSE_LB_NEWIDLE;
        struct task_struct *ct = (struct task_struct *)bpf_get_current_task();
        if (task_state(ct) != 0)
            return SSC_CAUSE_LB_NEWIDLE;
    }
    return SSC_CAUSE_AFFINITY;
}

static __always_inline void hist_add(__u64 *h, __u64 ns)
{
    __u32 b = log2_bucket(ns);
    if (b < SSC_HIST_BUCKETS)
        h[b]++;
}

/* ---- bodies ---- */

static __always_inline struct irq_ctx *this_irq_ctx(void)
{
    __u32 zero = 0;
    return bpf_map_lookup_elem(&irq_ctx, &zero);
}

#define NET_TX_SOFTIRQ 2 /* enum in include/linux/interrupt.h, stable since 2.6 */
#define NET_RX_SOFTIRQ 3
#define SCHED_SOFTIRQ 7
/* mirrors byInterrupt() in tracing/interrupt_context.cpp: a hardirq's wakeup, or a softirq's
 * other than the network's (loopback TCP wakes the receiver from the sender's own NET_RX) */
static __always_inline bool woken_by_interrupt(void)
{
    struct irq_ctx *c = this_irq_ctx();
    if (!c)
        return false;
    if (c->irq_handler || c->hrtimer)
        return true;
    return c->softirq_vec && c->softirq_vec != NET_TX_SOFTIRQ + 1 && c->softirq_vec != NET_RX_SOFTIRQ + 1;
}

static __always_inline int on_irq_handler(bool entry)
{
    struct irq_ctx *c = this_irq_ctx();
    if (c)
        c->irq_handler = entry;
    return 0;
}

static __always_inline int on_hrtimer(bool entry)
{
    struct irq_ctx *c = this_irq_ctx();
    if (c)
        c->hrtimer = entry;
    return 0;
}

static __always_inline int on_switch(bool preempt, struct task_struct *prev, struct task_struct *next,
                                     unsigned int prev_state, const bool btf)
{
    struct ssc_cpu_stats *s = cpu_stats();
    __s32 ppid = READ(btf, prev, pid);
    __s32 npid = READ(btf, next, pid);
    count(s, SSC_SWITCH);
    if (do_stream) {
        if (ignored(prev, btf) || ignored(next, btf))
            return 0;
        note_comm(s, next, npid);
        emit(s, SSC_SWITCH, ppid, npid, READ(btf, prev, prio), switch_state(preempt, prev_state));
    }
    if (do_aggregate && s) {
        __u64 now = bpf_ktime_get_ns();
        if (ppid != 0 && s->slice_start)
            hist_add(s->run_hist, now - s->slice_start);
        s->slice_start = now;
        if (ppid != 0 && switch_state(preempt, prev_state) == SSC_STATE_R)
            bpf_map_update_elem(&runnable_since, &ppid, &now, BPF_ANY);
        if (npid != 0) {
            __u64 *since = bpf_map_lookup_elem(&runnable_since, &npid);
            if (since) {
                if (now > *since)
                    hist_add(s->wait_hist, now - *since);
                bpf_map_delete_elem(&runnable_since, &npid);
            }
        }
    }
    return 0;
}

static __always_inline int on_wake(int kind, struct task_struct *p, const bool btf)
{
    struct ssc_cpu_stats *s = cpu_stats();
    __s32 pid = READ(btf, p, pid);
    count(s, kind);
    if (do_stream) {
        if (ignored(p, btf))
            return 0;
        if (kind != SSC_WAKEUP)
            note_comm(s, p, pid);
        /* The tracepoint runs in the waker's context (for sched_wakeup, possibly the target
         * CPU's current task): keep who that was, as trace.dat keeps common_pid. */
        const __u32 waker1 = (__u32)bpf_get_current_pid_tgid() + 1;
        const __u8 state = SSC_STATE_UNKNOWN | (woken_by_interrupt() ? SSC_WAKE_BY_INTERRUPT : 0);
        emit_wake(s, kind, pid, READ(btf, p, wake_cpu), READ(btf, p, prio), state, waker1 < (1u << 24) ? waker1 : 0);
    }
    if (do_aggregate) {
        if (kind == SSC_WAKING) {
            char comm[16];
            BPF_CORE_READ_STR_INTO(&comm, p, comm);
            if (is_stopper(comm)) {
                __u8 soft = in_serving_softirq();
                bpf_map_update_elem(&stopper_softirq, &pid, &soft, BPF_ANY);
            }
        } else {
            __u64 now = bpf_ktime_get_ns();
            bpf_map_update_elem(&runnable_since, &pid, &now, BPF_ANY);
            if (kind == SSC_WAKEUP_NEW)
                bpf_map_delete_elem(&fork_pending, &pid);
        }
    }
    return 0;
}

static __always_inline int on_migrate(struct task_struct *p, int dst)
{
    struct ssc_cpu_stats *s = cpu_stats();
    __s32 pid = BPF_CORE_READ(p, pid);
    int src = BPF_CORE_READ(p, wake_cpu);
    /* set_task_cpu() fires the tracepoint before __set_task_cpu(): task_cpu(p) is the source.
     * task_cpu() is thread_info.cpu on x86/arm64 (CONFIG_THREAD_INFO_IN_TASK). */
    if (bpf_core_field_exists(p->thread_info.cpu))
        src = BPF_CORE_READ(p, thread_info.cpu);
    count(s, SSC_MIGRATE);
    if (do_stream) {
        if (ignored(p, false))
            return 0;
        __u8 state = SSC_STATE_UNKNOWN;
        if (BPF_CORE_READ_BITFIELD_PROBED(p, in_execve))
            state |= SSC_MIGRATE_IN_EXEC;
        struct irq_ctx *c = this_irq_ctx();
        if (c && c->softirq_vec == SCHED_SOFTIRQ + 1 && !c->irq_handler && !c->hrtimer)
            state |= SSC_MIGRATE_IN_SCHED_SOFTIRQ;
        emit(s, SSC_MIGRATE, pid, (__s32)(((__u32)src & 0xffff) << 16 | ((__u32)dst & 0xffff)), BPF_CORE_READ(p, prio),
             state);
    }
    if (do_aggregate) {
        struct ssc_mig_key k = {.src = (__u16)src, .dst = (__u16)dst, .cause = migrate_cause(p, pid, dst)};
        __u64 one = 1, *n = bpf_map_lookup_elem(&migrations, &k);
        if (n)
            __sync_fetch_and_add(n, 1);
        else
            bpf_map_update_elem(&migrations, &k, &one, BPF_NOEXIST) && (n = bpf_map_lookup_elem(&migrations, &k)) &&
                __sync_fetch_and_add(n, 1);
    }
    return 0;
}

static __always_inline int on_fork(struct task_struct *parent, struct task_struct *child)
{
    struct ssc_cpu_stats *s = cpu_stats();
    __s32 cpid = BPF_CORE_READ(child, pid);
    count(s, SSC_FORK);
    if (do_stream) {
        if (ignored(parent, false))
            return 0;
        note_comm(s, child, cpid);
        emit(s, SSC_FORK, BPF_CORE_READ(parent, pid), cpid, 0, SSC_STATE_UNKNOWN);
    }
    if (do_aggregate) {
        __u8 one = 1;
        bpf_map_update_elem(&fork_pending, &cpid, &one, BPF_ANY);
    }
    return 0;
}

/* sched_process_exec: exec_binprm(), once the new image is in place (the exec migration cause
 * needs no such record: a migrate record says in_execve itself) */
static __always_inline int on_exec(struct task_struct *p, __s32 old_pid)
{
    struct ssc_cpu_stats *s = cpu_stats();
    count(s, SSC_EXEC);
    if (do_stream) {
        if (ignored(p, false))
            return 0;
        __s32 pid = BPF_CORE_READ(p, pid);
        note_comm(s, p, pid); /* its new name */
        emit(s, SSC_EXEC, pid, old_pid, BPF_CORE_READ(p, prio), SSC_STATE_UNKNOWN);
    }
    return 0;
}

static __always_inline int on_exit(struct task_struct *p)
{
    struct ssc_cpu_stats *s = cpu_stats();
    __s32 pid = BPF_CORE_READ(p, pid);
    count(s, SSC_EXIT);
    if (do_stream) {
        if (ignored(p, false))
            return 0;
        emit(s, SSC_EXIT, pid, -1, BPF_CORE_READ(p, prio), SSC_STATE_UNKNOWN);
        forget_comm(pid);
    }
    if (do_aggregate) {
        bpf_map_delete_elem(&runnable_since, &pid);
        bpf_map_delete_elem(&fork_pending, &pid);
    }
    return 0;
}

static __always_inline int on_softirq(unsigned int vec, bool entry)
{
    if (do_stream) {
        struct irq_ctx *c = this_irq_ctx();
        if (c)
            c->softirq_vec = entry ? vec + 1 : 0; /* softirqs do not nest */
    }
    if (do_aggregate && vec == SCHED_SOFTIRQ) {
        struct ssc_cpu_stats *s = cpu_stats();
        if (s)
            s->in_sched_softirq = entry;
    }
    return 0;
}

/* ---- the two attachment flavours ---- */
#define SSC_PROGS(sec, sfx, btf)                                                                        \
    SEC(sec "/sched_switch")                                                                           \
    int BPF_PROG(ssc_switch_##sfx, bool preempt, struct task_struct *prev, struct task_struct *next,  \
                 unsigned int prev_state)                                                              \
    {                                                                                                  \
        return on_switch(preempt, prev, next, prev_state, btf);                                        \
    }                                                                                                  \
    SEC(sec "/sched_waking")                                                                           \
    int BPF_PROG(ssc_waking_##sfx, struct task_struct *p) { return on_wake(SSC_WAKING, p, btf); }        \
    SEC(sec "/sched_wakeup")                                                                           \
    int BPF_PROG(ssc_wakeup_##sfx, struct task_struct *p) { return on_wake(SSC_WAKEUP, p, btf); }        \
    SEC(sec "/sched_wakeup_new")                                                                       \
    int BPF_PROG(ssc_wakeup_new_##sfx, struct task_struct *p) { return on_wake(SSC_WAKEUP_NEW, p, btf); } \
    SEC(sec "/sched_migrate_task")                                                                     \
    int BPF_PROG(ssc_migrate_##sfx, struct task_struct *p, int dest_cpu) { return on_migrate(p, dest_cpu); } \
    SEC(sec "/sched_process_fork")                                                                     \
    int BPF_PROG(ssc_fork_##sfx, struct task_struct *parent, struct task_struct *child)                 \
    {                                                                                                  \
        return on_fork(parent, child);                                                                 \
    }                                                                                                  \
    SEC(sec "/sched_process_exit")                                                                     \
    int BPF_PROG(ssc_exit_##sfx, struct task_struct *p) { return on_exit(p); }                         \
    SEC(sec "/sched_process_exec")                                                                     \
    int BPF_PROG(ssc_exec_##sfx, struct task_struct *p, int old_pid, void *bprm) { return on_exec(p, old_pid); } \
    /* each exit before its entry: the skeleton attaches in this order, so no entry is seen     \
     * without the exit that ends it */                                                           \
    SEC(sec "/softirq_exit")                                                                           \
    int BPF_PROG(ssc_softirq_exit_##sfx, unsigned int vec) { return on_softirq(vec, false); }          \
    SEC(sec "/softirq_entry")                                                                          \
    int BPF_PROG(ssc_softirq_entry_##sfx, unsigned int vec) { return on_softirq(vec, true); }          \
    SEC(sec "/irq_handler_exit")                                                                       \
    int BPF_PROG(ssc_irq_exit_##sfx, int irq, void *action, int ret) { return on_irq_handler(false); } \
    SEC(sec "/irq_handler_entry")                                                                      \
    int BPF_PROG(ssc_irq_entry_##sfx, int irq, void *action) { return on_irq_handler(true); }         \
    SEC(sec "/hrtimer_expire_exit")                                                                    \
    int BPF_PROG(ssc_hrtimer_exit_##sfx, void *timer) { return on_hrtimer(false); }                   \
    SEC(sec "/hrtimer_expire_entry")                                                                   \
    int BPF_PROG(ssc_hrtimer_entry_##sfx, void *timer, void *now) { return on_hrtimer(true); }

SSC_PROGS("tp_btf", btf, true)
SSC_PROGS("raw_tp", raw, false)
