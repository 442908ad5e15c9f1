// Pipe ping-pong: the parent forks a child; they pass one byte back and forth N times over two
// pipes, so each wakes the other (a 1:1 waker -> wakee edge in both directions).
// Build: gcc -O2 -o pingpong pingpong.c    Run: ./pingpong [N]
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char** argv) {
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    int a[2], b[2];
    if (pipe(a) || pipe(b)) return 1;
    char c = 0;
    pid_t child = fork();
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
