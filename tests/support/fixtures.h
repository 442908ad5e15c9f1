#pragma once
// Test fixtures: paths into tests/data, extraction of snapshot tarballs into the build tree, and
// this machine's sched domains for the live-capture tests.
#include <string>
#include <vector>

#include "domains/domain_builder.h"

namespace schedscope::test {

std::string dataPath(const std::string& relative);  // tests/data/<relative>
// Extracts tests/data/<tarball> (tar.xz / tar.bz2 / tar.gz) once into a scratch directory and
// returns that directory. Fails the current test on error.
std::string extractFixture(const std::string& tarball);
std::string readFile(const std::string& path);
// What a shell command prints on standard output (empty when it cannot be started).
std::string commandOutput(const std::string& command);
// The files of tests/data/<dir> whose names end in `suffix`, by name, for a parameterised test.
std::vector<std::string> fixtureFiles(const std::string& dir, const std::string& suffix);
// A fixture file's name as a parameterised test's name: [A-Za-z0-9] kept, the rest '_'.
std::string fileTestName(const std::string& file);
// A trace fixture's path under tests/data/traces ("replay/pingpong-raced-wakeup.dat") as a
// parameterised test's name ("pingpong_raced_wakeup": gtest allows [A-Za-z0-9_]).
std::string traceTestName(const std::string& relative);
// This machine's topology (hwloc) built into sched domains with its own architecture's rules:
// what live-capture tests classify the migrations they cause against.
Result<DomainTree> localDomainTree();
// The domains of `topology` under `arch`'s rules and a named kernel profile; fails the current
// test (and returns an empty tree) when they cannot be built. Not validated: an old kernel's
// own trees can break the validator's rules (groups reaching past their domain before 5.13).
DomainTree buildDomainsUnder(const Topology& topology, Arch arch, const char* profile);
// The same, checked by the domain validator too.
DomainTree buildValidDomains(const Topology& topology, Arch arch, const char* profile);

}  // namespace schedscope::test
