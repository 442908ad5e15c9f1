#include "capture_protocol.h"

#include <cstring>

namespace schedscope::tracing {
namespace {

// Little-endian writer/reader; the reader fails (sticky) instead of reading past the end.
struct Writer {
    std::vector<uint8_t>& out;
    void u8(uint8_t v) { out.push_back(v); }
    void u16(uint16_t v) {
        for (int i = 0; i < 2; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
    }
    void u32(uint32_t v) {
        for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
    }
    void u64(uint64_t v) {
        for (int i = 0; i < 8; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
    }
};

struct Reader {
    std::span<const uint8_t> in;
    size_t pos = 0;
    bool ok = true;
    bool need(size_t n) {
        if (!ok || in.size() - pos < n) ok = false;
        return ok;
    }
    uint64_t le(size_t n) {
        if (!need(n)) return 0;
        uint64_t v = 0;
        for (size_t i = 0; i < n; ++i) v |= static_cast<uint64_t>(in[pos + i]) << (8 * i);
        pos += n;
        return v;
    }
    uint8_t u8() { return static_cast<uint8_t>(le(1)); }
    uint16_t u16() { return static_cast<uint16_t>(le(2)); }
    uint32_t u32() { return static_cast<uint32_t>(le(4)); }
    uint64_t u64() { return le(8); }
    bool atEnd() const { return ok && pos == in.size(); }
};

const char* typeName(FrameType t) {
    switch (t) {
        case FrameType::Hello: return "hello";
        case FrameType::Records: return "records";
        case FrameType::Lost: return "lost";
        case FrameType::Aggregate: return "aggregate";
        case FrameType::Error: return "error";
        case FrameType::End: return "end";
    }
    return "?";
}

Error bad(FrameType t, const std::string& what) {
    return Error{std::string("capture protocol: ") + typeName(t) + " frame: " + what};
}

}  // namespace

void appendFrame(std::vector<uint8_t>& out, FrameType type, std::span<const uint8_t> payload) {
    Writer w{out};
    w.u32(kCaptureMagic);
    w.u16(kCaptureProtocolVersion);
    w.u16(static_cast<uint16_t>(type));
    w.u32(static_cast<uint32_t>(payload.size()));
    out.insert(out.end(), payload.begin(), payload.end());
}

void writeFrameHeader(uint8_t* at, FrameType type, uint32_t payloadBytes) {
    std::vector<uint8_t> h;
    h.reserve(kFrameHeaderSize);
    appendFrame(h, type, {});
    for (int i = 0; i < 4; ++i) h[8 + i] = static_cast<uint8_t>(payloadBytes >> (8 * i));
    std::memcpy(at, h.data(), kFrameHeaderSize);
}

std::vector<uint8_t> encodeHello(const CaptureHello& h) {
    std::vector<uint8_t> out;
    Writer w{out};
    w.u32(h.mode);
    w.u32(h.cpus);
    w.u32(h.attach);
    w.u32(h.helperPid);
    return out;
}

std::vector<uint8_t> encodeLost(uint64_t lost) {
    std::vector<uint8_t> out;
    Writer{out}.u64(lost);
    return out;
}

std::vector<uint8_t> encodeAggregate(const AggregateSnapshot& s) {
    std::vector<uint8_t> out;
    Writer w{out};
    w.u32(static_cast<uint32_t>(s.eventsByKind.size()));
    for (uint64_t v : s.eventsByKind) w.u64(v);
    w.u64(s.lost);
    const size_t cpus = std::min(s.runHist.size(), s.waitHist.size());
    w.u32(static_cast<uint32_t>(cpus));
    w.u32(SSC_HIST_BUCKETS);
    for (size_t c = 0; c < cpus; ++c) {
        for (uint64_t v : s.runHist[c]) w.u64(v);
        for (uint64_t v : s.waitHist[c]) w.u64(v);
    }
    w.u32(static_cast<uint32_t>(s.migrations.size()));
    for (const auto& m : s.migrations) {
        w.u16(static_cast<uint16_t>(m.src));
        w.u16(static_cast<uint16_t>(m.dst));
        w.u8(static_cast<uint8_t>(m.cause));
        w.u8(0);
        w.u8(0);
        w.u8(0);
        w.u64(m.count);
    }
    return out;
}

Result<size_t> parseFrames(std::span<const uint8_t> data, const std::function<Status(const FrameView&)>& fn) {
    size_t pos = 0;
    while (data.size() - pos >= kFrameHeaderSize) {
        Reader r{data.subspan(pos, kFrameHeaderSize)};
        const uint32_t magic = r.u32();
        const uint16_t version = r.u16();
        const uint16_t type = r.u16();
        const uint32_t length = r.u32();
        if (magic != kCaptureMagic)
            return Error{"capture protocol: bad magic at byte " + std::to_string(pos) + " (not a schedscope-capture stream)"};
        if (version != kCaptureProtocolVersion)
            return Error{"capture protocol: version " + std::to_string(version) + ", this client speaks " +
                         std::to_string(kCaptureProtocolVersion)};
        if (type < static_cast<uint16_t>(FrameType::Hello) || type > static_cast<uint16_t>(FrameType::End))
            return Error{"capture protocol: unknown frame type " + std::to_string(type)};
        if (length > kMaxFramePayload)
            return Error{"capture protocol: frame of " + std::to_string(length) + " bytes exceeds the limit"};
        if (data.size() - pos - kFrameHeaderSize < length) break;
        FrameView f{static_cast<FrameType>(type), data.subspan(pos + kFrameHeaderSize, length)};
        if (Status s = fn(f); !s) return Error{s.error()};
        pos += kFrameHeaderSize + length;
    }
    return pos;
}

Result<CaptureHello> decodeHello(std::span<const uint8_t> payload) {
    Reader r{payload};
    CaptureHello h;
    h.mode = r.u32();
    h.cpus = r.u32();
    h.attach = r.u32();
    h.helperPid = r.u32();
    if (!r.atEnd()) return bad(FrameType::Hello, "payload is " + std::to_string(payload.size()) + " bytes, not 16");
    if (h.mode > 1) return bad(FrameType::Hello, "unknown mode " + std::to_string(h.mode));
    if (h.attach > 1) return bad(FrameType::Hello, "unknown attach kind " + std::to_string(h.attach));
    if (h.cpus == 0 || h.cpus > static_cast<uint32_t>(EventStore::kMaxCpus))
        return bad(FrameType::Hello, "CPU count " + std::to_string(h.cpus) + " out of range");
    return h;
}

Result<uint64_t> decodeLost(std::span<const uint8_t> payload) {
    Reader r{payload};
    const uint64_t v = r.u64();
    if (!r.atEnd()) return bad(FrameType::Lost, "payload is " + std::to_string(payload.size()) + " bytes, not 8");
    return v;
}

Result<AggregateSnapshot> decodeAggregate(std::span<const uint8_t> payload) {
    Reader r{payload};
    AggregateSnapshot s;
    const uint32_t kinds = r.u32();
    if (!r.ok || kinds > 64) return bad(FrameType::Aggregate, "bad event kind count");
    for (uint32_t k = 0; k < kinds; ++k) {
        const uint64_t v = r.u64();
        if (k < s.eventsByKind.size()) s.eventsByKind[k] = v;
    }
    s.lost = r.u64();
    const uint32_t cpus = r.u32();
    const uint32_t buckets = r.u32();
    if (!r.ok) return bad(FrameType::Aggregate, "truncated");
    if (cpus > static_cast<uint32_t>(EventStore::kMaxCpus)) return bad(FrameType::Aggregate, "CPU count out of range");
    if (buckets != SSC_HIST_BUCKETS) return bad(FrameType::Aggregate, "histograms have " + std::to_string(buckets) + " buckets");
    if (!r.need(static_cast<size_t>(cpus) * 2 * buckets * 8)) return bad(FrameType::Aggregate, "truncated histograms");
    s.runHist.resize(cpus);
    s.waitHist.resize(cpus);
    for (uint32_t c = 0; c < cpus; ++c) {
        for (auto& v : s.runHist[c]) v = r.u64();
        for (auto& v : s.waitHist[c]) v = r.u64();
    }
    const uint32_t migs = r.u32();
    if (!r.ok || migs > 1000000u || !r.need(static_cast<size_t>(migs) * 16))
        return bad(FrameType::Aggregate, "bad migration counter count");
    s.migrations.reserve(migs);
    for (uint32_t i = 0; i < migs; ++i) {
        MigrationCount m;
        m.src = r.u16();
        m.dst = r.u16();
        const uint8_t cause = r.u8();
        r.u8();
        r.u8();
        r.u8();
        m.count = r.u64();
        if (cause >= SSC_CAUSE_COUNT) return bad(FrameType::Aggregate, "unknown migration cause " + std::to_string(cause));
        m.cause = static_cast<MigrationCause>(cause);
        s.migrations.push_back(m);
    }
    if (!r.atEnd()) return bad(FrameType::Aggregate, "payload length does not match its counts");
    return s;
}

Status decodeRecords(std::span<const uint8_t> payload, EventStore& store) {
    // Validate the whole frame first, so a bad frame appends nothing.
    for (size_t pos = 0; pos < payload.size();) {
        if (payload.size() - pos < sizeof(ssc_record))
            return bad(FrameType::Records, "truncated record at byte " + std::to_string(pos));
        const uint8_t kind = payload[pos + offsetof(ssc_record, kind)];
        const size_t size = recordSize(kind);
        if (size == 0) return bad(FrameType::Records, "unknown record kind " + std::to_string(kind));
        if (payload.size() - pos < size) return bad(FrameType::Records, "truncated record at byte " + std::to_string(pos));
        const uint16_t cpu = static_cast<uint16_t>(payload[pos + offsetof(ssc_record, cpu)] |
                                                   payload[pos + offsetof(ssc_record, cpu) + 1] << 8);
        if (cpu >= EventStore::kMaxCpus) return bad(FrameType::Records, "CPU " + std::to_string(cpu) + " out of range");
        pos += size;
    }
    for (size_t pos = 0; pos < payload.size();) {
        const size_t size = recordSize(payload[pos + offsetof(ssc_record, kind)]);
        applyRecord(payload.data() + pos, size, store);
        pos += size;
    }
    return {};
}

}  // namespace schedscope::tracing
