// The sysfs snapshot reader: the input is split on NUL into the contents of the files of a
// 4-CPU, 2-node snapshot (masks, cache lists, node cpulists and distances, online list).
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "domains/domain_builder.h"
#include "topology/sysfs_loader.h"

namespace fs = std::filesystem;

// Each input is ~40 files written, read and removed: on tmpfs, not a disk's file system, whose
// mkdir/open/unlink were most of the time per input (260 inputs/s on ext4).
static fs::path scratchDir() {
    std::error_code ec;
    const fs::path shm = "/dev/shm";
    if (fs::is_directory(shm, ec) && access(shm.c_str(), W_OK) == 0) return shm;
    return fs::temp_directory_path(ec);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const fs::path root = scratchDir() / ("schedscope-fuzz-sysfs-" + std::to_string(getpid()));
    std::vector<std::string> parts(1);
    for (size_t i = 0; i < size; ++i) {
        if (data[i] == 0) parts.emplace_back();
        else parts.back() += static_cast<char>(data[i]);
    }
    std::vector<std::string> files = {"cpu/online"};
    for (int c = 0; c < 4; ++c) {
        std::string d = "cpu/cpu" + std::to_string(c);
        for (const char* f : {"/topology/thread_siblings_list", "/topology/cluster_cpus_list",
                              "/topology/core_siblings_list", "/topology/package_cpus_list",
                              "/cache/index0/shared_cpu_list", "/cache/index0/level", "/cpu_capacity"})
            files.push_back(d + f);
    }
    for (int n = 0; n < 2; ++n) {
        files.push_back("node/node" + std::to_string(n) + "/cpulist");
        files.push_back("node/node" + std::to_string(n) + "/distance");
    }
    fs::remove_all(root);
    for (size_t i = 0; i < files.size() && i < parts.size(); ++i) {
        fs::path p = root / "sys/devices/system" / files[i];
        fs::create_directories(p.parent_path());
        std::ofstream(p) << parts[i];
    }
    auto t = schedscope::loadSysfsTopology(root.string(), schedscope::Arch::Arm64);
    if (t.ok()) {
        if (!t->check().ok()) std::abort();
        auto tree = schedscope::buildDomains(*t, {});
        (void)tree;
    }
    return 0;
}
