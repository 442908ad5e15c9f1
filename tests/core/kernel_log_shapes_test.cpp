// The shapes a real sched_verbose log takes that the plain one-line-per-message form does not
// show: groups lines printk split (a real 96-CPU boot), the ERROR the kernel prints inside a
// group, the record prefixes of dmesg -r, /dev/kmsg and colour output, and logs of several
// boots (tests/data/kernel-logs/README.md).
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "domains/domain_builder.h"
#include "domains/domain_format.h"
#include "domains/kernel_domains_reader.h"
#include "domains/kernel_log_reader.h"
#include "support/fixtures.h"
#include "topology/topology_source.h"

namespace schedscope {
namespace {

const char* const k96 = "kernel-logs/linux-6.1-x86-1s96c-boot-console.txt";
const char* const k24 = "kernel-logs/linux-6.1-x86-2s2d3c2t-boot-console.txt";

DomainTree built(const char* synthetic) {
    auto hw = loadTopology({TopologySpec::Kind::Synthetic, synthetic});
    EXPECT_TRUE(hw.ok()) << hw.error();
    DomainBuildOptions o;
    o.profile = findProfile("linux-6.1");
    auto tree = buildDomains(*hw, o);
    EXPECT_TRUE(tree.ok()) << tree.error();
    return std::move(*tree);
}

// every line of `log` with `prefix(n)` before it
template <typename F>
std::string eachLine(const std::string& log, F&& prefix) {
    std::istringstream in(log);
    std::string out, line;
    for (int n = 0; std::getline(in, line); ++n) out += prefix(n) + line + "\n";
    return out;
}

// the log's lines without their "[    0.123456] " timestamps
std::string withoutTimestamps(const std::string& log) {
    std::istringstream in(log);
    std::string out;
    for (std::string line; std::getline(in, line);) {
        const size_t stamp = line.find("] ");
        out += (line.starts_with("[") && stamp != std::string::npos ? line.substr(stamp + 2) : line) + "\n";
    }
    return out;
}

// The MC domain of 96 CPUs has 96 groups: printk cut each CPU's groups line at its ~1 KiB limit,
// once between groups (" 62:{ span=62 }") and for some CPUs inside a group ("}, 67:{"): read
// whole, every CPU has its 96 groups and the log matches the builder's 96-core machine.
TEST(KernelLogShapes, GroupsLinesPrintkSplitAreReadWhole) {
    const std::string text = test::readFile(test::dataPath(k96));
    ASSERT_NE(text.find("]  }, "), std::string::npos) << "the fixture's split inside a group";
    auto log = parseKernelLog(text, "console");
    ASSERT_TRUE(log.ok()) << log.error();
    ASSERT_EQ(log->cpus.size(), 96u);
    for (const CpuDomains& c : log->cpus) {
        ASSERT_EQ(c.domains.size(), 1u) << c.cpu;
        EXPECT_EQ(c.domains[0].groups.size(), 96u) << "cpu" << c.cpu;
    }
    EXPECT_TRUE(log->warnings.empty()) << log->warnings.front();
    EXPECT_EQ(diffDomainTrees(built("pack:1 l3:1 core:96 pu:1"), *log), std::vector<std::string>{});
}

// sched_domain_debug_one() prints "ERROR: domain->groups does not match domain->child" with
// KERN_ERR after the first group's span and before its " }": the ERROR takes a line of its own
// and the rest of the groups line follows it. The ERROR is said, and the groups are all read.
TEST(KernelLogShapes, AnErrorInsideAGroupSplitsTheGroupsLineAroundIt) {
    const std::string text = test::readFile(test::dataPath(k24));
    const std::string whole = "  groups: 0:{ span=0-5 cap=";
    const size_t at = text.find(whole);
    ASSERT_NE(at, std::string::npos);
    const size_t close = text.find(" }", at);
    const size_t stamp = text.rfind('[', at);
    const std::string prefix = text.substr(stamp, text.find("] ", stamp) + 2 - stamp);  // "[    4.123456] "
    std::string broken = text;
    // the ERROR at the start of its record, the rest a record of its own starting " }"
    broken.insert(close, "\n" + prefix + "ERROR: domain->groups does not match domain->child\n" + prefix);
    auto log = parseKernelLog(broken, "broken");
    ASSERT_TRUE(log.ok()) << log.error();
    ASSERT_FALSE(log->warnings.empty());
    EXPECT_NE(log->warnings.front().find("ERROR: domain->groups does not match domain->child"), std::string::npos)
        << log->warnings.front();
    auto plain = parseKernelLog(text, "plain");
    ASSERT_TRUE(plain.ok()) << plain.error();
    EXPECT_EQ(diffDomainTrees(*plain, *log), std::vector<std::string>{});
}

// `dmesg -r` ("<7>"), /dev/kmsg ("7,seq,usec,-;") and `dmesg --color=always` put something
// other than a timestamp before the indented domain lines: read as the plain log is.
TEST(KernelLogShapes, RawKmsgAndColouredRecordsReadAsThePlainLog) {
    const std::string text = test::readFile(test::dataPath(k24));
    auto plain = parseKernelLog(text, "plain");
    ASSERT_TRUE(plain.ok()) << plain.error();
    const std::string untimed = withoutTimestamps(text);
    const std::string shapes[] = {
        eachLine(untimed, [](int) { return std::string("<7>"); }),
        eachLine(untimed, [](int n) { return "7," + std::to_string(n) + "," + std::to_string(1000 * n) + ",-;"; }),
        eachLine(text, [](int) { return std::string("\x1b[32m"); }),
    };
    for (const std::string& shape : shapes) {
        auto read = parseKernelLog(shape, "shape");
        ASSERT_TRUE(read.ok()) << read.error();
        EXPECT_EQ(read->builtFor.toList(), "0-23");
        EXPECT_EQ(diffDomainTrees(*plain, *read), std::vector<std::string>{}) << shape.substr(0, 200);
    }
}

// A header the kernel always follows with "domain-0:", followed by none when the next CPU's comes:
// a line this reader did not recognise, named, rather than CPUs read as having no domains.
TEST(KernelLogShapes, AHeaderWithoutItsDomainLinesIsAnError) {
    const std::string text = test::readFile(test::dataPath(k24));
    // a capture tool's own prefix: "vm1| CPU0 attaching ...", "vm1|  domain-0: ..."
    const std::string unknown = eachLine(withoutTimestamps(text), [](int) { return std::string("vm1| "); });
    auto read = parseKernelLog(unknown, "unknown");
    ASSERT_FALSE(read.ok());
    EXPECT_NE(read.error().find("unknown:"), std::string::npos) << read.error();
    EXPECT_NE(read.error().find("no domain-0 line follows it"), std::string::npos) << read.error();
}

// kern.log keeps every boot: the domains read are the last boot's, never CPUs of two boots
// mixed, and the log is said to hold several.
TEST(KernelLogShapes, ALogOfSeveralBootsIsReadAsItsLastBoot) {
    const std::string small = test::readFile(test::dataPath(k24));
    const std::string big = test::readFile(test::dataPath(k96));
    auto bigThenSmall = parseKernelLog(big + small, "kern.log");
    ASSERT_TRUE(bigThenSmall.ok()) << bigThenSmall.error();
    EXPECT_EQ(bigThenSmall->cpus.size(), 24u);
    EXPECT_EQ(bigThenSmall->builtFor.toList(), "0-23");
    ASSERT_FALSE(bigThenSmall->warnings.empty());
    EXPECT_NE(bigThenSmall->warnings.front().find("the log holds 2 boots"), std::string::npos) << bigThenSmall->warnings.front();
    auto smallThenBig = parseKernelLog(small + big, "kern.log");
    ASSERT_TRUE(smallThenBig.ok()) << smallThenBig.error();
    EXPECT_EQ(smallThenBig->cpus.size(), 96u);
    EXPECT_EQ(diffDomainTrees(built("pack:1 l3:1 core:96 pu:1"), *smallThenBig), std::vector<std::string>{});
    // a later boot without sched_verbose: the earlier boot's domains, and the later one named
    const std::string banner = "[    0.000000] Linux version 6.1.0-57-amd64 (debian-kernel@lists.debian.org)\n";
    auto laterQuiet = parseKernelLog(small + banner + "[    0.1] smpboot: Total of 24 processors activated\n", "kern.log");
    ASSERT_TRUE(laterQuiet.ok()) << laterQuiet.error();
    EXPECT_EQ(laterQuiet->builtFor.toList(), "0-23");
    EXPECT_NE(laterQuiet->warnings.front().find("the later boots printed none"), std::string::npos) << laterQuiet->warnings.front();
}

// A diff against a log cut short compares the CPUs it printed and says which it did not; a
// domain whose groups line is missing is a difference.
TEST(KernelLogShapes, ADiffNamesTheCpusALogDidNotPrint) {
    const std::string text = test::readFile(test::dataPath(k24));
    const size_t cut = text.find("CPU12 attaching");
    ASSERT_NE(cut, std::string::npos);
    auto log = parseKernelLog(text.substr(0, text.rfind('\n', cut) + 1), "cut");
    ASSERT_TRUE(log.ok()) << log.error();
    const DomainTree machine = built("pack:2 numa:1 l3:2 core:3 pu:2");
    std::vector<std::string> notes;
    EXPECT_EQ(diffDomainTrees(machine, *log, &notes), std::vector<std::string>{});
    EXPECT_EQ(cpusNotInLog(machine, *log).toList(), "12-23");
    ASSERT_FALSE(notes.empty());
    EXPECT_NE(notes.back().find("not compared: cpus 12-23"), std::string::npos) << notes.back();
    const CpuSet some = *CpuSet::parseList("3");
    EXPECT_EQ(diffDomainTrees(machine, *log, nullptr, &some), std::vector<std::string>{});

    // CPU 3's first groups line dropped
    const size_t cpu3 = text.find("CPU3 attaching");
    const size_t groups = text.find("groups:", cpu3);
    const size_t from = text.rfind('\n', groups) + 1, to = text.find('\n', groups) + 1;
    auto dropped = parseKernelLog(std::string(text).erase(from, to - from), "dropped");
    ASSERT_TRUE(dropped.ok()) << dropped.error();
    const auto diff = diffDomainTrees(machine, *dropped);
    ASSERT_EQ(diff.size(), 1u);
    EXPECT_EQ(diff[0].rfind("cpu3 domain-0 SMT groups: built", 0), 0u) << diff[0];
}

// A rotated log given compressed is said to be so; one given through a pipe (`<(zcat ...)`) is
// read as standard input is.
TEST(KernelLogShapes, CompressedLogsAreNamedAndPipesRead) {
    const std::string dir = (std::filesystem::temp_directory_path() / "schedscope-kernel-log-shapes").string();
    std::filesystem::create_directories(dir);
    const std::string text = test::readFile(test::dataPath(k24));
    const std::string gz = dir + "/kern.log.2.gz";
    std::ofstream(gz, std::ios::binary) << std::string("\x1f\x8b\x08\x00", 4) << "compressed bytes";
    auto compressed = readKernelLog(gz);
    ASSERT_FALSE(compressed.ok());
    EXPECT_EQ(compressed.error().rfind(gz + ": a gzip-compressed file", 0), 0u) << compressed.error();

    const std::string fifo = dir + "/pipe";
    std::filesystem::remove(fifo);
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    std::thread writer([&] { std::ofstream(fifo) << text; });
    auto piped = readKernelLog(fifo);
    writer.join();
    ASSERT_TRUE(piped.ok()) << piped.error();
    EXPECT_EQ(piped->builtFor.toList(), "0-23");
    std::filesystem::remove_all(dir);
}

// A level name that is not UTF-8 (a damaged log) still gives a whole JSON document.
TEST(KernelLogShapes, ALevelNameThatIsNotUtf8StillWritesValidJson) {
    std::string text = test::readFile(test::dataPath(k24));
    const size_t level = text.find("level=MC");
    ASSERT_NE(level, std::string::npos);
    text[level + 7] = '\xff';
    auto log = parseKernelLog(text, "damaged");
    ASSERT_TRUE(log.ok()) << log.error();
    std::ostringstream json;
    writeDomainTreeJson(json, *log);
    const nlohmann::json doc = nlohmann::json::parse(json.str(), nullptr, false);
    ASSERT_FALSE(doc.is_discarded()) << json.str().substr(0, 300);
    EXPECT_EQ(doc["cpus"].size(), 24u);
}

}  // namespace
}  // namespace schedscope
