#include "domains/kernel_log_reader.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <utility>

#include "domains/kernel_log_lines.h"
#include "domains/sd_flags.h"
#include "util/input_file.h"

namespace schedscope {
namespace {

std::optional<int> numberAt(std::string_view s, size_t at, size_t* end = nullptr) {
    int v = 0;
    auto [p, ec] = std::from_chars(s.data() + at, s.data() + s.size(), v);
    if (ec != std::errc{} || v < 0) return std::nullopt;
    if (end) *end = static_cast<size_t>(p - s.data());
    return v;
}

// the token after `key` up to the next space (or the end)
std::string_view tokenAfter(std::string_view s, std::string_view key) {
    const size_t at = s.find(key);
    if (at == std::string_view::npos) return {};
    const size_t from = at + key.size();
    return s.substr(from, s.find(' ', from) - from);
}

// "CPU12 attaching ..." at `marker` (the position of " attaching"): the CPU number before it
std::optional<int> attachingCpu(std::string_view line, size_t marker) {
    const size_t cpu = line.rfind("CPU", marker);
    if (cpu == std::string_view::npos) return std::nullopt;
    size_t end = 0;
    auto n = numberAt(line, cpu + 3, &end);
    if (!n || end != marker || *n >= kMaxCpus) return std::nullopt;
    return n;
}

// One CPU's attach: its domains (none for "attaching NULL"), and where in the log it was.
struct Attach {
    int cpu = -1;
    size_t seq = 0;
    std::vector<SchedDomain> domains;
};

struct RootDomainLine {
    size_t seq = 0;
    CpuSet span;
};

// Rings of groups shared by the CPUs that print the same ring (every CPU of a non-overlapping
// span does, each from its own group), so a flat 4096-CPU domain keeps 4096 groups, not 16M.
class RingPool {
public:
    GroupRing share(std::vector<SchedGroup> groups) {
        if (groups.empty()) return {};
        // the rotation that starts at the group with the lowest first CPU; overlapping groups
        // can share a first CPU, and such a ring stays the CPU's own
        size_t start = 0;
        for (size_t g = 1; g < groups.size(); ++g)
            if (groups[g].span.first() < groups[start].span.first()) start = g;
        for (size_t g = 0; g < groups.size(); ++g)
            if (g != start && groups[g].span.first() == groups[start].span.first()) return GroupRing(std::move(groups));
        std::rotate(groups.begin(), groups.begin() + static_cast<std::ptrdiff_t>(start), groups.end());
        const size_t own = (groups.size() - start) % groups.size();  // where the CPU's own group went
        std::vector<int> key;
        key.reserve(groups.size());
        for (const SchedGroup& g : groups) key.push_back(g.span.first());
        for (const auto& candidate : pool_[key])
            if (sameGroups(*candidate, groups)) return GroupRing(candidate, own);
        auto ring = std::make_shared<const std::vector<SchedGroup>>(std::move(groups));
        pool_[key].push_back(ring);
        return GroupRing(ring, own);
    }

private:
    static bool sameGroups(const std::vector<SchedGroup>& a, const std::vector<SchedGroup>& b) {
        if (a.size() != b.size()) return false;
        for (size_t i = 0; i < a.size(); ++i)
            if (!(a[i].span == b[i].span) || !(a[i].balanceMask == b[i].balanceMask) || a[i].capacity != b[i].capacity)
                return false;
        return true;
    }
    std::map<std::vector<int>, std::vector<std::shared_ptr<const std::vector<SchedGroup>>>> pool_;
};

class LogParser {
public:
    explicit LogParser(std::string where) : where_(std::move(where)) {}

    Status line(std::string_view l, size_t number) {
        number_ = number;
        if (groupsOpen_) {
            const std::string_view message = l.substr(messageStart(l));
            if (isGroupsContinuation(message)) {
                // the kernel's pieces (KERN_CONT) bring their own space; a mailer that wrapped the
                // line took the space it broke at ("span=0" / "cap=1008 }")
                if (!message.starts_with(' ') && !message.starts_with(',') && !groupsText_.empty() && groupsText_.back() != ' ')
                    groupsText_ += ' ';
                groupsText_ += message;
                return {};
            }
            // the KERN_ERR "domain->groups does not match domain->child" comes in the middle of
            // the CPU's first group: the rest of the groups line follows it
            if (size_t at = l.find("ERROR: "); at != std::string_view::npos && startsMessage(l, at)) {
                kernelError(l.substr(at));
                return {};
            }
            if (auto st = closeGroups(); !st) return st;
        }
        // a CPU's header: its domain lines follow, or it has none ("attaching NULL")
        constexpr std::pair<std::string_view, bool> kHeaders[] = {{" attaching sched-domain(s):", true},
                                                                  {" attaching NULL sched-domain.", false}};
        for (const auto& [marker, opens] : kHeaders) {
            const size_t at = l.find(marker);
            if (at == std::string_view::npos) continue;
            auto cpu = attachingCpu(l, at);
            if (!cpu) {
                // digits there, but too many: a CPU past the tool's limit, not a line without one
                const size_t named = l.rfind("CPU", at);
                const std::string_view digits = named == std::string_view::npos ? std::string_view{} : l.substr(named + 3, at - named - 3);
                if (!digits.empty() && digits.find_first_not_of("0123456789") == std::string_view::npos)
                    return bad("CPU" + std::string(digits) + " attaching sched domains is past the " + std::to_string(kMaxCpus) +
                               " CPUs the tool reads");
                return bad("a CPU attaching sched domains with no CPU number");
            }
            if (auto st = checkLastAttachHasDomains(); !st) return st;
            attaches_.push_back({*cpu, seq_++, {}});
            headerLine_ = number;
            open_ = opens;
            return {};
        }
        if (l.find(" attaching sched-domain:") != std::string_view::npos) ++oldFormat_;
        // "root domain span: 0-15 (max cpu_capacity = 1024)"; about 4.13 to 4.19 printed only
        // "span: 0-15 (max cpu_capacity = 1024)"
        const size_t root = l.find("root domain span: ");
        const size_t bare = root == std::string_view::npos ? l.find("span: ") : std::string_view::npos;
        if (root != std::string_view::npos ||
            (bare != std::string_view::npos && startsMessage(l, bare) && l.find(" (max cpu_capacity = ", bare) != std::string_view::npos)) {
            const std::string_view key = root != std::string_view::npos ? "root domain span: " : "span: ";
            const size_t at = root != std::string_view::npos ? root : bare;
            auto span = CpuSet::parseList(tokenAfter(l.substr(at), key));
            if (!span) return bad("root domain span: " + span.error());
            if (auto st = checkLastAttachHasDomains(); !st) return st;
            roots_.push_back({seq_++, *span});
            (l.find("(max cpu_capacity = ", at) != std::string_view::npos ? rootWithCapacity_ : rootWithout_) = true;
            open_ = false;
            return {};
        }
        // the lines below belong to the CPU whose header came last; before the first header (a
        // ring buffer that wrapped in the middle of a block) they cannot be placed
        if (!open_) {
            banner(l);
            return {};
        }
        // other messages can come in between (printk from another CPU): only the shapes of the
        // domain, groups and ERROR lines count, and an ERROR only right after them
        const bool afterDomainLines = afterDomainLines_;
        afterDomainLines_ = false;
        Attach& a = attaches_.back();
        if (size_t at = l.find(" domain-");
            at != std::string_view::npos && startsIndentedMessage(l, at + 1) && l.find(": span=", at) != std::string_view::npos) {
            size_t end = 0;
            auto index = numberAt(l, at + 8, &end);
            if (!index || l.substr(end, 7) != ": span=") return bad("a domain line without its number");
            if (static_cast<size_t>(*index) != a.domains.size())
                return bad("domain-" + std::to_string(*index) + " of CPU" + std::to_string(a.cpu) + " follows domain-" +
                           std::to_string(static_cast<int>(a.domains.size()) - 1));
            auto span = CpuSet::parseList(tokenAfter(l.substr(end), ": span="));
            if (!span) return bad("domain span: " + span.error());
            if (span->empty()) return bad("domain-" + std::to_string(*index) + " of CPU" + std::to_string(a.cpu) + " with an empty span");
            SchedDomain sd;
            sd.span = *span;
            sd.level = std::string(tokenAfter(l.substr(end), " level="));
            if (sd.level.empty()) return bad("a domain line without level=");
            if (sd.level == "NUMA") sd.flags = SD_NUMA;  // the only flag a name gives away
            a.domains.push_back(std::move(sd));
            afterDomainLines_ = true;
            return {};
        }
        // the groups line is read whole once a line that does not continue it comes
        if (size_t at = l.find(" groups:");
            at != std::string_view::npos && startsIndentedMessage(l, at + 1) &&
            (at + 8 == l.size() || isGroupsContinuation(l.substr(at + 8)))) {
            if (a.domains.empty() || !a.domains.back().groups.empty()) return bad("a groups line without its domain line");
            groupsOpen_ = true;
            groupsLine_ = number;
            groupsErrors_ = 0;
            groupsText_.assign(l.substr(at + 8));
            return {};
        }
        if (size_t at = l.find("ERROR: "); at != std::string_view::npos && afterDomainLines && startsMessage(l, at)) {
            kernelError(l.substr(at));
            return {};
        }
        banner(l);  // a printk from elsewhere in the middle of a block
        return {};
    }

    // The log printed sched domain lines (of the format read here, or the one before 4.13).
    bool printedDomains() const { return !attaches_.empty(); }
    bool printedOldFormat() const { return oldFormat_ > 0; }

    Result<DomainTree> finish() {
        if (groupsOpen_)
            if (auto st = closeGroups(); !st) return Error{st.error()};
        // a log cut right after a CPU's header: that CPU's domains are not in it
        if (open_ && !attaches_.empty() && attaches_.back().domains.empty()) {
            warnings_.push_back("the log ends right after cpu" + std::to_string(attaches_.back().cpu) +
                                "'s attach line (line " + std::to_string(headerLine_) + "): its domains are not in it");
            attaches_.pop_back();
        }
        if (attaches_.empty() && oldFormat_) {
            return Error{where_ + ": a log from a kernel before 4.13 (\"CPUn attaching sched-domain:\", \"domain 0: span ...\"), "
                                  "whose format is not read; 4.13 and later print the one read here"};
        }
        if (attaches_.empty()) {
            return Error{where_ + ": no sched domain lines (\"CPUn attaching sched-domain(s):\"): boot with sched_verbose "
                                  "(or sched_debug before 5.13), then save dmesg"};
        }
        if (oldFormat_)
            warnings_.push_back(std::to_string(oldFormat_) + " CPU(s) attach domains in the format before 4.13 "
                                "(\"CPUn attaching sched-domain:\"), not read: a log of two kernels' boots without "
                                "the second's banner?");
        int maxCpu = 0;
        std::map<int, const Attach*> last;
        for (const Attach& a : attaches_) {
            last[a.cpu] = &a;
            maxCpu = std::max(maxCpu, a.cpu);
        }
        DomainTree tree;
        tree.profile = &defaultProfile();
        tree.fromKernelLog = true;
        tree.warnings = warnings_;
        tree.cpus.resize(static_cast<size_t>(maxCpu) + 1);
        for (size_t i = 0; i < tree.cpus.size(); ++i) tree.cpus[i].cpu = static_cast<int>(i);
        for (const auto& [cpu, a] : last) {
            CpuDomains& c = tree.cpus[static_cast<size_t>(cpu)];
            c.domains = a->domains;
            // the CPU's own capacity is its group's where a group is just the CPU
            if (!c.domains.empty() && !c.domains.front().groups.empty() && c.domains.front().groups.front().span.count() == 1)
                c.capacity = c.domains.front().groups.front().capacity;
        }
        rootDomains(tree, last);
        // the level names the log prints (a log's domains carry no topology level to sort by)
        std::vector<std::string> names;
        for (const CpuDomains& c : tree.cpus)
            for (const SchedDomain& d : c.domains)
                if (std::find(names.begin(), names.end(), d.level) == names.end()) names.push_back(d.level);
        const std::string when = kernelVersionHint(names);
        tree.logProfile = newestProfileBefore();
        tree.logArch = arch_;
        // the banner's release, else the one the boot image's name gives on the command line
        // (a log quoted from the command line on has no banner)
        const bool fromBanner = !release_.empty();
        const std::string release = fromBanner ? release_ : bootImageRelease_;
        const std::string source = fromBanner ? "the banner" : "the boot image on the command line";
        if (const KernelProfile* named = profileForKernelRelease(release); named && fitsFormat(*named, names)) {
            tree.logKernelRelease = release;
            tree.logProfile = named->name;
            tree.notes.push_back("printed by Linux " + release + " (" + (fromBanner ? "its banner" : source) + ")");
        } else {
            if (!release.empty())
                tree.warnings.push_back(named ? source + " names Linux " + release + ", but the domains were " + when +
                                                    ": a log of several boots? The domain lines' kernel is taken"
                                              : source + "'s kernel release '" + release + "' is not one a profile is known for");
            if (!when.empty()) tree.notes.push_back(when);
        }
        return tree;
    }

private:
    // sched_domain_debug_one() prints its ERRORs (several at times) among the domain lines
    void kernelError(std::string_view error) {
        afterDomainLines_ = true;
        ++groupsErrors_;
        const Attach& a = attaches_.back();
        const std::string where = "cpu" + std::to_string(a.cpu) + (a.domains.empty() ? "" : " domain-" + std::to_string(a.domains.size() - 1));
        warnings_.push_back(where + ": the kernel said " + std::string(error));
    }

    // The groups line, with the pieces printk put on lines of their own, read as one.
    Status closeGroups() {
        groupsOpen_ = false;
        afterDomainLines_ = true;
        // "groups:" and then only an ERROR ("group is NULL", "empty group"): the kernel stopped there
        if (groupsErrors_ > 0 && groupsText_.find(":{") == std::string::npos) return {};
        const size_t current = number_;
        number_ = groupsLine_;  // an error names the line the groups start on
        std::vector<SchedGroup> printed;
        Status st = groups(groupsText_, printed);
        number_ = current;
        if (!st) return st;
        attaches_.back().domains.back().groups = rings_.share(std::move(printed));
        return {};
    }

    // "CPUn attaching sched-domain(s):" is always followed by its domain-0 line: a header
    // without one, when the next header or root domain line comes, is a line this reader did
    // not recognise, which would otherwise read as a CPU without domains.
    Status checkLastAttachHasDomains() const {
        if (!open_ || attaches_.empty() || !attaches_.back().domains.empty()) return {};
        return Error{where_ + ":" + std::to_string(headerLine_) + ": cpu" + std::to_string(attaches_.back().cpu) +
                     " attaches sched domains, but no domain-0 line follows it (lines in a format not read here?)"};
    }

    // " 0:{ span=0-1 cap=2048 }, 2:{ span=2-3 mask=2 cap=2048 }"
    Status groups(std::string_view s, std::vector<SchedGroup>& out) {
        size_t at = 0;
        while ((at = s.find(":{", at)) != std::string_view::npos) {
            const size_t close = s.find('}', at);
            if (close == std::string_view::npos) return bad("a group without its closing brace");
            const std::string_view body = s.substr(at + 2, close - at - 2);
            SchedGroup g;
            auto span = CpuSet::parseList(tokenAfter(body, "span="));
            if (!span || span->empty()) return bad("group span: " + (span ? std::string("empty") : span.error()));
            g.span = *span;
            g.balanceMask = g.span;
            if (const std::string_view mask = tokenAfter(body, " mask="); !mask.empty()) {
                auto m = CpuSet::parseList(mask);
                if (!m) return bad("group mask: " + m.error());
                g.balanceMask = *m;
            }
            g.capacity = 1024;  // printed only when it is not SCHED_CAPACITY_SCALE
            if (const std::string_view cap = tokenAfter(body, " cap="); !cap.empty()) {
                auto n = numberAt(cap, 0);
                if (!n) return bad("group capacity '" + std::string(cap) + "'");
                g.capacity = static_cast<unsigned>(*n);
            }
            out.push_back(std::move(g));
            at = close;
        }
        if (out.empty()) return bad("a groups line with no group");
        return {};
    }

    // Each build_sched_domains() attaches its CPUs, then prints its root domain: a CPU's root
    // domain is the first one printed after its last attach. CPUs last detached (attaching
    // NULL) and in none were isolated.
    void rootDomains(DomainTree& tree, const std::map<int, const Attach*>& last) {
        std::map<size_t, CpuSet> members;  // by root domain line
        for (const auto& entry : last) {
            const int cpu = entry.first;
            const Attach* a = entry.second;
            auto rd = std::find_if(roots_.begin(), roots_.end(), [&](const RootDomainLine& r) { return r.seq > a->seq; });
            if (rd != roots_.end() && rd->span.test(cpu)) {
                members[static_cast<size_t>(rd - roots_.begin())].set(cpu);
            } else if (a->domains.empty()) {
                tree.isolated.set(cpu);
            } else {
                tree.builtFor.set(cpu);  // a log without root domain lines (or cut short)
            }
        }
        for (const auto& [index, cpus] : members) tree.builtFor |= cpus;
        if (members.size() > 1)
            for (const auto& [index, cpus] : members) tree.rootDomains.push_back(cpus);
    }

    // What the log says of the kernel that printed it: level names and the root domain line
    // changed with versions. "" when it says nothing.
    std::string kernelVersionHint(const std::vector<std::string>& names) {
        auto has = [&](const char* n) { return std::find(names.begin(), names.end(), n) != names.end(); };
        std::vector<std::string> since, before;
        if (has("NODE")) since.push_back("4.15 (a NODE level)");
        if (has("CLS")) since.push_back("5.16 (a CLS level)");
        if (has("PKG")) since.push_back("6.7 (PKG)");
        if (rootWithout_) since.push_back("6.10 (root domain lines without a capacity)");
        if (has("DIE")) before.push_back("6.7 (DIE)");
        if (rootWithCapacity_) before.push_back("6.10 (root domain lines with a capacity)");
        // the first bound from above: the versions are pushed in order
        before_ = has("DIE") ? "6.6" : rootWithCapacity_ ? "6.9" : "";
        if (since.empty() && before.empty()) return {};
        std::string out = "printed by a kernel";
        if (!since.empty()) out += " since " + since.back();
        if (!before.empty()) out += std::string(since.empty() ? "" : " and") + " before " + before.front();
        return out;
    }

    // The whole dmesg around the domain lines: its banner names the kernel's release (and, in
    // its compiler's triple, the arch), and some boot lines only one arch prints. The last banner
    // counts (a log of several boots: the one that printed the domains read, as for the blocks).
    void banner(std::string_view l) {
        if (size_t at = l.find("Linux version "); at != std::string_view::npos && startsMessage(l, at)) {
            const std::string_view rest = l.substr(at + 14);
            release_ = std::string(rest.substr(0, rest.find(' ')));
            if (std::optional<Arch> a = archOfBuild(rest)) arch_ = a;
            return;
        }
        // "Kernel command line: BOOT_IMAGE=/boot/vmlinuz-6.16.0-rc1 ..." (x86 prints "Command
        // line: " too): the release in the image's name, for a log without its banner
        for (std::string_view text : {"Kernel command line: ", "Command line: "})
            if (size_t at = l.find(text); at != std::string_view::npos && startsMessage(l, at)) {
                const std::string_view cmdline = l.substr(at + text.size());
                if (size_t image = cmdline.find("vmlinuz-"); image != std::string_view::npos) {
                    const std::string_view rest = cmdline.substr(image + 8);
                    bootImageRelease_ = std::string(rest.substr(0, rest.find_first_of(" \t")));
                }
                return;
            }
        // arm64's boot CPU line and its PSCI firmware's (CPU on, off and killed: hotplug);
        // x86's e820 map and FPU setup (CONFIG_X86 only)
        constexpr std::pair<std::string_view, Arch> kArchLines[] = {{"Booting Linux on physical CPU ", Arch::Arm64},
                                                                    {"psci: ", Arch::Arm64},
                                                                    {"BIOS-e820: ", Arch::X86_64},
                                                                    {"x86/fpu: ", Arch::X86_64}};
        for (const auto& [text, arch] : kArchLines)
            if (size_t at = l.find(text); at != std::string_view::npos && startsMessage(l, at)) {
                arch_ = arch;
                return;
            }
    }

    // "6.12.118+deb12-amd64 (debian-kernel@lists.debian.org) (x86_64-linux-gnu-gcc-12 ...": the
    // compiler's target triple, or a distribution's arch suffix on the release
    static std::optional<Arch> archOfBuild(std::string_view rest) {
        for (std::string_view x86 : {"x86_64-", "-amd64 ", ".x86_64 "})
            if (rest.find(x86) != std::string_view::npos) return Arch::X86_64;
        for (std::string_view arm : {"aarch64-", "-arm64 ", ".aarch64 "})
            if (rest.find(arm) != std::string_view::npos) return Arch::Arm64;
        return std::nullopt;
    }

    // Whether the banner's kernel prints what this log has (a concatenation of two boots' logs
    // can name one kernel and show another's domains).
    bool fitsFormat(const KernelProfile& p, const std::vector<std::string>& levels) const {
        bool fits = !(rootWithCapacity_ && !p.rootDomainCapacityInLog) && !(rootWithout_ && p.rootDomainCapacityInLog);
        for (const std::string& level : levels) {
            if (level == "NODE") fits = fits && p.hasNodeLevel;
            else if (level == "CLS") fits = fits && p.hasClusterLevel;
            else if (level == "DIE" || level == "PKG") fits = fits && level == p.pkgLevelName;
        }
        return fits;
    }

    // the newest kernel before the log's upper bound, as a profile name ("" without a bound)
    std::string newestProfileBefore() const {
        if (before_.empty()) return {};
        const KernelProfile* p = profileForKernelRelease(before_);
        return p ? p->name : std::string{};
    }

    Status bad(const std::string& what) const { return Error{where_ + ":" + std::to_string(number_) + ": " + what}; }

    std::string where_;
    size_t number_ = 0;
    size_t seq_ = 0;
    bool open_ = false;  // the last header attached domains: their lines follow
    size_t headerLine_ = 0;  // the last header's line
    // the groups line being read: its text so far, its first line, the ERRORs within it
    bool groupsOpen_ = false;
    std::string groupsText_;
    size_t groupsLine_ = 0;
    int groupsErrors_ = 0;
    size_t oldFormat_ = 0;  // headers of the format before 4.13
    bool afterDomainLines_ = false;  // the last line was a domain, groups or ERROR line
    bool rootWithCapacity_ = false, rootWithout_ = false;  // the root domain lines' two formats
    std::string before_;  // the last release the log's format allows ("6.6"), "" when any
    std::string release_;  // the last banner's "Linux version RELEASE"
    std::string bootImageRelease_;  // the last command line's "vmlinuz-RELEASE"
    std::optional<Arch> arch_;  // what the banner or arch-only boot lines said
    std::vector<Attach> attaches_;
    RingPool rings_;  // the groups of every attach, shared as they are read
    std::vector<RootDomainLine> roots_;
    std::vector<std::string> warnings_;
};

}  // namespace

namespace {

// Calls f(line, number) for the lines of text[from, to), numbered from `first`, without their
// line ends and terminal colour codes; stops at the first false.
template <typename F>
void forEachLine(std::string_view text, size_t from, size_t to, size_t first, F&& f) {
    std::string buffer;
    for (size_t number = first; from < to; ++number) {
        size_t end = text.find('\n', from);
        if (end == std::string_view::npos || end > to) end = to;
        std::string_view l = text.substr(from, end - from);
        if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
        if (!f(withoutEscapes(l, buffer), number, from)) return;
        from = end + 1;
    }
}

bool isBanner(std::string_view l) {
    const size_t at = l.find("Linux version ");
    return at != std::string_view::npos && startsMessage(l, at);
}

struct Boot {
    size_t offset = 0, line = 1;  // where its banner is (the first boot: the log's start)
};

}  // namespace

// A log of several boots (kern.log, `journalctl -k` without -b, dmesg files put together) has
// each boot's domains: a kernel's banner starts a boot, and the domains read are the last
// boot's that printed any, never CPUs of different boots mixed.
Result<DomainTree> parseKernelLog(std::string_view text, const std::string& where) {
    std::vector<Boot> boots = {{}};  // the first boot takes whatever comes before its banner too
    bool banner = false;
    forEachLine(text, 0, text.size(), 1, [&](std::string_view l, size_t number, size_t offset) {
        if (!isBanner(l)) return true;
        if (banner) boots.push_back({offset, number});
        banner = true;
        return true;
    });
    std::vector<std::string> skipped;  // later boots without domains read here
    for (size_t b = boots.size(); b-- > 0;) {
        const size_t to = b + 1 < boots.size() ? boots[b + 1].offset : text.size();
        LogParser parser(where);
        Status status;
        forEachLine(text, boots[b].offset, to, boots[b].line, [&](std::string_view l, size_t number, size_t) {
            status = parser.line(l, number);
            return static_cast<bool>(status);
        });
        if (!status) return Error{status.error()};
        if (!parser.printedDomains() && b > 0) {
            if (parser.printedOldFormat())
                skipped.push_back("the boot at line " + std::to_string(boots[b].line) +
                                  " printed its domains in the format before 4.13, which is not read");
            continue;
        }
        auto tree = parser.finish();
        if (!tree || boots.size() == 1) return tree;
        std::string said = "the log holds " + std::to_string(boots.size()) + " boots: the domains are those of the boot at line " +
                           std::to_string(boots[b].line);
        if (b + 1 < boots.size())
            said += skipped.empty() ? "; the later boots printed none (boot them with sched_verbose)" : "; " + skipped.front();
        tree->warnings.insert(tree->warnings.begin(), said);
        return tree;
    }
    return Error{where + ": no sched domain lines"};  // not reached: the first boot is always parsed
}

namespace {
// the compressor whose magic number starts `bytes`, or nullptr
const char* compressionOf(std::string_view bytes) {
    constexpr std::pair<std::string_view, const char*> kMagic[] = {{"\x1f\x8b", "gzip"},
                                                                   {"\xfd" "7zXZ", "xz"},
                                                                   {"BZh", "bzip2"},
                                                                   {"\x28\xb5\x2f\xfd", "zstd"}};
    for (const auto& [magic, name] : kMagic)
        if (bytes.starts_with(magic)) return name;
    return nullptr;
}
}  // namespace

bool looksLikeKernelLog(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    // a boot's dmesg reaches the domains after a few hundred KiB of other messages
    std::string head(size_t{4} << 20, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<size_t>(in.gcount()));
    return head.find(" attaching sched-domain") != std::string::npos || head.find(" attaching NULL sched-domain") != std::string::npos;
}

std::string kernelLogName(const std::string& path) { return path == "-" ? "standard input" : path; }

Result<DomainTree> readKernelLog(const std::string& path) {
    auto text = path == "-"       ? readStandardInput("kernel log", kMaxKernelLogBytes)
                : isPipe(path)    ? readPipe(path, "kernel log", kMaxKernelLogBytes)
                                  : readInputFile(path, "kernel log", kMaxKernelLogBytes);
    if (!text) return Error{text.error()};
    // a rotated log (kern.log.2.gz) given as it is: said, rather than "no sched domain lines"
    if (const char* format = compressionOf(*text))
        return Error{kernelLogName(path) + ": a " + format + "-compressed file: give it decompressed (zcat, xzcat, bzcat or "
                     "zstdcat it into " + (path == "-" ? "standard input" : "- for standard input") + ")"};
    return parseKernelLog(*text, kernelLogName(path));
}

}  // namespace schedscope
