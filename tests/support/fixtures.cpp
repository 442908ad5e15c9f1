#include "support/fixtures.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
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
    fs::remove_all(dir);
    fs::create_directories(dir);
    std::string cmd = "tar xf '" + dataPath(tarball) + "' -C '" + dir.string() + "'";
    if (std::system(cmd.c_str()) != 0) {
        ADD_FAILURE() << "cannot extract " << tarball;
        return dir.string();
    }
    std::ofstream(dir / ".done") << "ok";
    return dir.string();
}

std::string traceTestName(const std::string& relative) {
    std::string n = relative.substr(relative.find('/') + 1);
    n = n.substr(0, n.find('.'));
    std::replace(n.begin(), n.end(), '-', '_');
    return n;
}

std::string readFile(const std::string& path) {
    std::ifstream in(path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

Result<DomainTree> localDomainTree() {
    auto topo = loadLocalTopology();
    if (!topo) return Error{topo.error()};
    DomainBuildOptions opt;
    opt.arch = topo->arch;
    return buildDomains(*topo, opt);
}

}  // namespace schedscope::test
