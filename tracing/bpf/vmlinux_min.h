/* Minimal stand-in for a bpftool-generated vmlinux.h: only the kernel types sched.bpf.c uses,
 * marked preserve_access_index so libbpf relocates every field (CO-RE) against the running
 * kernel's BTF at load time. Used when the build host has no /sys/kernel/btf/vmlinux (see
 * tracing/CMakeLists.txt, SCHEDSCOPE_BPF_VMLINUX). Loading still needs BTF on the target. */
#ifndef __VMLINUX_H__
#define __VMLINUX_H__

typedef signed char __s8;
typedef unsigned char __u8;
typedef short __s16;
typedef unsigned short __u16;
typedef int __s32;
typedef unsigned int __u32;
typedef long long __s64;
typedef unsigned long long __u64;
typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s32 s32;
typedef __s64 s64;
typedef _Bool bool;
enum { false = 0, true = 1 };
typedef int pid_t;
typedef __u16 __be16;
typedef __u32 __be32;
typedef __u32 __wsum;

enum bpf_map_type {
    BPF_MAP_TYPE_HASH = 1,
    BPF_MAP_TYPE_PERCPU_ARRAY = 6,
    BPF_MAP_TYPE_LRU_HASH = 9,
    BPF_MAP_TYPE_RINGBUF = 27,
};
enum { BPF_ANY = 0, BPF_NOEXIST = 1, BPF_EXIST = 2 };
enum { BPF_RB_NO_WAKEUP = 1, BPF_RB_FORCE_WAKEUP = 2 };
enum { BPF_RB_AVAIL_DATA = 0, BPF_RB_RING_SIZE = 1, BPF_RB_CONS_POS = 2, BPF_RB_PROD_POS = 3 };

#pragma clang attribute push(__attribute__((preserve_access_index)), apply_to = record)
struct thread_info {
    unsigned long flags;
    __u32 cpu;
};
struct task_struct {
    struct thread_info thread_info;
    unsigned int __state;
    int on_rq;
    int prio;
    int wake_cpu;
    pid_t pid;
    pid_t tgid;
    char comm[16];
    unsigned int in_execve : 1;  /* a bitfield: read with BPF_CORE_READ_BITFIELD_PROBED */
};
#pragma clang attribute pop

#endif
