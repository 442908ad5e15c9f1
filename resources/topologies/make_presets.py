#!/usr/bin/env python3
"""Regenerates the built-in topology presets as hwloc 2.x XML (open them with lstopo too).

Each preset is described by the shape the vendor documents (sockets, NUMA nodes, LLCs,
clusters, cores, threads, caches, SLIT distances) and by the CPU numbering Linux uses on that
machine. Sources are in presets.json next to this file. Run: python3 make_presets.py
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def bitmap(ids):
    """hwloc's bitmap syntax: 32-bit words, most significant first."""
    if not ids:
        return "0x0"
    top = max(ids) // 32
    words = [0] * (top + 1)
    for i in ids:
        words[i // 32] |= 1 << (i % 32)
    return ",".join("0x%08x" % w for w in reversed(words))


class Gen:
    def __init__(self, p):
        self.p = p
        self.gp = 1
        self.lines = []

    def next_gp(self):
        self.gp += 1
        return self.gp

    def cpu_ids(self):
        """Maps (pkg, node, llc, cluster, core, thread) to the logical CPU id Linux gives it."""
        p = self.p
        cores = []
        for pk in range(p["packages"]):
            for nd in range(p["nodes_per_package"]):
                for l in range(p["llcs_per_node"]):
                    for cl in range(p["clusters_per_llc"]):
                        for co in range(p["cores_per_cluster"]):
                            cores.append((pk, nd, l, cl, co))
        ids = {}
        threads = p["threads_per_core"]
        for ci, c in enumerate(cores):
            for t in range(threads):
                if p.get("numbering") == "thread-major":  # x86 servers: all first threads, then siblings
                    ids[c + (t,)] = t * len(cores) + ci
                else:  # siblings adjacent
                    ids[c + (t,)] = ci * threads + t
        return ids

    def emit(self, depth, text):
        self.lines.append("  " * depth + text)

    def obj(self, depth, typ, ids, extra="", close=False, os_index=None, node_ids=None):
        cs = bitmap(ids)
        ns = bitmap(node_ids) if node_ids is not None else None
        attrs = 'type="%s"' % typ
        if os_index is not None:
            attrs += ' os_index="%d"' % os_index
        attrs += ' cpuset="%s" complete_cpuset="%s"' % (cs, cs)
        if ns:
            attrs += ' nodeset="%s" complete_nodeset="%s"' % (ns, ns)
        attrs += ' gp_index="%d"' % self.next_gp()
        if extra:
            attrs += " " + extra
        self.emit(depth, "<object %s%s>" % (attrs, "/" if close else ""))

    def cache(self, depth, level, size, ids, node, ctype="0", kind="L%dCache"):
        self.obj(depth, kind % level, ids,
                 'cache_size="%d" depth="%d" cache_linesize="64" cache_associativity="0" cache_type="%s"'
                 % (size, level, ctype), node_ids=[node])

    def build(self):
        p = self.p
        ids = self.cpu_ids()
        allc = sorted(ids.values())
        nnodes = p["packages"] * p["nodes_per_package"]
        self.emit(0, '<?xml version="1.0" encoding="UTF-8"?>')
        self.emit(0, '<!DOCTYPE topology SYSTEM "hwloc2.dtd">')
        self.emit(0, '<topology version="2.0">')
        self.obj(1, "Machine", allc, os_index=0, node_ids=list(range(nnodes)))
        for k, v in p["info"].items():
            self.emit(2, '<info name="%s" value="%s"/>' % (k, v))
        kinds = p.get("kinds")
        for pk in range(p["packages"]):
            pk_ids = sorted(v for k, v in ids.items() if k[0] == pk)
            pk_nodes = [pk * p["nodes_per_package"] + n for n in range(p["nodes_per_package"])]
            self.obj(2, "Package", pk_ids, os_index=pk, node_ids=pk_nodes)
            for nd in range(p["nodes_per_package"]):
                node = pk * p["nodes_per_package"] + nd
                nd_ids = sorted(v for k, v in ids.items() if k[0] == pk and k[1] == nd)
                depth = 3
                wrap_node = p["nodes_per_package"] > 1 or p["llcs_per_node"] > 1
                if wrap_node:  # a NUMA-locality Group holds the node's LLCs and the NUMANode
                    self.obj(depth, "Group", nd_ids, 'kind="1001" subkind="0"', node_ids=[node])
                    depth += 1
                self.obj(depth, "NUMANode", nd_ids, 'local_memory="%d"' % p["node_memory"], close=True,
                         os_index=node, node_ids=[node])
                for l in range(p["llcs_per_node"]):
                    l_ids = sorted(v for k, v in ids.items() if k[:3] == (pk, nd, l))
                    self.cache(depth, 3, p["l3"], l_ids, node)
                    for cl in range(p["clusters_per_llc"]):
                        c_ids = sorted(v for k, v in ids.items() if k[:4] == (pk, nd, l, cl))
                        d = depth + 1
                        shared_l2 = p.get("cluster_shares_l2", False)
                        if p["clusters_per_llc"] > 1 and not shared_l2:
                            self.obj(d, "Group", c_ids, 'subtype="Cluster" kind="1003" subkind="0"', node_ids=[node])
                            d += 1
                        if shared_l2:
                            self.cache(d, 2, p["l2_cluster"], c_ids, node)
                            d += 1
                        for co in range(p["cores_per_cluster"]):
                            co_ids = sorted(v for k, v in ids.items() if k[:5] == (pk, nd, l, cl, co))
                            dd = d
                            if not shared_l2:
                                self.cache(dd, 2, p["l2"], co_ids, node)
                                dd += 1
                            self.cache(dd, 1, p["l1d"], co_ids, node, ctype="1")
                            core_index = co_ids[0] if p.get("numbering") != "thread-major" else co_ids[0]
                            self.obj(dd + 1, "Core", co_ids, os_index=core_index, node_ids=[node])
                            for cpu in co_ids:
                                self.obj(dd + 2, "PU", [cpu], os_index=cpu, close=True, node_ids=[node])
                            self.emit(dd + 1, "</object>")
                            self.emit(dd, "</object>")
                            if not shared_l2:
                                self.emit(dd - 1, "</object>")
                        if shared_l2:
                            self.emit(d - 1, "</object>")
                        if p["clusters_per_llc"] > 1 and not shared_l2:
                            self.emit(depth + 1, "</object>")
                    self.emit(depth, "</object>")
                if wrap_node:
                    self.emit(3, "</object>")
            self.emit(2, "</object>")
        self.emit(1, "</object>")
        if kinds:
            for k in kinds:
                kid = [v for kk, v in ids.items() if k["match"](kk)]
                self.emit(1, '<cpukind cpuset="%s" forced_efficiency="%d">' % (bitmap(sorted(kid)), k["efficiency"]))
                self.emit(2, '<info name="CoreType" value="%s"/>' % k["name"])
                self.emit(1, "</cpukind>")
        dist = p["distances"]
        self.emit(1, '<distances2 type="NUMANode" nbobjs="%d" kind="5" name="NUMALatency" indexing="os">' % nnodes)
        idx = " ".join(str(i) for i in range(nnodes)) + " "
        self.emit(2, '<indexes length="%d">%s</indexes>' % (len(idx), idx))
        flat = [str(x) for row in dist for x in row]
        for i in range(0, len(flat), 10):
            chunk = " ".join(flat[i:i + 10]) + " "
            self.emit(2, '<u64values length="%d">%s</u64values>' % (len(chunk), chunk))
        self.emit(1, "</distances2>")
        self.emit(0, "</topology>")
        return "\n".join(self.lines) + "\n"


GiB = 1 << 30
KiB = 1 << 10
MiB = 1 << 20
KUNPENG_DIST = [[10, 12, 20, 22], [12, 10, 22, 24], [20, 22, 10, 12], [22, 24, 12, 10]]
NAPLES_DIST = [[10 if i == j else 16 if i // 4 == j // 4 else 32 for j in range(8)] for i in range(8)]

PRESETS = {
    "kunpeng920-24": dict(packages=2, nodes_per_package=2, llcs_per_node=1, clusters_per_llc=6, cores_per_cluster=4,
                          threads_per_core=1, l3=24 * MiB, l2=512 * KiB, l1d=64 * KiB, node_memory=64 * GiB,
                          distances=KUNPENG_DIST,
                          info={"Architecture": "aarch64", "CPUVendor": "HiSilicon", "CPUModel": "Kunpeng 920-4826"}),
    "kunpeng920-32": dict(packages=2, nodes_per_package=2, llcs_per_node=1, clusters_per_llc=8, cores_per_cluster=4,
                          threads_per_core=1, l3=32 * MiB, l2=512 * KiB, l1d=64 * KiB, node_memory=128 * GiB,
                          distances=KUNPENG_DIST,
                          info={"Architecture": "aarch64", "CPUVendor": "HiSilicon", "CPUModel": "Kunpeng 920-6426"}),
    "epyc7601-2s": dict(packages=2, nodes_per_package=4, llcs_per_node=2, clusters_per_llc=1, cores_per_cluster=4,
                        threads_per_core=2, numbering="thread-major", l3=8 * MiB, l2=512 * KiB, l1d=32 * KiB,
                        node_memory=32 * GiB, distances=NAPLES_DIST,
                        info={"Architecture": "x86_64", "CPUVendor": "AuthenticAMD", "CPUFamilyNumber": "23",
                              "CPUModel": "AMD EPYC 7601 32-Core Processor"}),
    "epyc7763-2s": dict(packages=2, nodes_per_package=1, llcs_per_node=8, clusters_per_llc=1, cores_per_cluster=8,
                        threads_per_core=2, numbering="thread-major", l3=32 * MiB, l2=512 * KiB, l1d=32 * KiB,
                        node_memory=256 * GiB, distances=[[10, 32], [32, 10]],
                        info={"Architecture": "x86_64", "CPUVendor": "AuthenticAMD", "CPUFamilyNumber": "25",
                              "CPUModel": "AMD EPYC 7763 64-Core Processor"}),
    "xeon6140-2s": dict(packages=2, nodes_per_package=1, llcs_per_node=1, clusters_per_llc=1, cores_per_cluster=18,
                        threads_per_core=2, numbering="thread-major", l3=int(24.75 * MiB), l2=1 * MiB, l1d=32 * KiB,
                        node_memory=96 * GiB, distances=[[10, 21], [21, 10]],
                        info={"Architecture": "x86_64", "CPUVendor": "GenuineIntel", "CPUFamilyNumber": "6",
                              "CPUModel": "Intel(R) Xeon(R) Gold 6140 CPU @ 2.30GHz"}),
}


def laptop():
    # Raptor Lake-P: 6 P-cores (SMT2, private L2) + 8 E-cores (2 clusters of 4 sharing an L2).
    # Hand-built because the two core kinds differ in shape.
    g = Gen(dict(info={}))
    ids_p = [(c, t, 2 * c + t) for c in range(6) for t in range(2)]
    ids_e = [(cl, c, 12 + cl * 4 + c) for cl in range(2) for c in range(4)]
    allc = list(range(20))
    g.emit(0, '<?xml version="1.0" encoding="UTF-8"?>')
    g.emit(0, '<!DOCTYPE topology SYSTEM "hwloc2.dtd">')
    g.emit(0, '<topology version="2.0">')
    g.obj(1, "Machine", allc, os_index=0, node_ids=[0])
    for k, v in {"Architecture": "x86_64", "CPUVendor": "GenuineIntel", "CPUFamilyNumber": "6",
                 "CPUModel": "13th Gen Intel(R) Core(TM) i7-1370P"}.items():
        g.emit(2, '<info name="%s" value="%s"/>' % (k, v))
    g.obj(2, "Package", allc, os_index=0, node_ids=[0])
    g.obj(3, "NUMANode", allc, 'local_memory="%d"' % (32 * GiB), close=True, os_index=0, node_ids=[0])
    g.cache(3, 3, 24 * MiB, allc, 0)
    for c in range(6):
        cpus = [2 * c, 2 * c + 1]
        g.cache(4, 2, int(1.25 * MiB), cpus, 0)
        g.cache(5, 1, 48 * KiB, cpus, 0, ctype="1")
        g.obj(6, "Core", cpus, os_index=4 * c, node_ids=[0])
        for cpu in cpus:
            g.obj(7, "PU", [cpu], os_index=cpu, close=True, node_ids=[0])
        g.emit(6, "</object>")
        g.emit(5, "</object>")
        g.emit(4, "</object>")
    for cl in range(2):
        cpus = [12 + cl * 4 + c for c in range(4)]
        g.cache(4, 2, 2 * MiB, cpus, 0)
        for cpu in cpus:
            g.cache(5, 1, 32 * KiB, [cpu], 0, ctype="1")
            g.obj(6, "Core", [cpu], os_index=32 + cpu, node_ids=[0])
            g.obj(7, "PU", [cpu], os_index=cpu, close=True, node_ids=[0])
            g.emit(6, "</object>")
            g.emit(5, "</object>")
        g.emit(4, "</object>")
    g.emit(3, "</object>")
    g.emit(2, "</object>")
    g.emit(1, "</object>")
    g.emit(1, '<cpukind cpuset="%s" forced_efficiency="0">' % bitmap(list(range(12, 20))))
    g.emit(2, '<info name="CoreType" value="IntelAtom"/>')
    g.emit(1, "</cpukind>")
    g.emit(1, '<cpukind cpuset="%s" forced_efficiency="1">' % bitmap(list(range(12))))
    g.emit(2, '<info name="CoreType" value="IntelCore"/>')
    g.emit(1, "</cpukind>")
    g.emit(0, "</topology>")
    return "\n".join(g.lines) + "\n"


if __name__ == "__main__":
    for name, p in PRESETS.items():
        with open(os.path.join(HERE, name + ".xml"), "w") as f:
            f.write(Gen(p).build())
    with open(os.path.join(HERE, "laptop-i7-1370p.xml"), "w") as f:
        f.write(laptop())
