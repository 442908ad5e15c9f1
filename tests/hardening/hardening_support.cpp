#include "hardening_support.h"

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "support/fixtures.h"

// Under ASan: malloc of an impossible size returns NULL as glibc's does (libtracecmd mallocs
// sizes read from the file and checks for NULL; tests/data/fuzz-regressions/fuzz_trace_dat).
// Past 256 MB too, as tests/fuzz/run.sh has the campaigns allocate: ASan would map the
// gigabytes a corrupt size asks for and write their shadow (one trace.dat regression took 10 s
// of system time that way and starved a live-capture test running beside it); no input here
// needs that much. ASAN_OPTIONS adds to these and wins.
// NOLINTNEXTLINE(bugprone-reserved-identifier): the sanitizer runtime's hook has this name
extern "C" const char* __asan_default_options() { return "allocator_may_return_null=1:max_allocation_size_mb=256"; }

namespace schedscope::hardening {

std::string scratchPath(const std::string& name) {
    const std::filesystem::path p = std::filesystem::path(SCHEDSCOPE_TEST_SCRATCH) / "hardening" / name;
    std::filesystem::create_directories(p.parent_path());
    return p.string();
}

void writeFile(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();  // tracefs files take the write at close; a refused one fails the test here
    if (!out) ADD_FAILURE() << "cannot write " << path;
}

void patch(std::string& data, size_t offset, const void* bytes, size_t n) {
    data.replace(offset, n, static_cast<const char*>(bytes), n);
}

CliRun runCli(const std::string& args) {
    const std::string errFile = scratchPath("cli-stderr-" + std::to_string(getpid()));
    std::string cmd = SCHEDSCOPE_CLI;  // appended: a + b + c trips a GCC 12 -Warray-bounds false positive
    cmd.append(" ").append(args).append(" 2>").append(errFile);
    CliRun r;
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) return r;
    std::array<char, 65536> buf{};
    size_t n;
    while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
    const int st = pclose(p);
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    r.err = test::readFile(errFile);
    return r;
}

}  // namespace schedscope::hardening
