#!/usr/bin/env python3
"""Turns a QEMU boot log of partitions-init.sh into oracle cases: for every dumped state,
<case>/kernel.json (the kernel's domains: spans and groups from the sched_verbose log, names, flags
and intervals from debugfs) and <case>/sysfs.tar.xz (the guest's sys/devices/system topology plus
the state's sys/fs/cgroup cpuset files). Arguments: LOG CASE-PREFIX OUTDIR KERNEL-RELEASE [PROFILE [ARCH [OPTION=0|1...]]]
(PROFILE: linux-6.1, ARCH: x86_64 unless given; OPTIONs: the Kconfig that shapes domains, all 1
unless given)."""
import base64, io, json, os, re, sys, tarfile

log_path, prefix, outdir, kernel = sys.argv[1:5]
profile = sys.argv[5] if len(sys.argv) > 5 else 'linux-6.1'  # the kernel's schedscope profile
arch = sys.argv[6] if len(sys.argv) > 6 else 'x86_64'
config = {'SCHED_SMT': True, 'SCHED_MC': True, 'SCHED_CLUSTER': True, 'NUMA': True}
for item in sys.argv[7:]:  # OPTION=0|1: the kernel's own Kconfig (Debian's arm64 has no SCHED_CLUSTER)
    key, _, value = item.partition('=')
    config[key] = value == '1'
lines = open(log_path, errors='replace').read().splitlines()
strip = lambda l: re.sub(r'^\[\s*[0-9.]+\]\s?', '', l)

def block(start, end, at=0):
    i = next(k for k in range(at, len(lines)) if lines[k].startswith(start))
    j = next(k for k in range(i, len(lines)) if lines[k].startswith(end))
    return base64.b64decode(''.join(lines[i + 1:j])), j

sysfs_tgz, _ = block('=== SYSFS', '=== ENDSYSFS')
def parse_list(text):
    out = []
    for part in text.strip().split(','):
        a, _, b = part.partition('-')
        out += range(int(a), int(b or a) + 1)
    return out
_sys = tarfile.open(fileobj=io.BytesIO(sysfs_tgz))
online = parse_list(_sys.extractfile('./sys/devices/system/cpu/online').read().decode())
cmdline = next(l for l in lines if l.startswith('=== CMDLINE'))[len('=== CMDLINE '):].strip()

def attached_before(idx):
    """Each CPU's domains as last printed by the sched_verbose log before line idx."""
    cpus = {}
    k = 0
    while k < idx:
        m = re.match(r'CPU(\d+) attaching (NULL sched-domain|sched-domain\(s\):)', strip(lines[k]))
        if not m:
            k += 1
            continue
        cpu = int(m.group(1))
        doms = []
        k += 1
        while k < idx:
            s = strip(lines[k])
            d = re.match(r'\s*domain-(\d+): span=(\S+) level=(\S+)', s)
            g = re.match(r'\s*groups: (.*)', s)
            if d:
                doms.append({'level': d.group(3), 'span': d.group(2), 'groups': []})
            elif g:
                for grp in re.findall(r'\{([^}]*)\}', g.group(1)):
                    span = re.search(r'span=(\S+)', grp).group(1)
                    mask = re.search(r'mask=(\S+)', grp)
                    doms[-1]['groups'].append({'span': span, **({'mask': mask.group(1)} if mask else {})})
            else:
                break
            k += 1
        cpus[cpu] = doms
    return cpus

states = [(i, l[len('=== DUMP '):].strip()) for i, l in enumerate(lines) if l.startswith('=== DUMP ')]
for idx, state in states:
    tgz, _ = block('=== TAR ' + state, '=== ENDTAR ' + state, idx)
    debug = tarfile.open(fileobj=io.BytesIO(tgz))
    files = {m.name.lstrip('./'): debug.extractfile(m).read().decode().strip() for m in debug if m.isfile()}
    cpus = attached_before(idx)
    for cpu, doms in cpus.items():
        for n, d in enumerate(doms):
            base = f'sys/kernel/debug/sched/domains/cpu{cpu}/domain{n}/'
            assert files[base + 'name'] == d['level'], (state, cpu, n)
            d['flags'] = files[base + 'flags'].split()
            d['min_interval'] = int(files[base + 'min_interval'])
            d['max_interval'] = int(files[base + 'max_interval'])
    name = prefix if state == 'baseline' else prefix + '-' + state.replace(',', '-').replace('+', '-and-')
    if 'isolcpus' in cmdline:
        name = prefix + '-isolcpus' + ('' if state == 'baseline' else '-' + state.replace(',', '-'))
    cgroup = {k: v for k, v in files.items() if k.startswith('sys/fs/cgroup/')}
    case = os.path.join(outdir, name)
    os.makedirs(case, exist_ok=True)
    json.dump({'name': name, 'arch': arch, 'kernel': kernel, 'profile': profile,
               'config': config,
               'how': 'a Debian kernel booted under QEMU with this topology (kernel command line: ' + cmdline +
                      '), cpuset partitions made through cgroup v2; spans and groups from its sched_verbose log, '
                      'names, flags and intervals from debugfs',
               'cpuset': {os.path.relpath(k, 'sys/fs/cgroup'): v for k, v in sorted(cgroup.items())},
               'cpus': {str(c): cpus.get(c, []) for c in online}},
              open(os.path.join(case, 'kernel.json'), 'w'), indent=1)
    # the sysfs: the boot's topology plus this state's cpuset files
    src = tarfile.open(fileobj=io.BytesIO(sysfs_tgz))
    with tarfile.open(os.path.join(case, 'sysfs.tar.xz'), 'w:xz') as out:
        for m in src:
            m.mtime = 0; m.uid = m.gid = 0; m.uname = m.gname = ''
            out.addfile(m, src.extractfile(m) if m.isfile() else None)
        dirs = set()
        for k in sorted(cgroup):
            d = os.path.dirname(k)
            while d and d not in dirs:
                dirs.add(d); d = os.path.dirname(d)
        for d in sorted(dirs):
            ti = tarfile.TarInfo('./' + d); ti.type = tarfile.DIRTYPE; ti.mode = 0o755
            out.addfile(ti)
        for k, v in sorted(cgroup.items()):
            data = (v + '\n').encode()
            ti = tarfile.TarInfo('./' + k); ti.size = len(data); ti.mode = 0o644
            out.addfile(ti, io.BytesIO(data))
    print(name, {c: [d['level'] + ':' + d['span'] for d in cpus[c]] for c in (0, 2, 4, 8, 10) if c in cpus})
