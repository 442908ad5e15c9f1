#include "launch_options.h"

#include <QCommandLineParser>
#include <QRegularExpression>

#include "lost_events.h"
#include "topology/isolcpus_list.h"
#include "topology/numa_distances.h"
#include "qt_convert.h"

namespace schedscope::gui {

QStringList screenshotViews() {
    return {QStringLiteral("window"),   QStringLiteral("topology"), QStringLiteral("domains"),
            QStringLiteral("whatif"),   QStringLiteral("lessons"),
            // trace views (need a trace FILE): TraceWorkspace::viewNames()
            QStringLiteral("timeline"), QStringLiteral("matrix"),   QStringLiteral("rates"),
            QStringLiteral("latency"),  QStringLiteral("tasks")};
}

bool displayAvailable() {
    return !qEnvironmentVariableIsEmpty("DISPLAY") || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") ||
           !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM");
}

LaunchOptions parseLaunchOptions(const QStringList& arguments) {
    LaunchOptions o;
    QCommandLineParser parser;
    parser.setApplicationDescription(QObject::tr("Explore the Linux scheduler's sched-domain hierarchy."));
    const QCommandLineOption helpOpt({QStringLiteral("h"), QStringLiteral("help")}, QObject::tr("Show this help."));
    const QCommandLineOption versionOpt(QStringLiteral("version"), QObject::tr("Show the version."));
    const QCommandLineOption localOpt(QStringLiteral("local"), QObject::tr("Open this machine (the default)."));
    const QCommandLineOption presetOpt(QStringLiteral("preset"), QObject::tr("Open a built-in topology."), QStringLiteral("NAME"));
    const QCommandLineOption xmlOpt(QStringLiteral("xml"), QObject::tr("Open an hwloc XML export."), QStringLiteral("FILE"));
    const QCommandLineOption sysfsOpt(QStringLiteral("sysfs-root"),
                                      QObject::tr("Open a sysfs snapshot: the directory holding sys/devices/system/{cpu,node}, "
                                                  "or its .tar[.bz2|.gz|.xz] archive."),
                                      QStringLiteral("DIR|ARCHIVE"));
    const QCommandLineOption synthOpt(QStringLiteral("synthetic"),
                                      QObject::tr("Open an hwloc synthetic topology, e.g. \"pack:2 numa:2 l3:2 core:4 pu:2\"."),
                                      QStringLiteral("STR"));
    const QCommandLineOption logOpt(QStringLiteral("from-kernel-log"),
                                    QObject::tr("Open the machine a kernel's sched_verbose log shows (a saved dmesg)."),
                                    QStringLiteral("FILE"));
    const QCommandLineOption archOpt(QStringLiteral("arch"), QObject::tr("Kernel rules to apply: x86_64, arm64, ppc64, s390x or generic."),
                                     QStringLiteral("ARCH"));
    const QCommandLineOption isolateOpt(QStringLiteral("isolate"),
                                        QObject::tr("Leave these CPUs without sched domains (isolcpus=domain, an isolated cpuset partition)."),
                                        QStringLiteral("LIST"));
    const QCommandLineOption partitionOpt(QStringLiteral("partition"),
                                          QObject::tr("A cpuset root partition, built as a root domain of its own (repeatable)."),
                                          QStringLiteral("LIST"));
    const QCommandLineOption distancesOpt(QStringLiteral("numa-distances"),
                                          QObject::tr("A NUMA distance table (SLIT) in place of the input's, a row per node: "
                                                      "\"10,12;12,10\"."),
                                          QStringLiteral("TABLE"));
    const QCommandLineOption noClsOpt(QStringLiteral("no-cls"), QObject::tr("Leave out the CLS level (kernels before 5.16)."));
    const QCommandLineOption noNodeOpt(QStringLiteral("no-node"), QObject::tr("Leave out the NODE level (kernels before 4.15)."));
    const QCommandLineOption profileOpt(QStringLiteral("profile"), QObject::tr("Kernel profile, e.g. linux-6.1."),
                                        QStringLiteral("NAME"));
    const QCommandLineOption shotOpt(QStringLiteral("screenshot"),
                                     QObject::tr("Render offscreen to an image (PNG, SVG or PDF) and exit."),
                                     QStringLiteral("OUT"));
    const QCommandLineOption viewOpt(QStringLiteral("view"), QObject::tr("With --screenshot: window, topology, domains, whatif or lessons; with a trace FILE also timeline, matrix, rates, latency or tasks."),
                                     QStringLiteral("NAME"));
    const QCommandLineOption sizeOpt(QStringLiteral("size"), QObject::tr("With --screenshot: image size, e.g. 1200x800."),
                                     QStringLiteral("WxH"));
    const QCommandLineOption selCpuOpt(QStringLiteral("select-cpu"), QObject::tr("Select this CPU after loading."),
                                       QStringLiteral("N"));
    const QCommandLineOption selLevelOpt(QStringLiteral("select-level"),
                                         QObject::tr("Select the CPU's lowest domain of this level (SMT, CLS, MC, PKG, NODE, NUMA), "
                                                     "or with :DISTANCE the NUMA one at that distance (NUMA:20)."),
                                         QStringLiteral("NAME"));
    const QCommandLineOption lessonOpt(QStringLiteral("lesson"), QObject::tr("Open the lesson browser on a lesson and load its scenario."),
                                       QStringLiteral("NAME"));
    const QCommandLineOption figuresOpt(QStringLiteral("render-lesson-figures"),
                                        QObject::tr("Render the figures of every lesson (or of --lesson) offscreen into DIR and exit."),
                                        QStringLiteral("DIR"));
    const QCommandLineOption attachOpt(
        QStringLiteral("attach-capture"),
        QObject::tr("Live capture from a helper started elsewhere: the Unix socket of `sudo schedscope-capture --socket PATH` (or a FIFO it writes to)."),
        QStringLiteral("PATH"));
    const QCommandLineOption helperOpt(QStringLiteral("capture-helper"),
                                       QObject::tr("Live capture through schedscope-capture even when running as root (also SCHEDSCOPE_CAPTURE_HELPER=1)."));
    const QCommandLineOption bufferOpt(QStringLiteral("buffer"),
                                       QObject::tr("The trace.dat buffer to read: an instance recorded with trace-cmd record -B NAME, "
                                                   "or top (default: top, or the first instance with sched events when top has none)."),
                                       QStringLiteral("NAME"));
    const QCommandLineOption bufferKbOpt(
        QStringLiteral("buffer-kb"),
        QObject::tr("Live capture's ring buffer per CPU in KB, as schedscope-cli live --buffer-kb (%1..%2; through "
                    "schedscope-capture: its one BPF ring, as large in all). The banner says when events were lost.")
            .arg(tracing::kMinBufferKb)
            .arg(tracing::kMaxBufferKb),
        QStringLiteral("N"));
    parser.addOptions({helpOpt, versionOpt, localOpt, presetOpt, xmlOpt, sysfsOpt, synthOpt, logOpt, archOpt, isolateOpt, partitionOpt,
                       distancesOpt, noClsOpt, noNodeOpt, profileOpt, shotOpt, viewOpt, sizeOpt, selCpuOpt, selLevelOpt, lessonOpt, figuresOpt,
                       attachOpt, helperOpt, bufferOpt, bufferKbOpt});
    parser.addPositionalArgument(QStringLiteral("FILE"), QObject::tr("A trace file to open: trace.dat, or text (the tracefs trace file, trace-cmd report, perf script)."),
                                 QStringLiteral("[FILE]"));

    if (!parser.parse(arguments)) {
        o.error = parser.errorText();
        return o;
    }
    // Parsing happens before QApplication exists, so Qt cannot know the program name yet.
    o.helpText = parser.helpText().replace(QStringLiteral("<executable_name>"), QStringLiteral("schedscope"));
    o.help = parser.isSet(helpOpt);
    o.version = parser.isSet(versionOpt);

    int sources = 0;
    if (parser.isSet(localOpt)) { o.spec.kind = TopologySpec::Kind::Local; ++sources; }
    const std::pair<const QCommandLineOption*, TopologySpec::Kind> kinds[] = {
        {&presetOpt, TopologySpec::Kind::Preset},
        {&xmlOpt, TopologySpec::Kind::HwlocXml},
        {&sysfsOpt, TopologySpec::Kind::SysfsRoot},
        {&synthOpt, TopologySpec::Kind::Synthetic},
        {&logOpt, TopologySpec::Kind::KernelLog},
    };
    for (const auto& [opt, kind] : kinds) {
        if (!parser.isSet(*opt)) continue;
        o.spec.kind = kind;
        o.spec.value = ss(parser.value(*opt));
        ++sources;
    }
    o.topologyGiven = sources > 0;
    if (sources > 1) {
        o.error = QObject::tr("give only one of --local, --preset, --xml, --sysfs-root, --synthetic, --from-kernel-log");
        return o;
    }
    if (parser.isSet(archOpt)) {
        auto arch = parseArch(ss(parser.value(archOpt)));
        if (!arch) {
            o.error = QObject::tr("--arch: %1").arg(qs(arch.error()));
            return o;
        }
        o.spec.arch = *arch;
        o.spec.archGiven = true;
    }
    // the cpusets are named with the topology, as the CLI's are (spec.describe()); the window puts
    // them in the toolbar's fields when it opens it, so they can be seen and undone
    if (parser.isSet(isolateOpt)) {
        auto list = isolcpusCpuList(ss(parser.value(isolateOpt)));
        auto set = list ? CpuSet::parseList(*list) : Result<CpuSet>(Error{list.error()});
        if (!set) {
            o.error = QObject::tr("--isolate: %1").arg(qs(set.error()));
            return o;
        }
        o.spec.isolate = *set;
    }
    for (const QString& list : parser.values(partitionOpt)) {
        auto set = CpuSet::parseList(ss(list));
        if (!set) {
            o.error = QObject::tr("--partition: %1").arg(qs(set.error()));
            return o;
        }
        if (!o.spec.partitions) o.spec.partitions.emplace();
        o.spec.partitions->push_back(*set);
    }
    if (parser.isSet(distancesOpt)) {
        auto table = parseNumaDistances(ss(parser.value(distancesOpt)));
        if (!table) {
            o.error = QObject::tr("--numa-distances: %1").arg(qs(table.error()));
            return o;
        }
        o.spec.numaDistances = std::move(*table);
    }
    o.choices.cls = !parser.isSet(noClsOpt);
    o.choices.node = !parser.isSet(noNodeOpt);
    if (parser.isSet(profileOpt)) {
        const std::string name = ss(parser.value(profileOpt));
        if (!findProfile(name)) {
            // the CLI's words: it and the GUI accept the same names (any linux-X.Y in range too)
            o.error = QStringLiteral("--profile: ") + qs(unknownProfileError(name));
            return o;
        }
        o.choices.profile = name;
    }

    const QStringList positional = parser.positionalArguments();
    if (positional.size() > 1) {
        o.error = QObject::tr("give at most one trace FILE, not %1").arg(positional.size());
        return o;
    }
    if (!positional.isEmpty()) o.traceFile = positional.front();
    if (parser.isSet(bufferOpt)) {
        if (o.traceFile.isEmpty()) {
            o.error = QObject::tr("--buffer needs a trace FILE");
            return o;
        }
        o.traceBuffer = parser.value(bufferOpt);
    }

    if (parser.isSet(bufferKbOpt)) {
        bool ok = false;
        const qulonglong kb = parser.value(bufferKbOpt).toULongLong(&ok);
        if (!ok || kb < tracing::kMinBufferKb || kb > tracing::kMaxBufferKb) {
            o.error = QObject::tr("--buffer-kb: '%1' is not an integer in %2..%3")
                          .arg(parser.value(bufferKbOpt))
                          .arg(tracing::kMinBufferKb)
                          .arg(tracing::kMaxBufferKb);
            return o;
        }
        o.liveBufferKb = static_cast<size_t>(kb);
    }

    o.screenshot = parser.value(shotOpt);
    if (parser.isSet(viewOpt)) {
        o.view = parser.value(viewOpt).toLower();
        if (!screenshotViews().contains(o.view)) {
            o.error = QObject::tr("--view: unknown view '%1' (known: %2)")
                          .arg(parser.value(viewOpt), screenshotViews().join(QStringLiteral(", ")));
            return o;
        }
    }
    if (parser.isSet(sizeOpt)) {
        static const QRegularExpression re(QStringLiteral("^(\\d{2,5})[xX](\\d{2,5})$"));
        const auto m = re.match(parser.value(sizeOpt));
        const int w = m.hasMatch() ? m.captured(1).toInt() : 0, h = m.hasMatch() ? m.captured(2).toInt() : 0;
        if (w < 100 || h < 100 || w > 16384 || h > 16384) {
            o.error = QObject::tr("--size: expected WxH between 100x100 and 16384x16384, not '%1'").arg(parser.value(sizeOpt));
            return o;
        }
        o.size = QSize(w, h);
    }
    if (parser.isSet(selCpuOpt)) {
        bool ok = false;
        o.selectCpu = parser.value(selCpuOpt).toInt(&ok);
        if (!ok || o.selectCpu < 0) {
            o.error = QObject::tr("--select-cpu: expected a CPU number, not '%1'").arg(parser.value(selCpuOpt));
            return o;
        }
    }
    o.selectLevel = parser.value(selLevelOpt).trimmed().toUpper();
    o.lesson = parser.value(lessonOpt);
    o.renderFigures = parser.value(figuresOpt);
    if (!o.renderFigures.isEmpty() && !o.screenshot.isEmpty()) {
        o.error = QObject::tr("give either --screenshot or --render-lesson-figures, not both");
        return o;
    }
    if (o.traceFile.isEmpty() && screenshotViews().indexOf(o.view) >= 5) {  // the trace views
        o.error = QObject::tr("--view %1 shows a trace: give a trace FILE (e.g. resources/traces/sample.dat)").arg(o.view);
        return o;
    }
    o.attachCapture = parser.value(attachOpt);
    o.captureHelper = parser.isSet(helperOpt);
    if (parser.isSet(attachOpt)) {
        if (o.attachCapture.isEmpty()) {
            o.error = QObject::tr("--attach-capture: give the helper's socket path");
            return o;
        }
        if (o.spec.kind != TopologySpec::Kind::Local || !o.traceFile.isEmpty() || !o.screenshot.isEmpty()) {
            o.error = QObject::tr("--attach-capture shows this machine live: no trace FILE, --screenshot or other topology");
            return o;
        }
        if (o.captureHelper) {
            o.error = QObject::tr("give either --attach-capture or --capture-helper, not both");
            return o;
        }
        if (o.liveBufferKb > 0) {
            o.error = QObject::tr("--buffer-kb: a helper started elsewhere has its own ring (schedscope-capture --ring-mb)");
            return o;
        }
    }
    if (o.screenshot.isEmpty() && (parser.isSet(viewOpt) || parser.isSet(sizeOpt))) {
        o.error = QObject::tr("--view and --size only apply with --screenshot OUT.png");
        return o;
    }
    return o;
}

}  // namespace schedscope::gui
