#include "support/fixtures.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>
#include <mutex>
#include <sstream>

#include "topology/hwloc_loader.h"

namespace schedscope::test {
namespace fs = std::filesystem;

std::string dataPath(const std::string& relative) { return std::string(SCHEDSCOPE_TEST_DATA) + "/" + relative; }

std::string extractFixture(const std::string& tarball) {
    static std::mutex mutex;
    std::lock_guard lock(mutex);
    std::string key = tarball;
    for (char& ch : key)
        if (ch == '/' || ch == '.') ch = '_';
    fs::path dir = fs::path(SCHEDSCOPE_TEST_SCRATCH) / key;
    if (fs::exists(dir / ".done")) return dir.string();
    // ctest runs tests as parallel processes, and two may want the same tarball: each extracts
    // into a private directory and renames it into place; the first rename wins, the others
    // drop their copy. A directory without .done is a stale one (a rename always brings it).
    const fs::path mine = dir.string() + ".tmp-" + std::to_string(::getpid());
    fs::remove_all(mine);
    fs::create_directories(mine);
    std::string cmd = "tar xf '" + dataPath(tarball) + "' -C '" + mine.string() + "'";
    if (std::system(cmd.c_str()) != 0) {
        ADD_FAILURE() << "cannot extract " << tarball;
        return dir.string();
    }
    std::ofstream(mine / ".done") << "ok";
    std::error_code ec;
    fs::rename(mine, dir, ec);
    if (ec && !fs::exists(dir / ".done")) {
        fs::remove_all(dir);
        fs::rename(mine, dir, ec);
    }
    fs::remove_all(mine);  // the copy that lost the race, if any
    if (!fs::exists(dir / ".done")) ADD_FAILURE() << "cannot put " << tarball << " in place at " << dir;
    return dir.string();
}

std::string traceTestName(const std::string& relative) {
    std::string n = relative.substr(relative.find('/') + 1);
    n = n.substr(0, n.find('.'));
    std::replace(n.begin(), n.end(), '-', '_');
    return n;
}

std::vector<std::string> fixtureFiles(const std::string& dir, const std::string& suffix) {
    std::vector<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(dataPath(dir)))
        if (e.path().string().ends_with(suffix)) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

std::string fileTestName(const std::string& file) {
    std::string n = file;
    for (char& c : n)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return n;
}

std::string readFile(const std::string& path) {
    std::ifstream in(path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string commandOutput(const std::string& command) {
    std::string out;
    FILE* p = popen(command.c_str(), "r");
    if (!p) return out;
    std::array<char, 65536> buf{};
    size_t n;
    while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
    pclose(p);
    return out;
}

Result<DomainTree> localDomainTree() {
    auto topo = loadLocalTopology();
    if (!topo) return Error{topo.error()};
    DomainBuildOptions opt;
    opt.arch = topo->arch;
    return buildDomains(*topo, opt);
}

DomainTree buildDomainsUnder(const Topology& topology, Arch arch, const char* profile) {
    DomainBuildOptions opt;
    opt.arch = arch;
    opt.profile = findProfile(profile);
    EXPECT_NE(opt.profile, nullptr) << profile;
    auto tree = buildDomains(topology, opt);
    EXPECT_TRUE(tree.ok()) << tree.error();
    return tree.ok() ? std::move(*tree) : DomainTree{};
}

DomainTree buildValidDomains(const Topology& topology, Arch arch, const char* profile) {
    DomainTree tree = buildDomainsUnder(topology, arch, profile);
    if (tree.cpus.empty()) return tree;
    const auto errors = validateDomainTree(tree);
    EXPECT_TRUE(errors.empty()) << errors.front();
    return tree;
}

}  // namespace schedscope::test
