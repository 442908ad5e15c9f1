#pragma once
// Test fixtures: paths into tests/data and extraction of snapshot tarballs into the build tree.
#include <string>

namespace schedscope::test {

std::string dataPath(const std::string& relative);  // tests/data/<relative>
// Extracts tests/data/<tarball> (tar.xz / tar.bz2 / tar.gz) once into a scratch directory and
// returns that directory. Fails the current test on error.
std::string extractFixture(const std::string& tarball);
std::string readFile(const std::string& path);

}  // namespace schedscope::test
