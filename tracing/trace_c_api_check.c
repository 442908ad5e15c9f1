/* Compile-time check: trace_c_api.h must agree with the installed public headers (a
 * conflicting declaration is an error in C). See trace_c_api.h for why it exists. */
#define _GNU_SOURCE
#include <trace-cmd/trace-cmd.h>
#include <tracefs.h>

#include "trace_c_api.h"

_Static_assert((int)TRACECMD_FL_LOAD_NO_PLUGINS == (int)SCHEDSCOPE_TRACECMD_FL_LOAD_NO_PLUGINS, "flag value");
