// Pipe ping-pong: the parent forks a child; they pass one byte back and forth N times over two
// pipes, so each wakes the other (a 1:1 waker -> wakee edge in both directions).
// With "pin" the parent runs on CPU 0 and the child on CPU 1, so every wakeup crosses CPUs and
// every wakee starts from an idle CPU.
// Build: gcc -O2 -o pingpong pingpong.c    Run: ./pingpong [N] [pin]
#define _GNU_SOURCE
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char** argv) {
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    int a[2], b[2];
    if (pipe(a) || pipe(b)) return 1;
    char c = 0;
    pid_t child = fork();
    if (argc > 2 && strcmp(argv[2], "pin") == 0) {
        cpu_set_t cpus;
        CPU_ZERO(&cpus);
        CPU_SET(child == 0 ? 1 : 0, &cpus);
        if (sched_setaffinity(0, sizeof cpus, &cpus)) return 1;
    }
    if (child == 0) {
        for (int i = 0; i < n; ++i) {
            if (read(a[0], &c, 1) != 1) _exit(1);
            if (write(b[1], &c, 1) != 1) _exit(1);
        }
        _exit(0);
    }
    for (int i = 0; i < n; ++i) {
        if (write(a[1], &c, 1) != 1) return 1;
        if (read(b[0], &c, 1) != 1) return 1;
    }
    waitpid(child, NULL, 0);
    return 0;
}
