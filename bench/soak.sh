#!/bin/bash
# Soak (not a test): `schedscope-cli live --window` under a context-switch storm for MINUTES
# (default 10), sampling the capture's RSS every 10 s. The store is a ring window, so RSS must
# level off instead of growing with the event count. Prints one line per sample and a summary;
# the CSV goes to $OUT/soak.csv.
# Usage: bench/soak.sh [--gui] [MINUTES] [WINDOW_S]   needs root, tracefs and stress-ng (or perf).
#   --gui: the whole app instead (bench/gui_soak.cpp: MainWindow offscreen, views refreshing at
#          10 Hz from the live window), sampling its own RSS; GUI_SOAK_ARGS=--helper captures
#          through schedscope-capture.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
GUI=0
if [ "${1:-}" = --gui ]; then GUI=1; shift; fi
MINUTES=${1:-10}
WINDOW=${2:-10}
OUT=${OUT:-/tmp/schedscope-soak}
PRESET=${SCHEDSCOPE_PRESET:-release}
mkdir -p "$OUT"
[ "$(id -u)" = 0 ] || { echo "soak: needs root (tracefs instances)" >&2; exit 1; }

cmake --preset "$PRESET" -S "$ROOT" >/dev/null
targets=(schedscope-cli)
[ $GUI = 1 ] && targets=(gui_soak schedscope-capture)
cmake --build "$ROOT/build/$PRESET" -j2 --target "${targets[@]}" >/dev/null
CLI="$ROOT/build/$PRESET/app/cli/schedscope-cli"
secs=$((MINUTES * 60))

# Load: two pipe ping-pong pairs, a context switch per message (>= 100k sched events/s here).
if command -v stress-ng >/dev/null; then
  stress-ng --switch 2 --timeout $((secs + 30))s --quiet & load=$!
else
  perf bench sched pipe -l 1000000000 >/dev/null & load=$!
fi
cleanup() { kill "$load" 2>/dev/null || true; [ -n "${live:-}" ] && kill "$live" 2>/dev/null || true; }
trap cleanup EXIT
sleep 2

if [ $GUI = 1 ]; then
  export SCHEDSCOPE_CAPTURE="$ROOT/build/$PRESET/app/capture/schedscope-capture"  # for GUI_SOAK_ARGS=--helper
  "$ROOT/build/$PRESET/app/gui/gui_soak" "$MINUTES" "$WINDOW" ${GUI_SOAK_ARGS:-} | tee "$OUT/gui-soak.csv"
  python3 - "$OUT/gui-soak.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
if not rows: sys.exit("soak: no samples")
rss = [int(r["rss_kb"]) for r in rows]
rate = [float(r["window_events_per_s"]) for r in rows]
half = rss[len(rss) // 2:] or rss
last = rows[-1]
print(f"soak (GUI): {last['t_s']} s, window rate median {sorted(rate)[len(rate)//2]:.0f} events/s, "
      f"lost {last['lost']}, {last['snapshots']} snapshots shown")
print(f"soak (GUI): RSS first {rss[0]} kB, max {max(rss)} kB, last {rss[-1]} kB; second half min..max {min(half)}..{max(half)} kB")
PY
  exit 0
fi

"$CLI" live --duration "$secs" --window "$WINDOW" --json >"$OUT/live.jsonl" 2>"$OUT/live.err" & live=$!
# Start-up (parsing /proc/kallsyms through libtracefs) can take seconds: sample once it reports.
for _ in $(seq 240); do [ -s "$OUT/live.jsonl" ] && break; sleep 0.5; done
echo "t_s,rss_kb,events,events_per_s,lost,stored_events,store_bytes" >"$OUT/soak.csv"
printf '%6s %10s %12s %10s %10s %10s\n' t_s rss_kb events ev_per_s lost stored
for ((t = 10; t <= secs; t += 10)); do
  sleep 10
  kill -0 "$live" 2>/dev/null || break
  rss=$(awk '/^VmRSS/ {print $2}' /proc/$live/status)
  last=$(tail -1 "$OUT/live.jsonl")
  row=$(python3 -c 'import json,sys; j=json.loads(sys.argv[1]); print("%d,%.0f,%d,%d,%d" % (j["events"], j["events_per_s"], j["lost_events"], j["stored_events"], j["store_bytes"]))' "$last")
  echo "$t,$rss,$row" >>"$OUT/soak.csv"
  IFS=, read -r ev rate lost stored _ <<<"$row"
  printf '%6d %10d %12d %10d %10d %10d\n' "$t" "$rss" "$ev" "$rate" "$lost" "$stored"
done
wait "$live"
final=$(tail -1 "$OUT/live.jsonl")
python3 - "$OUT/soak.csv" "$final" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
fin = json.loads(sys.argv[2])
rss = [int(r["rss_kb"]) for r in rows]
half = rss[len(rss) // 2:] or rss
print(f"soak: {fin['t_s']:.0f} s, {fin['events']} events ({fin['events_per_s']:.0f}/s), lost {fin['lost_events']}")
print(f"soak: RSS first {rss[0]} kB, max {max(rss)} kB, last {rss[-1]} kB; second half min..max {min(half)}..{max(half)} kB")
PY
