/* The libtracecmd / libtracefs functions schedscope calls, declared for C++.
 *
 * Why not include <trace-cmd/trace-cmd.h> and <tracefs.h>? tracefs.h 1.6's inline helpers
 * (tracefs_hist_start() passes an int where an enum is expected) are not valid C++. These
 * declarations are copied from the Debian headers (libtracecmd 1.3.1 / trace-cmd 3.1.6,
 * libtracefs 1.6.4), and trace_c_api_check.c includes both this file and the real headers so
 * the C compiler rejects any mismatch at build time.
 *
 * The recorder and output functions are exported by libtracecmd.so but declared only in
 * trace-cmd's private header (lib/trace-cmd/include/private/trace-cmd-private.h of 3.1.6);
 * trace-cmd record uses them the same way. Their check is against that header's text, kept
 * here, since Debian does not ship it. */
#ifndef SCHEDSCOPE_TRACE_C_API_H
#define SCHEDSCOPE_TRACE_C_API_H

#include <sched.h> /* cpu_set_t: C callers define _GNU_SOURCE, g++ always does */
#include <stdbool.h>
#include <stddef.h>    /* size_t */
#include <sys/types.h> /* ssize_t */

#include <event-parse.h>

#ifdef __cplusplus
extern "C" {
#endif

struct tep_handle;
struct tep_event;
struct tep_record;
struct tracecmd_input;
struct tracecmd_output;
struct tracecmd_recorder;
struct tracefs_instance;
struct tracecmd_event_list;
struct tracecmd_option;

/* trace-cmd.h (public) */
struct tracecmd_input *tracecmd_open(const char *file, int flags);
struct tracecmd_input *tracecmd_open_head(const char *file, int flags);
int tracecmd_init_data(struct tracecmd_input *handle);
void tracecmd_close(struct tracecmd_input *handle);
struct tep_record *tracecmd_read_cpu_first(struct tracecmd_input *handle, int cpu);
struct tep_record *tracecmd_read_data(struct tracecmd_input *handle, int cpu);
void tracecmd_free_record(struct tep_record *record);
struct tep_handle *tracecmd_get_tep(struct tracecmd_input *handle);
void tracecmd_set_loglevel(enum tep_loglevel level);
int tracecmd_buffer_instances(struct tracecmd_input *handle);
const char *tracecmd_buffer_instance_name(struct tracecmd_input *handle, int indx);
struct tracecmd_input *tracecmd_buffer_instance_handle(struct tracecmd_input *handle, int indx);
enum { SCHEDSCOPE_TRACECMD_FL_LOAD_NO_PLUGINS = 1 << 0 };

/* tracefs.h */
const char *tracefs_tracing_dir(void);
int tracefs_set_tracing_dir(char *tracing_dir);
struct tracefs_instance *tracefs_instance_create(const char *name);
struct tracefs_instance *tracefs_instance_alloc(const char *tracing_dir, const char *name);
int tracefs_instance_destroy(struct tracefs_instance *instance);
void tracefs_instance_free(struct tracefs_instance *instance);
char *tracefs_instance_get_dir(struct tracefs_instance *instance);
char *tracefs_instance_file_read(struct tracefs_instance *instance, const char *file, int *psize);
char *tracefs_get_clock(struct tracefs_instance *instance);
ssize_t tracefs_instance_get_buffer_size(struct tracefs_instance *instance, int cpu);
int tracefs_instance_set_buffer_size(struct tracefs_instance *instance, size_t size, int cpu);
int tracefs_instance_file_write(struct tracefs_instance *instance, const char *file, const char *str);
char **tracefs_instances(const char *regex);
void tracefs_list_free(char **list);
char **tracefs_system_events(const char *tracing_dir, const char *system);
int tracefs_trace_on(struct tracefs_instance *instance);
int tracefs_trace_off(struct tracefs_instance *instance);
int tracefs_trace_is_on(struct tracefs_instance *instance);
char *tracefs_event_file_read(struct tracefs_instance *instance, const char *system, const char *event,
                              const char *file, int *psize);
int tracefs_event_enable(struct tracefs_instance *instance, const char *system, const char *event);
int tracefs_event_disable(struct tracefs_instance *instance, const char *system, const char *event);
int tracefs_iterate_raw_events(struct tep_handle *tep, struct tracefs_instance *instance, cpu_set_t *cpus,
                               int cpu_size,
                               int (*callback)(struct tep_event *, struct tep_record *, int, void *),
                               void *callback_context);
void tracefs_iterate_stop(struct tracefs_instance *instance);

/* trace-cmd-private.h of trace-cmd 3.1.6 (exported by libtracecmd.so.1.3.1) */
struct tracecmd_output *tracecmd_output_create(const char *output_file);
int tracecmd_output_set_version(struct tracecmd_output *handle, int file_version);
int tracecmd_output_set_compression(struct tracecmd_output *handle, const char *compression);
int tracecmd_output_set_kallsyms(struct tracecmd_output *handle, const char *kallsyms);
int tracecmd_output_set_trace_dir(struct tracecmd_output *handle, const char *tracing_dir);
int tracecmd_output_write_headers(struct tracecmd_output *handle, struct tracecmd_event_list *list);
int tracecmd_write_cmdlines(struct tracecmd_output *handle);
int tracecmd_append_cpu_data(struct tracecmd_output *handle, int cpus, char *const *cpu_data_files);
const char *tracecmd_get_uname(struct tracecmd_input *handle);
/* the clock the trace was recorded with ("local", "x86-tsc", ...), NULL when the file has none */
const char *tracecmd_get_trace_clock(struct tracecmd_input *handle);
unsigned long tracecmd_get_flags(struct tracecmd_input *handle);
/* TRACECMD_FL_IN_USECS of the private header's flags: the timestamps count nanoseconds (a ns
 * trace clock, or x86-tsc with the TSC2NSEC option applied) */
enum { SCHEDSCOPE_TRACECMD_FL_IN_USECS = 1 << 2 };
struct tracecmd_option *tracecmd_add_option(struct tracecmd_output *handle, unsigned short id, int size,
                                            const void *data);
/* TRACECMD_OPTION_CPUSTAT, TRACECMD_OPTION_TRACECLOCK and TRACECMD_OPTION_UNAME of the private
 * header's option enum: a CPU's ring buffer stats ("CPU: 0\n" and its per_cpu/cpu0/stats), the
 * trace_clock file's text ("[local] global ...") and "sysname nodename release machine" */
enum { SCHEDSCOPE_TRACECMD_OPTION_CPUSTAT = 2, SCHEDSCOPE_TRACECMD_OPTION_TRACECLOCK = 4, SCHEDSCOPE_TRACECMD_OPTION_UNAME = 5 };
/* the clock a version 6 file saves after its flyrecord section (else the top instance's) */
void tracecmd_set_out_clock(struct tracecmd_output *handle, const char *clock);
void tracecmd_output_close(struct tracecmd_output *handle);
void tracecmd_set_quiet(struct tracecmd_output *handle, bool set_quiet);
struct tracecmd_recorder *tracecmd_create_buffer_recorder(const char *file, int cpu, unsigned flags,
                                                          struct tracefs_instance *instance);
int tracecmd_start_recording(struct tracecmd_recorder *recorder, unsigned long sleep);
int tracecmd_stop_recording(struct tracecmd_recorder *recorder);
long tracecmd_flush_recording(struct tracecmd_recorder *recorder, bool finish);
void tracecmd_free_recorder(struct tracecmd_recorder *recorder);
/* the CPUSTAT options' text ("CPU: 0\nentries: ...\nread events: 1633\n" per CPU), or NULL */
const char *tracecmd_get_cpustats(struct tracecmd_input *handle);
/* struct tracecmd_event_list from trace-cmd-private.h: a linked list of "system:event" globs */
struct tracecmd_event_list {
    struct tracecmd_event_list *next;
    const char *glob;
};

#ifdef __cplusplus
}
#endif
#endif
