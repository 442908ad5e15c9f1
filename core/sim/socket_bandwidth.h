#pragma once
// The memory bandwidth of a known server CPU's socket, from its memory channels.
//
// Counting CPUs cannot give a machine's memory bandwidth: an EPYC 7763 socket has 128 logical
// CPUs and 8 DDR4-3200 channels (205 GB/s peak, ~150 GB/s STREAM), a Xeon Gold 6140 socket 36
// CPUs and 6 DDR4-2666 channels (128 GB/s peak, ~96 GB/s). The channels and their speed are a
// property of the CPU family, so a table keyed on the CPU's identity (x86's family and model
// number, or the model name when the source gives no number) gives each socket its peak, and a
// STREAM-like share of it (kStreamShareOfPeak) is what memory-bound tasks can draw.
#include <optional>
#include <string>

#include "topology/topology.h"

namespace schedscope::sim {

// STREAM triad reaches about three quarters of the channels' peak on these servers (Skylake-SP
// 6140: ~97 of 128 GB/s; EPYC 7763: ~155 of 205; EPYC 9654: ~360 of 461).
inline constexpr double kStreamShareOfPeak = 0.75;

struct SocketMemory {
    std::string platform;  // "EPYC 7003 Milan", "Xeon Scalable 1st gen Skylake-SP"
    int channels = 0;      // DDR channels per socket
    int megaTransfers = 0; // MT/s of the fastest memory the platform supports
    std::string memory;    // "DDR4-3200"
    // the channels' peak, GB/s (8 bytes a transfer)
    double peakGBs() const { return channels * 8.0 * megaTransfers / 1000.0; }
    double streamGBs() const { return peakGBs() * kStreamShareOfPeak; }
};

// The socket memory of the topology's CPU when its family is in the table (server CPUs of AMD,
// Hygon and Intel since 2010); nothing for client CPUs, other architectures and unknown models.
std::optional<SocketMemory> socketMemoryOf(const Topology& topology);

// How many sockets' worth of memory one NUMA node has, for the first online CPU's: the packages
// its node spans over the nodes its package holds (1 for a node per socket, 1/4 for AMD's NPS4,
// 1/2 for Intel's SNC2, 2 for an export that shows both sockets as one node).
double socketsPerNode(const Topology& topology);

}  // namespace schedscope::sim
