// A busy loop for MS milliseconds of wall time (checks the clock every few thousand iterations).
// Build: gcc -O2 -o spin spin.c    Run: ./spin MS
#include <stdlib.h>
#include <time.h>

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char** argv) {
    double ms = argc > 1 ? atof(argv[1]) : 100;
    double end = now_ms() + ms;
    volatile unsigned long x = 0;
    while (now_ms() < end)
        for (int i = 0; i < 4096; ++i) x += (unsigned long)i;
    return 0;
}
