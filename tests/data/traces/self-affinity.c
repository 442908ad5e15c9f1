#define _GNU_SOURCE
#include <sched.h>
#include <stdlib.h>
#include <time.h>
// self-affinity N: moves itself between CPU 0 and CPU 1 N times with sched_setaffinity(0, ...),
// spinning 1 ms on each CPU, as taskset-like runtimes pin their own threads
static void spin_ms(double ms){struct timespec a,b;clock_gettime(CLOCK_MONOTONIC,&a);do{clock_gettime(CLOCK_MONOTONIC,&b);}while((b.tv_sec-a.tv_sec)*1e3+(b.tv_nsec-a.tv_nsec)/1e6<ms);}
static void pin(int c){cpu_set_t s;CPU_ZERO(&s);CPU_SET(c,&s);sched_setaffinity(0,sizeof s,&s);}
int main(int argc,char**argv){int n=argc>1?atoi(argv[1]):40;pin(0);spin_ms(1);for(int i=0;i<n;i++){pin((i+1)%2);spin_ms(1);}return 0;}
