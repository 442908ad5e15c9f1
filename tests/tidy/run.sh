#!/usr/bin/env bash
# clang-tidy (checks in .clang-tidy, every warning an error) over our C++ sources.
#   tests/tidy/run.sh [BASE]   the lines changed since git revision BASE (default HEAD~1, i.e.
#                              the newest commit), or every line of every file with BASE=all
# Needs a configured build with compile_commands.json (TIDY_BUILD, default build/release).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$here"
base=${1:-HEAD~1}
build=${TIDY_BUILD:-build/release}
[ -f "$build/compile_commands.json" ] || { echo "tidy: $build/compile_commands.json missing; configure first" >&2; exit 2; }
if [ "$base" = all ]; then
  files=$(git ls-files '*.cpp')
elif git rev-parse -q --verify "$base^{commit}" >/dev/null; then
  files=$(git diff --name-only --diff-filter=d "$base" -- '*.cpp' '*.h')
  # Only findings on the changed lines count (headers' lines too, seen through the sources).
  line_filter=$(git diff -U0 --diff-filter=d "$base" -- '*.cpp' '*.h' | python3 tests/tidy/changed_lines.py)
else
  echo "tidy: no revision $base (shallow clone?); checking every file"; files=$(git ls-files '*.cpp')
fi
# Headers are checked through the sources that include them; keep sources that the build knows
# (tests/fuzz and bench are not in every build).
srcs=()
for f in $files; do
  case "$f" in
    *.h) for s in "${f%.h}.cpp"; do [ -f "$s" ] && srcs+=("$s"); done ;;
    *.cpp) srcs+=("$f") ;;
  esac
done
# clang cannot read GCC's precompiled headers: give clang-tidy the commands without them (it
# parses the headers themselves instead, as each file includes them anyway). A unity build
# lists its batches (unity_N_cxx.cxx), not its files: each file gets its batch's command.
db=$(mktemp -d); trap 'rm -rf "$db"' EXIT
python3 - "$build/compile_commands.json" "$db/compile_commands.json" <<'PY'
import json, re, sys
cmds = json.load(open(sys.argv[1]))
out = []
for c in cmds:
    c["command"] = re.sub(r" -Winvalid-pch| -include \S*cmake_pch\.hxx", "", c["command"])
    if re.search(r"/Unity/unity_\d+_cxx\.cxx$", c["file"]):
        for src in re.findall(r'#include "([^"]+)"', open(c["file"]).read()):
            out.append(dict(c, file=src, command=c["command"].replace(c["file"], src)))
    else:
        out.append(c)
json.dump(out, open(sys.argv[2], "w"), indent=0)
PY
known=()
for s in $(printf '%s\n' "${srcs[@]}" | sort -u); do
  grep -q "\"file\": \"$here/$s\"" "$db/compile_commands.json" && known+=("$s")
done
if [ ${#known[@]} -eq 0 ]; then echo "tidy: no changed C++ sources to check"; exit 0; fi
echo "tidy: checking ${#known[@]} files"
filter=()
[ -n "${line_filter:-}" ] && filter=("-line-filter=$line_filter")
printf '%s\n' "${known[@]}" | xargs -P "$(nproc)" -n 4 clang-tidy -p "$db" --quiet "${filter[@]}" 2>/dev/null
echo "tidy: ${#known[@]} files clean${line_filter:+ on their changed lines}"
