// Sysfs snapshots given as hwloc-gather-topology leaves them: the tarball itself, or the
// directory it was extracted into (the snapshot one or two levels below).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "support/fixtures.h"
#include "topology/snapshot_archive.h"
#include "topology/topology_source.h"

namespace schedscope {
namespace {
namespace fs = std::filesystem;

TopologySpec sysfsSpec(const std::string& path) { return {TopologySpec::Kind::SysfsRoot, path}; }

// Extractions go under $TMPDIR: a directory of this process's own, so tests running at the
// same time in other processes do not count in it.
const fs::path& privateTmp() {
    static const fs::path dir = [] {
        fs::path d = fs::path(SCHEDSCOPE_TEST_SCRATCH) / ("tmp-" + std::to_string(::getpid()));
        fs::create_directories(d);
        ::setenv("TMPDIR", d.c_str(), 1);
        return d;
    }();
    return dir;
}

size_t extractionDirsLeft() {
    size_t n = 0;
    for (const auto& e : fs::directory_iterator(privateTmp()))
        if (e.path().filename().string().rfind("schedscope-snapshot-", 0) == 0) ++n;
    return n;
}

TEST(SnapshotArchive, ATarballLoadsAsItsExtractedDirectoryDoesAndLeavesNothingBehind) {
    const std::string archive = test::dataPath("topologies/sysfs/128arm-2pa2n8cluster4co.tar.bz2");
    const size_t before = extractionDirsLeft();
    auto fromArchive = loadTopology(sysfsSpec(archive));
    ASSERT_TRUE(fromArchive.ok()) << fromArchive.error();
    EXPECT_EQ(extractionDirsLeft(), before);
    EXPECT_EQ(fromArchive->name, "128arm-2pa2n8cluster4co");
    EXPECT_EQ(fromArchive->source, "sysfs snapshot " + archive);
    // the directory tar extracts it into holds the snapshot one level down: found there
    const std::string dir = test::extractFixture("topologies/sysfs/128arm-2pa2n8cluster4co.tar.bz2");
    auto fromDir = loadTopology(sysfsSpec(dir));
    ASSERT_TRUE(fromDir.ok()) << fromDir.error();
    EXPECT_EQ(fromArchive->onlineCpus(), fromDir->onlineCpus());
    EXPECT_EQ(fromArchive->arch, fromDir->arch);
    EXPECT_EQ(fromArchive->distance, fromDir->distance);
    for (int c : {0, 37, 127}) EXPECT_EQ(fromArchive->cpus[c].clusterCpus, fromDir->cpus[c].clusterCpus);
}

TEST(SnapshotArchive, AnX86LinuxDumpIsNamedAfterTheMachineNotItsFsroot) {
    // hwloc's x86+linux dumps hold <machine>/fsroot/sys and <machine>/cpuid
    auto t = loadTopology(sysfsSpec(test::dataPath("topologies/sysfs/64amd64-4p2n4ca2co.tar.bz2")));
    ASSERT_TRUE(t.ok()) << t.error();
    EXPECT_EQ(t->name, "64amd64-4p2n4ca2co");
    EXPECT_EQ(t->onlineCount(), 64);
}

TEST(SnapshotArchive, BadArchivesAreOneLineErrorsNamingThem) {
    const fs::path dir = fs::path(SCHEDSCOPE_TEST_SCRATCH) / "snapshot-archives";
    fs::create_directories(dir);
    const std::string garbage = (dir / "garbage.tar.bz2").string();
    std::ofstream(garbage) << "not an archive\n";
    auto r = loadTopology(sysfsSpec(garbage));
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().rfind(garbage + ": tar cannot extract it", 0), 0u) << r.error();
    EXPECT_EQ(r.error().find('\n'), std::string::npos) << r.error();
    // a valid archive of something else
    const std::string other = (dir / "other.tar.gz").string();
    ASSERT_EQ(std::system(("tar czf '" + other + "' -C '" + test::dataPath("traces") + "' README.md").c_str()), 0);
    r = loadTopology(sysfsSpec(other));
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error(), other + ": no sysfs snapshot in the archive (no sys/devices/system/cpu directory)");
    r = loadTopology(sysfsSpec((dir / "missing.tar.xz").string()));
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error(), (dir / "missing.tar.xz").string() + ": no such file");
    // a cut archive: tar's own complaint, and the extraction directory is still removed
    const size_t before = extractionDirsLeft();
    const std::string full = test::readFile(test::dataPath("topologies/sysfs/2ps3-2t.tar.bz2"));
    const std::string cut = (dir / "cut.tar.bz2").string();
    std::ofstream(cut, std::ios::binary) << full.substr(0, full.size() / 2);
    r = loadTopology(sysfsSpec(cut));
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().rfind(cut + ": ", 0), 0u) << r.error();
    EXPECT_EQ(extractionDirsLeft(), before);
}

TEST(SnapshotArchive, AnArchiveListingMoreThanTheLimitsIsRefusedBeforeExtraction) {
    // the fixture lists 24 members, 2 KB in all
    const std::string archive = test::dataPath("topologies/sysfs/2ps3-2t.tar.bz2");
    const size_t before = extractionDirsLeft();
    auto members = ExtractedSnapshot::extract(archive, {1 << 20, 10});
    ASSERT_FALSE(members.ok());
    EXPECT_EQ(members.error(), archive + ": holds more than 10 files, too many for a sysfs snapshot: not extracted");
    auto bytes = ExtractedSnapshot::extract(archive, {100, 1000});
    ASSERT_FALSE(bytes.ok());
    EXPECT_EQ(bytes.error(), archive + ": unpacks to more than 100 bytes, too much for a sysfs snapshot: not extracted");
    EXPECT_EQ(extractionDirsLeft(), before);  // nothing was written
    {
        auto enough = ExtractedSnapshot::extract(archive, {1 << 20, 24});
        ASSERT_TRUE(enough.ok()) << enough.error();
        EXPECT_TRUE(findSnapshotRoot(enough->dir()).ok());
    }

    // the default limit: a 3 MB gzip of a 600 MiB file of zeros stops at the listing
    const fs::path dir = fs::path(SCHEDSCOPE_TEST_SCRATCH) / "snapshot-archives";
    fs::create_directories(dir);
    const std::string bomb = (dir / "bomb.tar.gz").string();
    ASSERT_EQ(std::system(("truncate -s 600M '" + (dir / "zeros").string() + "' && tar czf '" + bomb + "' -C '" +
                           dir.string() + "' zeros --sparse && rm '" + (dir / "zeros").string() + "'")
                              .c_str()),
              0);
    auto r = loadTopology(sysfsSpec(bomb));
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error(), bomb + ": unpacks to more than 512 MiB, too much for a sysfs snapshot: not extracted");
    EXPECT_EQ(extractionDirsLeft(), before);
}

TEST(SnapshotArchive, ADirectoryOfSeveralSnapshotsAsksForOne) {
    const fs::path dir = fs::path(SCHEDSCOPE_TEST_SCRATCH) / "two-snapshots";
    for (const char* m : {"a", "b"}) fs::create_directories(dir / m / "sys/devices/system/cpu");
    auto r = findSnapshotRoot(dir.string());
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().find("holds several sysfs snapshots"), std::string::npos) << r.error();
    auto one = findSnapshotRoot((dir / "a").string());
    ASSERT_TRUE(one.ok());
    EXPECT_EQ(*one, (dir / "a").string());
}

}  // namespace
}  // namespace schedscope
