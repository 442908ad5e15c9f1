#!/usr/bin/env bash
# Installs every Debian 12 package schedscope needs to build, run and test.
# Idempotent: packages already present are skipped, apt is only called when something is missing.
set -euo pipefail

packages=(
  # toolchain
  build-essential cmake ninja-build pkg-config git
  # static checks (tests/tidy/run.sh)
  clang-tidy
  # GUI: Qt 6 Widgets, SVG/PDF export, QCustomPlot (Qt 6 build)
  qt6-base-dev qt6-base-dev-tools qt6-svg-dev libqcustomplot-dev libqcustomplot2.1-qt6
  # topology
  # (libhwloc-plugins: the libxml2 XML importer; hwloc's built-in parser crashes on some bad XML)
  libhwloc-dev hwloc libhwloc-plugins nlohmann-json3-dev
  # (libxml2-dev: hwloc 3.x XML is rewritten into the 2.x form before hwloc 2.9 reads it)
  libxml2-dev
  # tracing
  libtraceevent-dev libtracefs-dev libtracecmd-dev
  # BPF (CO-RE program built at build time)
  libbpf-dev bpftool clang llvm
  # sanitizer and libFuzzer runtimes for clang (the sanitize preset of the test command)
  libclang-rt-dev
  # tests (xvfb, xauth, x11vnc and Qt's vnc platform plugin: the GUI under X and over VNC)
  libgtest-dev libgmock-dev xvfb xauth x11vnc qt6-qpa-plugins xz-utils bzip2
  # reference tools for tests and benchmarks
  trace-cmd kernelshark libkshark-dev libjson-c-dev stress-ng hyperfine
  # packaging: man pages from --help, metadata validation, .deb building
  help2man appstream desktop-file-utils dpkg-dev file
  # the MIME entry's test: the freedesktop MIME database and a reader of it
  shared-mime-info libglib2.0-bin
  # fonts so offscreen rendering has glyphs
  fonts-dejavu-core
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "install-deps: installing ${#missing[@]} packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
