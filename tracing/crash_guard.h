#pragma once
// A call into C library code that a corrupt input can crash, made survivable.
//
// libtraceevent 1.7's tep_parse_event() dereferences garbage on some corrupt formats (a bit
// flipped in a zstd-compressed format section that still decompresses; trace-cmd report
// crashes on the same file), inside tracecmd_open_head(), before anything on our side could
// look at the text. Reading the headers in a child process first (as the instance buffers are,
// trace_dat_reader.cpp) would do it cleanly, but costs a second read of them: 0.1 s for a file
// with kallsyms, as long as loading 100k events. So the call runs with a handler for the fault
// signals that, on this thread and inside the call, jumps back out of it; any other fault goes
// to the handler that was there before, or ends the process as it would have.
//
// What it does not undo: the library's half-built state stays allocated (never freed: freeing
// it is what crashes), and a fault inside malloc itself would leave its lock taken. It is the
// last resort for inputs that would otherwise take the process, and what the user had open,
// with them.
namespace schedscope::tracing {

// Runs body(context) and returns true, or false when it raised SIGSEGV, SIGBUS, SIGFPE or
// SIGILL. `body` must be C code (or a captureless lambda calling only C): the jump out skips
// its frames, so no C++ object with a destructor may live in them.
bool callSurvivingCrashes(void (*body)(void*), void* context);

}  // namespace schedscope::tracing
