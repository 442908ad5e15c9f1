#!/usr/bin/env bash
# Builds the .deb packages from this build tree, installs them into a clean root with dpkg and
# runs the installed programs from there (their data must come from the installed tree).
#   install_packages.sh BUILD_DIR WORK_DIR
set -euo pipefail
build=$1; work=$2
rm -rf "$work"; mkdir -p "$work/debs" "$work/root/var/lib/dpkg/info" "$work/root/var/lib/dpkg/updates"
touch "$work/root/var/lib/dpkg/status" "$work/root/var/lib/dpkg/available"
(cd "$work/debs" && cpack --config "$build/CPackConfig.cmake" -G DEB -B "$work/debs" >"$work/cpack.log" 2>&1) \
  || { cat "$work/cpack.log"; exit 1; }
debs=("$work"/debs/*.deb)
echo "built: ${debs[*]##*/}"
for d in "${debs[@]}"; do
  info=$(dpkg-deb --info "$d")  # not piped into grep -q: with pipefail, SIGPIPE would fail it
  [[ "$info" == *"Depends:"* ]] || [[ "$d" == *data* ]] || { echo "no Depends in $d"; exit 1; }
  # the archive compressions tar runs for --sysfs-root ARCHIVE
  [[ "$d" != *schedscope-cli_* ]] || [[ "$info" == *"Recommends: bzip2, xz-utils"* ]] || { echo "no Recommends in $d"; exit 1; }
done
# The root has no libc etc. of its own: the programs use the host's libraries, so dependency
# checks are forced; everything schedscope ships must come from the root.
dpkg --root="$work/root" --force-depends --force-not-root --force-script-chrootless -i "${debs[@]}" >"$work/dpkg.log" 2>&1 \
  || { cat "$work/dpkg.log"; exit 1; }
cli=$work/root/usr/bin/schedscope-cli
unset SCHEDSCOPE_DATA_DIR
"$cli" --version
"$cli" domains --preset kunpeng920-24 >"$work/domains.txt"
grep -q "CLS span=0-3" "$work/domains.txt"
# a sysfs snapshot straight from its tarball, extracted with tar
"$cli" topology --sysfs-root "$(dirname "${BASH_SOURCE[0]}")/../data/topologies/sysfs/2ps3-2t.tar.bz2" >"$work/ps3.txt"
grep -q "2 CPUs" "$work/ps3.txt"
test -s "$work/root/usr/share/man/man1/schedscope-cli.1"
test -s "$work/root/usr/share/bash-completion/completions/schedscope-cli"
if [ -x "$work/root/usr/bin/schedscope" ]; then
  QT_QPA_PLATFORM=offscreen "$work/root/usr/bin/schedscope" --preset kunpeng920-24 --screenshot "$work/shot.png" --size 800x600
  test -s "$work/shot.png"
  test -s "$work/root/usr/share/man/man1/schedscope.1"
  appstreamcli validate --no-net "$work/root/usr/share/metainfo/io.github.schedscope.metainfo.xml"
  desktop-file-validate "$work/root/usr/share/applications/io.github.schedscope.desktop"
fi
echo "packages install and run from a clean root"
