#!/bin/sh
# The shared-mime-info entry for trace.dat files: a trace-cmd trace is known by its magic
# whatever its name, and an unrelated .dat file is not taken for one.
# usage: mime_types.sh SOURCE_DIR SCRATCH_DIR
set -eu
src=$1
dir=$2
for tool in update-mime-database gio; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "SKIP: $tool is not installed (shared-mime-info, libglib2.0-bin)"
        exit 0
    fi
done
rm -rf "$dir"
mkdir -p "$dir/data/mime/packages"
cp "$src/packaging/desktop/schedscope-mime.xml" "$dir/data/mime/packages/"
update-mime-database "$dir/data/mime" >/dev/null 2>&1
# not a trace: a trace.dat with its magic zeroed (fixed bytes; 4 KB of /dev/urandom matched
# some other type's magic now and then: application/pgp-keys once in a CI run)
{ head -c 10 /dev/zero; tail -c +11 "$src/tests/data/traces/self-affinity.dat"; } >"$dir/not-a-trace.dat"
cp "$src/tests/data/traces/self-affinity.dat" "$dir/run42.dat"
cp "$src/tests/data/traces/self-affinity.dat" "$dir/trace.dat"
typeOf() {
    XDG_DATA_HOME="$dir/data" XDG_DATA_DIRS="$dir/data:/usr/share" gio info -a standard::content-type "$dir/$1" 2>/dev/null |
        sed -n 's/.*standard::content-type: //p'
}
status=0
for pair in "trace.dat application/x-trace-cmd" "run42.dat application/x-trace-cmd" "not-a-trace.dat application/octet-stream"; do
    set -- $pair
    got=$(typeOf "$1")
    if [ "$got" != "$2" ]; then
        echo "FAIL: $1 is $got, expected $2"
        status=1
    else
        echo "ok: $1 is $got"
    fi
done
exit $status
