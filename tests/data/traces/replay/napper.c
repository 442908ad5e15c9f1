// napper nap ROUNDS SLEEP_MS: ROUNDS x (spin 50 us, sleep SLEEP_MS ms); napper hog S: spin S seconds
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
static void spin(double s) { double e = now() + s; while (now() < e) {} }
int main(int argc, char** argv) {
    if (argc > 1 && !strcmp(argv[1], "hog")) { spin(atof(argv[2])); return 0; }
    int rounds = argc > 2 ? atoi(argv[2]) : 100;
    double sleep_ms = argc > 3 ? atof(argv[3]) : 10;
    for (int i = 0; i < rounds; ++i) { spin(50e-6); usleep((useconds_t)(sleep_ms * 1000)); }
    return 0;
}
