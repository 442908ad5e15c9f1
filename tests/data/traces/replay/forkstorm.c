// A fork storm: the parent forks N children one after another; each child spins for about
// WORK_US microseconds of CPU and exits; the parent reaps them all at the end.
// Build: gcc -O2 -o forkstorm forkstorm.c    Run: ./forkstorm [N] [WORK_US]
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double cpu_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

int main(int argc, char** argv) {
    int n = argc > 1 ? atoi(argv[1]) : 40;
    double work = argc > 2 ? atof(argv[2]) : 2000;
    for (int i = 0; i < n; ++i) {
        pid_t p = fork();
        if (p == 0) {
            volatile unsigned long x = 0;
            double end = cpu_us() + work;
            while (cpu_us() < end)
                for (int k = 0; k < 1024; ++k) x += (unsigned long)k;
            _exit(0);
        }
    }
    while (wait(NULL) > 0) {
    }
    return 0;
}
