#!/bin/sh

# The oracle cases recorded for their shape alone (no partitions): run from the folder
# boot-x86.sh needs, then boot-log-to-oracle.py LOG CASE OUTDIR 6.1.0-57-amd64 and
# boot-log-to-kernel-logs.py LOG CASE OUTDIR on each log (the case names are in the comments).
mem() { i=0; out=""; while [ $i -lt $1 ]; do out="$out -object memory-backend-ram,id=m$i,size=$2"; i=$((i+1)); done; echo "$out"; }
# x86-snc2-2s4c2t (snc.log): 2 sockets, each split in two sub-NUMA clusters sharing the socket's L3
"$(dirname "$0")"/boot-x86.sh snc.log Skylake-Server-v1 "-m 2048 -smp 16,sockets=2,cores=4,threads=2 $(mem 4 512M) \
 -numa node,nodeid=0,cpus=0-3,memdev=m0 -numa node,nodeid=1,cpus=4-7,memdev=m1 \
 -numa node,nodeid=2,cpus=8-11,memdev=m2 -numa node,nodeid=3,cpus=12-15,memdev=m3 \
 -numa dist,src=0,dst=1,val=11 -numa dist,src=0,dst=2,val=21 -numa dist,src=0,dst=3,val=21 \
 -numa dist,src=1,dst=2,val=21 -numa dist,src=1,dst=3,val=21 -numa dist,src=2,dst=3,val=11" ""
# x86-numa-ring6 (ring.log): six nodes in a ring: distances 20, 30, 40 (diameter 3)
R=""
for i in 0 1 2 3 4 5; do R="$R -numa node,nodeid=$i,cpus=$((2*i))-$((2*i+1)),memdev=m$i"; done
for i in 0 1 2 3 4 5; do for j in 0 1 2 3 4 5; do
  [ $j -gt $i ] || continue; d=$((j-i)); [ $d -gt 3 ] && d=$((6-d)); R="$R -numa dist,src=$i,dst=$j,val=$((10+10*d))"; done; done
"$(dirname "$0")"/boot-x86.sh ring.log Skylake-Client-v1 "-m 1536 -smp 12,sockets=6,cores=2,threads=1 $(mem 6 256M) $R" ""
# x86-2s2d2c2t-memory-node-maxcpus12 (dies.log): 2 sockets of 2 dies, a memory-only node, CPUs 12-15 never brought up
"$(dirname "$0")"/boot-x86.sh dies.log Skylake-Client-v1 "-m 1536 -smp 16,sockets=2,dies=2,cores=2,threads=2 $(mem 3 512M) \
 -numa node,nodeid=0,cpus=0-7,memdev=m0 -numa node,nodeid=1,cpus=8-15,memdev=m1 -numa node,nodeid=2,memdev=m2 \
 -numa dist,src=0,dst=1,val=21 -numa dist,src=0,dst=2,val=17 -numa dist,src=1,dst=2,val=28" "maxcpus=12"
# x86-1s8c-interleaved-nodes (interleave.log): one socket of 8 cores whose two NUMA nodes interleave by pairs of cores (the L3 spans both)
"$(dirname "$0")"/boot-x86.sh interleave.log Skylake-Client-v1 "-m 1024 -smp 8,sockets=1,cores=8,threads=1 \
 -object memory-backend-ram,id=m0,size=512M -object memory-backend-ram,id=m1,size=512M \
 -numa node,nodeid=0,cpus=0-1,cpus=4-5,memdev=m0 -numa node,nodeid=1,cpus=2-3,cpus=6-7,memdev=m1 \
 -numa dist,src=0,dst=1,val=15" ""
