#pragma once
// The capture helper's wire format (schedscope-capture -> an unprivileged client), version 2.
//
// A byte stream (pipe, FIFO or Unix stream socket) of frames. Every integer is little-endian.
//
//   offset size  field
//   0      4     magic    0x50435353 (the bytes "SSCP")
//   4      2     version  kCaptureProtocolVersion (2); a client rejects any other
//   6      2     type     FrameType
//   8      4     length   payload bytes that follow, at most kMaxFramePayload
//   12     length payload
//
// Frame types and payloads:
//   Hello (1)      first frame, exactly once. 16 bytes: u32 mode (0 stream, 1 aggregate),
//                  u32 possible CPUs, u32 attach (0 tp_btf, 1 raw_tp), u32 helper pid.
//   Records (2)    stream mode: a whole number of records back to back, each a struct
//                  ssc_record (24 bytes) or, when its kind byte (offset 18) is SSC_COMM, a
//                  struct ssc_comm_record (40 bytes); see bpf/sched_record.h for the fields.
//   Lost (3)       8 bytes: u64 records lost in the kernel so far (cumulative).
//   Aggregate (4)  aggregate mode, cumulative counters since start:
//                    u32 K (event kinds, <= 64), K x u64 events by tracing::EventKind,
//                    u64 lost,
//                    u32 C (CPUs, <= 8192), u32 B (histogram buckets, == SSC_HIST_BUCKETS),
//                    C x (B x u64 run-time histogram, B x u64 wait-time histogram),
//                    u32 M (<= 1,000,000), M x { u16 src, u16 dst, u8 cause, 3 x u8 zero,
//                    u64 count } (16 bytes each);
//                  the payload length must match exactly.
//   Error (5)      the helper's one-line error (UTF-8, <= 4096 bytes); the helper then exits.
//   End (6)        empty; the capture ended normally (its --duration elapsed).
// The helper exits when the client goes (EPIPE on write, or POLLERR/POLLHUP on its stdout).
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "bpf_records.h"
#include "event_store.h"
#include "util/result.h"

namespace schedscope::tracing {

constexpr uint32_t kCaptureMagic = 0x50435353u;
constexpr uint16_t kCaptureProtocolVersion = 2;  // 2: sched_process_exec records (SSC_EXEC)
constexpr size_t kFrameHeaderSize = 12;
constexpr uint32_t kMaxFramePayload = 16u << 20;

enum class FrameType : uint16_t { Hello = 1, Records = 2, Lost = 3, Aggregate = 4, Error = 5, End = 6 };

struct CaptureHello {
    uint32_t mode = 0;  // 0 stream, 1 aggregate
    uint32_t cpus = 0;
    uint32_t attach = 0;  // 0 tp_btf, 1 raw_tp
    uint32_t helperPid = 0;
};

// ---- encoding (the helper) ----
void appendFrame(std::vector<uint8_t>& out, FrameType type, std::span<const uint8_t> payload);
// Writes a frame header (kFrameHeaderSize bytes) at `at`, for a payload built in place behind it.
void writeFrameHeader(uint8_t* at, FrameType type, uint32_t payloadBytes);
std::vector<uint8_t> encodeHello(const CaptureHello& h);
std::vector<uint8_t> encodeLost(uint64_t lost);
std::vector<uint8_t> encodeAggregate(const AggregateSnapshot& s);

// ---- decoding (the client); every error is one line ----
struct FrameView {
    FrameType type;
    std::span<const uint8_t> payload;
};
// Splits `data` into whole frames, calling `fn` for each (it may fail, which stops parsing).
// Returns the bytes consumed: a trailing partial frame is left for the next call. Bad magic,
// version, type or length is an error.
Result<size_t> parseFrames(std::span<const uint8_t> data, const std::function<Status(const FrameView&)>& fn);
Result<CaptureHello> decodeHello(std::span<const uint8_t> payload);
Result<uint64_t> decodeLost(std::span<const uint8_t> payload);
Result<AggregateSnapshot> decodeAggregate(std::span<const uint8_t> payload);
// Checks the record boundaries of a Records payload, then appends each record to the store.
Status decodeRecords(std::span<const uint8_t> payload, EventStore& store);

}  // namespace schedscope::tracing
