#!/usr/bin/env python3
"""Writes, for every state a partitions-init.sh boot log dumped, the sched_verbose lines the kernel
printed building that state's domains: <OUTDIR>/<prefix>-<state>/kernel-log.txt, without
timestamps. A state is kept only when its log is whole: every CPU that had domains was attached
in it (a rebuild that left a root domain alone does not print it again). Only the last
rebuild counts: the lines after the last "attaching NULL sched-domain." (detach_destroy_domains()
of the old root domains), so the file reads as a build from nothing, as at boot."""
import os, re, sys

log_path, prefix, outdir = sys.argv[1:4]
lines = [re.sub(r'^\[\s*[0-9.]+\]\s?', '', l) for l in open(log_path, errors='replace').read().splitlines()]
verbose = re.compile(r'^(CPU\d+ attaching |\s+domain-\d+: |\s+groups: |root domain span: |ERROR: )')
name = lambda state: state.replace(',', '-').replace('+', '-and-')

start = 0
for i, line in enumerate(lines):
    if not line.startswith('=== DUMP '):
        continue
    state = line[len('=== DUMP '):].strip()
    seg = [l for l in lines[start:i] if verbose.match(l)]
    start = i + 1
    # the last rebuild: what follows the last detach (a dump can follow several rebuilds)
    last_null = max([k for k, l in enumerate(seg) if l.endswith('attaching NULL sched-domain.')], default=-1)
    seg = seg[last_null + 1:]
    attached = [int(m.group(1)) for l in seg for m in [re.match(r'CPU(\d+) attaching sched-domain', l)] if m]
    # the CPUs with domains in the state, from the dump's debugfs listing
    tar = [l for l in lines[i:] if l.startswith('=== TAR ' + state)]
    case = prefix if state == 'baseline' else prefix + '-' + name(state)
    folder = os.path.join(outdir, case)
    if not os.path.isdir(folder):
        print(f'{case}: no oracle case, skipped')
        continue
    import json
    kernel = json.load(open(os.path.join(folder, 'kernel.json')))
    with_domains = sorted(int(c) for c, d in kernel['cpus'].items() if d)
    if sorted(attached) != with_domains:
        print(f'{case}: not a whole build ({len(attached)} of {len(with_domains)} CPUs attached), skipped')
        continue
    open(os.path.join(folder, 'kernel-log.txt'), 'w').write('\n'.join(seg) + '\n')
    print(f'{case}: {len(seg)} lines')
