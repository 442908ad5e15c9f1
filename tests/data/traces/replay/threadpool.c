// A thread pool: one producer posts items to a queue guarded by a mutex and a condition
// variable (futex wakeups, not WF_SYNC); N workers take an item each and spin for its length.
// usage: threadpool WORKERS ITEMS WORK_US GAP_US
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static long queued, left, work_us;
static double now_us(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e6 + t.tv_nsec / 1e3; }
static void spin(double us) { double end = now_us() + us; while (now_us() < end) ; }
static void *worker(void *arg) {
    (void)arg;
    for (;;) {
        pthread_mutex_lock(&mu);
        while (queued == 0 && left > 0) pthread_cond_wait(&cv, &mu);
        if (queued == 0 && left == 0) { pthread_mutex_unlock(&mu); return NULL; }
        queued--;
        pthread_mutex_unlock(&mu);
        spin(work_us);
    }
}
int main(int argc, char **argv) {
    if (argc != 5) { fprintf(stderr, "usage: threadpool WORKERS ITEMS WORK_US GAP_US\n"); return 2; }
    int n = atoi(argv[1]); long items = atol(argv[2]); work_us = atol(argv[3]); double gap = atof(argv[4]);
    pthread_t th[256];
    left = items;
    for (int i = 0; i < n; i++) pthread_create(&th[i], NULL, worker, NULL);
    for (long i = 0; i < items; i++) {
        spin(gap);
        pthread_mutex_lock(&mu);
        queued++; left--;
        pthread_cond_signal(&cv);
        pthread_mutex_unlock(&mu);
    }
    pthread_mutex_lock(&mu); pthread_cond_broadcast(&cv); pthread_mutex_unlock(&mu);
    for (int i = 0; i < n; i++) pthread_join(th[i], NULL);
    return 0;
}
