#include "trace_recorder.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "trace_c_api.h"
#include "tracefs_instance.h"

namespace schedscope::tracing {
namespace {

// The clocks a trace_clock file offers: "[local] global counter ..." (the selected one in brackets).
std::vector<std::string> clockNames(const std::string& text) {
    std::vector<std::string> names;
    std::string word;
    for (char c : text + " ") {
        if (c == '[' || c == ']') continue;
        if (c == ' ' || c == '\n') {
            if (!word.empty()) names.push_back(word);
            word.clear();
        } else {
            word += c;
        }
    }
    return names;
}

// Selects `clock` for the instance's ring buffers (which empties them: done before recording).
Status setTraceClock(PrivateInstance& pi, const std::string& clock) {
    char* text = tracefs_instance_file_read(pi.get(), "trace_clock", nullptr);
    const std::string offered = text ? text : "";
    std::free(text);
    const std::vector<std::string> names = clockNames(offered);
    if (std::find(names.begin(), names.end(), clock) == names.end()) {
        std::string list;
        for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
        return Error{"--clock " + clock + ": not a trace clock of this kernel (it has: " + list + ")"};
    }
    if (tracefs_instance_file_write(pi.get(), "trace_clock", clock.c_str()) < 0)
        return Error{"--clock " + clock + ": cannot select it in tracefs instance " + pi.name()};
    return {};
}

// The file the trace.dat replaces: `output`, or the file its symlink names. A device, a pipe or
// a directory is refused: the trace is renamed into place, which would replace a /dev node.
Result<std::string> outputTarget(const std::string& output) {
    namespace fs = std::filesystem;
    if (output.empty()) return Error{"the output path is empty: give a file to write the trace.dat to"};
    if (fs::path(output).filename().empty()) return Error{output + ": names a directory: give a file to write the trace.dat to"};
    std::error_code ec;
    const fs::file_status st = fs::status(output, ec);
    if (fs::exists(st)) {
        if (!fs::is_regular_file(st))
            return Error{output + ": not a regular file (a device, a pipe or a directory): give a file to write the trace.dat to"};
        const fs::path target = fs::canonical(output, ec);
        if (ec) return Error{output + ": " + ec.message()};
        return target.string();
    }
    if (fs::is_symlink(fs::symlink_status(output, ec))) return Error{output + ": a symlink to nothing"};
    return output;
}

// The staging files of earlier recordings to `target` whose process is gone (killed with
// SIGKILL, or a crash): ".NAME.recording-PID" and its per-CPU ".cpuN" parts. A live PID's are
// another recording's under way and stay.
void removeStaleStagingFiles(const std::filesystem::path& target) {
    namespace fs = std::filesystem;
    const std::string prefix = "." + target.filename().string() + ".recording-";
    std::error_code ec;
    const fs::path dir = target.parent_path().empty() ? fs::path(".") : target.parent_path();
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        const std::string name = entry.path().filename().string();
        if (!name.starts_with(prefix)) continue;
        const std::string_view rest = std::string_view(name).substr(prefix.size());
        const size_t digits = rest.find_first_not_of("0123456789");
        if (digits == 0 || (digits != std::string_view::npos && !rest.substr(digits).starts_with(".cpu"))) continue;
        const long pid = std::strtol(std::string(rest.substr(0, digits)).c_str(), nullptr, 10);
        if (pid <= 0 || pid == getpid() || kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;
        fs::remove(entry.path(), ec);
    }
}

// A name beside `target` (the same file system, so the final rename is atomic) for the trace.dat
// while it is written, created now so an unwritable directory is said before tracing starts.
Result<std::string> createStagingFile(const std::string& target) {
    namespace fs = std::filesystem;
    const fs::path t(target);
    removeStaleStagingFiles(t);
    const fs::path staged = t.parent_path() / ("." + t.filename().string() + ".recording-" + std::to_string(getpid()));
    const int fd = open(staged.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) {
        const fs::path dir = t.parent_path().empty() ? fs::path(".") : t.parent_path();
        return Error{target + ": cannot create a file in " + dir.string() + ": " + std::strerror(errno)};
    }
    close(fd);
    return staged.string();
}

// libtracecmd says only that a write failed; the likeliest cause, a full file system, is checked.
std::string whyWriteFailed(const std::string& target) {
    const std::filesystem::path dir = std::filesystem::path(target).parent_path();
    struct statvfs fs {};
    if (statvfs(dir.empty() ? "." : dir.c_str(), &fs) != 0) return "";
    const unsigned long long freeBytes = static_cast<unsigned long long>(fs.f_bavail) * fs.f_frsize;
    return freeBytes < (1ull << 20) ? ": the file system is full (" + std::to_string(freeBytes) + " bytes free)" : "";
}

}  // namespace

std::vector<std::string> traceClocks() {
    char* text = tracefs_instance_file_read(nullptr, "trace_clock", nullptr);
    const std::string offered = text ? text : "";
    std::free(text);
    return clockNames(offered);
}

Result<RecordSummary> recordTrace(const RecordOptions& options) {
    if (options.fileVersion != 6 && options.fileVersion != 7)
        return Error{"--file-version must be 6 or 7, not " + std::to_string(options.fileVersion)};
    auto target = outputTarget(options.output);
    if (!target) return Error{target.error()};
    auto staged = createStagingFile(*target);
    if (!staged) return Error{staged.error()};
    struct StagedFile {  // removed unless renamed into place
        std::string path;
        ~StagedFile() {
            if (!path.empty()) unlink(path.c_str());
        }
    } stagedFile{*staged};
    auto inst = PrivateInstance::create();
    if (!inst) return Error{inst.error()};
    PrivateInstance& pi = **inst;
    const int cpus = pi.cpuCount();
    if (!options.clock.empty())
        if (auto set = setTraceClock(pi, options.clock); !set) return Error{set.error()};
    if (options.bufferKb > 0)
        if (auto sized = pi.setBufferKb(options.bufferKb); !sized) return Error{"--buffer-kb: " + sized.error()};

    std::vector<std::string> cpuFiles;
    std::vector<tracecmd_recorder*> recorders;
    auto cleanup = [&] {
        for (auto* r : recorders) tracecmd_free_recorder(r);
        recorders.clear();
        for (const auto& f : cpuFiles) unlink(f.c_str());
    };
    for (int c = 0; c < cpus; ++c) {
        cpuFiles.push_back(*staged + ".cpu" + std::to_string(c));
        tracecmd_recorder* r = tracecmd_create_buffer_recorder(cpuFiles.back().c_str(), c, 0, pi.get());
        if (!r) {
            cleanup();
            return Error{options.output + ": cannot create the recorder of CPU " + std::to_string(c)};
        }
        recorders.push_back(r);
    }
    // One thread per CPU moves pages from trace_pipe_raw into its file until stopped.
    std::vector<std::thread> threads;
    threads.reserve(recorders.size());
    for (auto* r : recorders) threads.emplace_back([r] { tracecmd_start_recording(r, 100000 /* us idle sleep */); });
    pi.traceOn();
    // Another tool (or a user's echo 0 > tracing_on) can switch the instance's events off under
    // us, which would end the recording early without a word: checked, undone and said.
    RecordSummary summary;
    std::atomic<bool> recording{true};
    std::thread watcher([&] {
        while (recording.load()) {
            for (int waited = 0; waited < kTamperCheckMs && recording.load(); waited += 10)
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
            for (auto& note : pi.restoreTampered()) summary.notes.push_back(std::move(note));
        }
    });
    const std::string discard = options.whileRecording ? options.whileRecording() : "";
    recording = false;
    watcher.join();
    pi.traceOff();
    for (auto* r : recorders) tracecmd_stop_recording(r);
    for (auto& t : threads) t.join();
    if (!discard.empty()) {
        cleanup();
        return Error{discard};
    }
    summary.cpus = cpus;
    summary.overruns = pi.overruns();
    summary.bufferKb = pi.bufferKb();

    // libtracecmd's warnings go to stderr; a version 6 file's top buffer, which has no
    // description section in that format, gets "Cannot find description for buffer" for
    // nothing wrong. What fails is returned and said here.
    tracecmd_set_loglevel(TEP_LOG_CRITICAL);
    tracecmd_output* out = tracecmd_output_create(staged->c_str());
    if (!out) {
        cleanup();
        return Error{options.output + ": cannot create the output file"};
    }
    tracecmd_set_quiet(out, true);  // else it prints per-CPU offsets to stdout
    bool ok = tracecmd_output_set_version(out, options.fileVersion) == 0;
    if (ok && options.fileVersion >= 7) ok = tracecmd_output_set_compression(out, "any") == 0;
    // Sched events carry no kernel addresses, and /proc/kallsyms is megabytes: leave it out.
    if (ok) ok = tracecmd_output_set_kallsyms(out, "/dev/null") == 0;
    // the formats of the events enabled (a kernel without syscall tracepoints has none of those)
    std::vector<std::string> globs = pi.enabledEvents();
    std::vector<tracecmd_event_list> list(globs.size());
    for (size_t i = 0; i < globs.size(); ++i) list[i] = {i + 1 < globs.size() ? &list[i + 1] : nullptr, globs[i].c_str()};
    if (ok) ok = tracecmd_output_write_headers(out, list.data()) == 0;
    if (ok) ok = tracecmd_write_cmdlines(out) == 0;
    // The kernel's uname, as trace-cmd record saves it: replay picks the recording's kernel
    // profile from its release.
    if (struct utsname u {}; ok && uname(&u) == 0) {
        const std::string text = std::string(u.sysname) + " " + u.nodename + " " + u.release + " " + u.machine;
        ok = tracecmd_add_option(out, SCHEDSCOPE_TRACECMD_OPTION_UNAME, static_cast<int>(text.size() + 1), text.c_str()) != nullptr;
    }
    // Each CPU's ring buffer stats at the end, as trace-cmd record saves them: readers take the
    // records the buffers overwrote from them (the pages say it only where they had room).
    for (int c = 0; ok && c < cpus; ++c) {
        const std::string file = "per_cpu/cpu" + std::to_string(c) + "/stats";
        if (char* stats = tracefs_instance_file_read(pi.get(), file.c_str(), nullptr)) {
            const std::string text = "CPU: " + std::to_string(c) + "\n" + stats;
            std::free(stats);
            ok = tracecmd_add_option(out, SCHEDSCOPE_TRACECMD_OPTION_CPUSTAT, static_cast<int>(text.size() + 1), text.c_str()) != nullptr;
        }
    }
    // The clock that stamped the events, as trace-cmd record saves it: the trace_clock file's text
    // as an option (what readers of either version parse), and the selected clock for the
    // version 6 flyrecord section, which libtracecmd would otherwise take from the top instance.
    if (ok) {
        if (char* clocks = tracefs_instance_file_read(pi.get(), "trace_clock", nullptr)) {
            ok = tracecmd_add_option(out, SCHEDSCOPE_TRACECMD_OPTION_TRACECLOCK, static_cast<int>(std::strlen(clocks) + 1),
                                     clocks) != nullptr;
            std::free(clocks);
        }
        if (char* clock = tracefs_get_clock(pi.get())) {
            tracecmd_set_out_clock(out, clock);
            std::free(clock);
        }
    }
    std::vector<char*> files;
    files.reserve(cpuFiles.size());
    for (auto& f : cpuFiles) files.push_back(f.data());
    if (ok) ok = tracecmd_append_cpu_data(out, cpus, files.data()) == 0;
    tracecmd_output_close(out);
    cleanup();
    if (!ok) return Error{options.output + ": libtracecmd failed to write the trace.dat" + whyWriteFailed(*target)};
    struct stat st {};
    if (stat(staged->c_str(), &st) == 0) summary.bytes = static_cast<uint64_t>(st.st_size);
    if (rename(staged->c_str(), target->c_str()) != 0)
        return Error{options.output + ": cannot put the trace.dat in place: " + std::strerror(errno)};
    stagedFile.path.clear();
    return summary;
}

}  // namespace schedscope::tracing
