#pragma once
// Sysfs snapshots as hwloc-gather-topology and similar tools save them: a tarball holding one
// directory, which holds sys/ (and proc/), or fsroot/sys/ for hwloc's x86+linux dumps. The
// loader wants the directory holding sys/; these find it in an extracted tree and extract an
// archive (with tar, which every Debian system has) into a private temporary directory.
#include <string>

#include "util/result.h"

namespace schedscope {

// A path ending in .tar, .tar.bz2, .tbz2, .tar.gz, .tgz, .tar.xz or .txz.
bool isSnapshotArchive(const std::string& path);

// `dir` itself when it holds sys/devices/system/cpu, else the one directory up to three levels
// below it that does; an error naming `dir` when none or several do.
Result<std::string> findSnapshotRoot(const std::string& dir);

// What an archive may unpack to. A sysfs snapshot is small (a few hundred thousand files of a
// few bytes for thousands of CPUs), so an archive that lists more is refused before anything is
// written: a hostile or mistaken one cannot fill $TMPDIR.
struct ArchiveLimits {
    long long maxBytes = 512LL << 20;
    long long maxMembers = 2'000'000;
};

// An archive extracted into a fresh directory under $TMPDIR (or /tmp), removed with the object.
class ExtractedSnapshot {
public:
    static Result<ExtractedSnapshot> extract(const std::string& archive, const ArchiveLimits& limits = {});
    ExtractedSnapshot(ExtractedSnapshot&& other) noexcept;
    ExtractedSnapshot& operator=(ExtractedSnapshot&&) = delete;
    ExtractedSnapshot(const ExtractedSnapshot&) = delete;
    ExtractedSnapshot& operator=(const ExtractedSnapshot&) = delete;
    ~ExtractedSnapshot();

    const std::string& dir() const { return dir_; }

private:
    explicit ExtractedSnapshot(std::string dir) : dir_(std::move(dir)) {}
    std::string dir_;
};

}  // namespace schedscope
