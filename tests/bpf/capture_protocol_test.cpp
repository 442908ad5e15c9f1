// The capture protocol: round trips, and a client that rejects bad framing with an error.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>

#include "capture_client.h"
#include "capture_protocol.h"

using namespace schedscope;
using namespace schedscope::tracing;

namespace {

std::vector<uint8_t> helloFrame() {
    std::vector<uint8_t> out;
    appendFrame(out, FrameType::Hello, encodeHello({0, 2, 0, 1234}));
    return out;
}

std::vector<uint8_t> recordsPayload() {
    ssc_record sw{};
    sw.ts = 1000;
    sw.pid = 10;
    sw.arg = 20;
    sw.cpu = 1;
    sw.kind = SSC_SWITCH;
    sw.prio = 120;
    sw.state = SSC_STATE_S;
    ssc_comm_record comm{};
    comm.h.ts = 900;
    comm.h.pid = 20;
    comm.h.kind = SSC_COMM;
    std::memcpy(comm.comm, "worker", 6);
    ssc_record mig{};
    mig.ts = 1100;
    mig.pid = 20;
    mig.arg = (0 << 16) | 1;
    mig.cpu = 0;
    mig.kind = SSC_MIGRATE;
    mig.state = SSC_STATE_UNKNOWN | SSC_MIGRATE_IN_SCHED_SOFTIRQ;  // run_rebalance_domains()'s pull
    std::vector<uint8_t> p(sizeof sw + sizeof comm + sizeof mig);
    std::memcpy(p.data(), &sw, sizeof sw);
    std::memcpy(p.data() + sizeof sw, &comm, sizeof comm);
    std::memcpy(p.data() + sizeof sw + sizeof comm, &mig, sizeof mig);
    return p;
}

}  // namespace

TEST(CaptureProtocol, StreamRoundTrip) {
    auto bytes = helloFrame();
    appendFrame(bytes, FrameType::Records, recordsPayload());
    appendFrame(bytes, FrameType::Lost, encodeLost(7));
    appendFrame(bytes, FrameType::End, {});
    CaptureClient client(-1);
    EventStore store;
    // Byte by byte: partial frames wait for the rest.
    for (uint8_t b : bytes) ASSERT_TRUE(client.feed({&b, 1}, store));
    ASSERT_TRUE(client.hello());
    EXPECT_EQ(client.hello()->helperPid, 1234u);
    EXPECT_TRUE(client.ended());
    client.flushCounts(store);
    store.finish();
    ASSERT_EQ(store.size(), 2u);
    EXPECT_EQ(store.count(EventKind::Switch), 1u);
    EXPECT_EQ(store.count(EventKind::MigrateTask), 1u);
    EXPECT_EQ(store.anomaly(Anomaly::LostEvents), 7u);
    EXPECT_EQ(store.commAt(20, 2000), "worker");
    auto sw = store.at(1, 0);
    EXPECT_EQ(sw.pid2, 20);
    EXPECT_EQ(sw.state, TaskState::Sleeping);
    auto mig = store.at(0, 0);
    EXPECT_EQ(mig.srcCpu, 0);
    EXPECT_EQ(mig.dstCpu, 1);
    EXPECT_TRUE(mig.inSchedSoftirq);
    EXPECT_FALSE(mig.inExec);
}

// A helper streams every kind its records carry: a capture in which no task migrated holds no
// migration, rather than one to infer from the switches.
TEST(CaptureProtocol, AStreamRecordsEveryKindItsRecordsCarry) {
    auto bytes = helloFrame();
    ssc_record sw{};
    sw.ts = 1000;
    sw.pid = 10;
    sw.kind = SSC_SWITCH;
    std::vector<uint8_t> payload(sizeof sw);
    std::memcpy(payload.data(), &sw, sizeof sw);
    appendFrame(bytes, FrameType::Records, payload);
    appendFrame(bytes, FrameType::End, {});
    CaptureClient client(-1);
    EventStore store;
    EXPECT_FALSE(store.recorded(EventKind::MigrateTask));
    ASSERT_TRUE(client.feed(bytes, store));
    EXPECT_EQ(store.size(), 1u);
    EXPECT_EQ(store.count(EventKind::MigrateTask), 0u);
    for (int k = 0; k < SSC_KIND_COUNT; ++k) {
        if (const auto kind = eventKindOfRecord(static_cast<uint8_t>(k))) {
            EXPECT_TRUE(store.recorded(*kind)) << k;
        }
    }
    EXPECT_TRUE(store.recorded(EventKind::MigrateTask));
    EXPECT_FALSE(store.recorded(EventKind::CpuIdle));  // no record kind for it
}

TEST(CaptureProtocol, WakeRecordsCarryTheirWaker) {
    // The waker bytes hold 1 + the pid that ran the tracepoint; zero (what a helper that still
    // sent padding there wrote) reads as unknown.
    ssc_record withWaker{};
    withWaker.ts = 1000;
    withWaker.pid = 30;
    withWaker.arg = 1;  // target CPU
    withWaker.kind = SSC_WAKING;
    const uint32_t waker1 = 0x12345 + 1;
    withWaker.waker[0] = waker1 & 0xff;
    withWaker.waker[1] = waker1 >> 8 & 0xff;
    withWaker.waker[2] = waker1 >> 16 & 0xff;
    ssc_record padded = withWaker;
    padded.ts = 1100;
    padded.kind = SSC_WAKEUP;
    padded.waker[0] = padded.waker[1] = padded.waker[2] = 0;
    std::vector<uint8_t> payload(2 * sizeof(ssc_record));
    std::memcpy(payload.data(), &withWaker, sizeof withWaker);
    std::memcpy(payload.data() + sizeof withWaker, &padded, sizeof padded);
    auto bytes = helloFrame();
    appendFrame(bytes, FrameType::Records, payload);
    appendFrame(bytes, FrameType::End, {});
    CaptureClient client(-1);
    EventStore store;
    ASSERT_TRUE(client.feed(bytes, store));
    store.finish();
    ASSERT_EQ(store.size(), 2u);
    EXPECT_EQ(store.at(0, 0).waker, 0x12345);
    EXPECT_EQ(store.at(0, 0).dstCpu, 1);
    EXPECT_EQ(store.at(0, 1).waker, -1);
}

TEST(CaptureProtocol, AggregateRoundTrip) {
    AggregateSnapshot s;
    s.eventsByKind[static_cast<size_t>(EventKind::Switch)] = 42;
    s.lost = 3;
    s.runHist.resize(2);
    s.waitHist.resize(2);
    s.runHist[1][5] = 9;
    s.waitHist[0][31] = 1;
    s.migrations.push_back({0, 1, MigrationCause::LoadBalanceActive, 5});
    auto d = decodeAggregate(encodeAggregate(s));
    ASSERT_TRUE(d) << d.error();
    EXPECT_EQ(d->eventsByKind, s.eventsByKind);
    EXPECT_EQ(d->lost, 3u);
    EXPECT_EQ(d->runHist, s.runHist);
    EXPECT_EQ(d->waitHist, s.waitHist);
    ASSERT_EQ(d->migrations.size(), 1u);
    EXPECT_EQ(d->migrations[0].cause, MigrationCause::LoadBalanceActive);
    EXPECT_EQ(d->migrations[0].count, 5u);
    auto bytes = encodeAggregate(s);
    bytes.pop_back();
    EXPECT_FALSE(decodeAggregate(bytes));
    bytes = encodeAggregate(s);
    bytes.push_back(0);
    EXPECT_FALSE(decodeAggregate(bytes));
}

TEST(CaptureProtocol, ClientRejectsBadFraming) {
    auto expectRejected = [](std::vector<uint8_t> bytes, const std::string& what) {
        CaptureClient client(-1);
        EventStore store;
        Status s = client.feed(bytes, store);
        EXPECT_FALSE(s) << what;
        if (!s) {
            EXPECT_EQ(s.error().find('\n'), std::string::npos);
            EXPECT_TRUE(s.error().starts_with("capture")) << s.error();
        }
        EXPECT_EQ(store.size(), 0u) << what;
        EXPECT_FALSE(client.feed(helloFrame(), store)) << what << ": a rejected stream stays rejected";
    };
    expectRejected({'G', 'A', 'R', 'B', 'A', 'G', 'E', '!', 0, 0, 0, 0, 1}, "garbage");
    auto wrongVersion = helloFrame();
    wrongVersion[4] = static_cast<uint8_t>(kCaptureProtocolVersion + 1);
    expectRejected(wrongVersion, "wrong version");
    auto olderVersion = helloFrame();  // 1: a helper without sched_process_exec records
    olderVersion[4] = static_cast<uint8_t>(kCaptureProtocolVersion - 1);
    expectRejected(olderVersion, "older version");
    auto unknownType = helloFrame();
    unknownType[6] = 99;
    expectRejected(unknownType, "unknown type");
    auto huge = helloFrame();
    huge[11] = 0x7f;
    expectRejected(huge, "oversized length");
    std::vector<uint8_t> noHello;
    appendFrame(noHello, FrameType::Records, recordsPayload());
    expectRejected(noHello, "records before hello");
    auto badHello = std::vector<uint8_t>();
    appendFrame(badHello, FrameType::Hello, std::vector<uint8_t>(15, 0));
    expectRejected(badHello, "short hello");
    auto cut = helloFrame();
    auto rec = recordsPayload();
    rec.resize(rec.size() - 3);
    appendFrame(cut, FrameType::Records, rec);
    expectRejected(cut, "truncated record");
    auto badKind = helloFrame();
    rec = recordsPayload();
    rec[offsetof(ssc_record, kind)] = 200;
    appendFrame(badKind, FrameType::Records, rec);
    expectRejected(badKind, "unknown record kind");
    auto twoHellos = helloFrame();
    auto h2 = helloFrame();
    twoHellos.insert(twoHellos.end(), h2.begin(), h2.end());
    expectRejected(twoHellos, "second hello");
    auto err = helloFrame();
    const std::string msg = "needs root";
    appendFrame(err, FrameType::Error, {reinterpret_cast<const uint8_t*>(msg.data()), msg.size()});
    expectRejected(err, "error frame");
}

TEST(CaptureProtocol, StreamEndingInsideAFrameIsAnError) {
    int p[2];
    ASSERT_EQ(pipe(p), 0);
    auto bytes = helloFrame();
    appendFrame(bytes, FrameType::Records, recordsPayload());
    bytes.resize(bytes.size() - 5);
    ASSERT_EQ(write(p[1], bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
    close(p[1]);
    CaptureClient client(p[0]);
    EventStore store;
    Result<bool> r = true;
    for (int i = 0; i < 10 && r && *r; ++i) r = client.pump(store, 100);
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().find("inside a frame"), std::string::npos) << r.error();
}

TEST(CaptureProtocol, FrameHeaderWrittenInPlaceMatchesAppendFrame) {
    const auto payload = recordsPayload();
    std::vector<uint8_t> expected;
    appendFrame(expected, FrameType::Records, payload);
    std::vector<uint8_t> inPlace(kFrameHeaderSize);
    inPlace.insert(inPlace.end(), payload.begin(), payload.end());
    writeFrameHeader(inPlace.data(), FrameType::Records, static_cast<uint32_t>(payload.size()));
    EXPECT_EQ(inPlace, expected);
}

// `live --attach FIFO` before the helper writes to it: attaching must not wait for a writer
// (a blocking open of a FIFO does, for ever when the helper failed to start); the client polls
// for the hello with its own timeout, and reads the stream once a writer comes.
TEST(CaptureProtocol, AttachingToAFifoDoesNotWaitForAWriter) {
    char dir[] = "/tmp/schedscope-fifo-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    const std::string fifo = std::string(dir) + "/capture";
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    auto client = CaptureClient::attach(fifo);  // returns at once: no writer yet
    ASSERT_TRUE(client.ok()) << client.error();
    EventStore store;
    auto waited = (*client)->pump(store, 50);
    ASSERT_TRUE(waited.ok()) << waited.error();
    EXPECT_TRUE(*waited) << "no writer yet is no end of the stream";
    EXPECT_FALSE((*client)->hello());

    const int writer = open(fifo.c_str(), O_WRONLY | O_CLOEXEC);
    ASSERT_GE(writer, 0);
    auto bytes = helloFrame();
    appendFrame(bytes, FrameType::End, {});
    ASSERT_EQ(write(writer, bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
    close(writer);
    for (int i = 0; i < 20 && !(*client)->ended(); ++i) ASSERT_TRUE((*client)->pump(store, 100).ok());
    ASSERT_TRUE((*client)->hello());
    EXPECT_EQ((*client)->hello()->helperPid, 1234u);
    EXPECT_TRUE((*client)->ended());
    unlink(fifo.c_str());
    rmdir(dir);
}
