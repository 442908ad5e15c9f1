#include "util/cpuset.h"

#include <algorithm>
#include <charconv>

namespace schedscope {

CpuSet CpuSet::single(int cpu) {
    CpuSet s;
    s.set(cpu);
    return s;
}

CpuSet CpuSet::range(int first, int last) {
    CpuSet s;
    for (int c = first; c <= last; ++c) s.set(c);
    return s;
}

static std::string_view trimmed(std::string_view t) {
    while (!t.empty() && (t.front() == ' ' || t.front() == '\n' || t.front() == '\t' || t.front() == '\r'))
        t.remove_prefix(1);
    while (!t.empty() && (t.back() == ' ' || t.back() == '\n' || t.back() == '\t' || t.back() == '\r'))
        t.remove_suffix(1);
    return t;
}

static bool parseInt(std::string_view t, int& out) {
    if (t.empty()) return false;
    auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), out);
    return ec == std::errc() && p == t.data() + t.size() && out >= 0;
}

Result<CpuSet> CpuSet::parseList(std::string_view text) {
    CpuSet s;
    std::string_view t = trimmed(text);
    auto bad = [&](std::string_view what, std::string_view item) {
        return Error{"bad cpu " + std::string(what) + " '" + escapeControl(std::string(item)) + "' in cpulist"};
    };
    while (!t.empty()) {
        size_t comma = t.find(',');
        std::string_view item = trimmed(t.substr(0, comma));
        t = comma == std::string_view::npos ? std::string_view{} : t.substr(comma + 1);
        if (item.empty()) return Error{"empty item in cpulist '" + escapeControl(std::string(text)) + "'"};
        // "N" is the kernel's last CPU (nr_cpu_ids - 1), which a list read apart from its
        // machine cannot know
        if (item == "N" || item.ends_with("-N"))
            return Error{"'" + escapeControl(std::string(item)) + "': N (the last CPU) needs the machine: write its number"};
        // bitmap_parselist()'s regions: "a", "a-b", and "a-b:used/group", the first `used` CPUs
        // of every `group` from a up to b (isolcpus=1-7:2/4 is 1,2,5,6)
        int used = 1, group = 1;
        if (const size_t colon = item.find(':'); colon != std::string_view::npos) {
            const std::string_view stride = item.substr(colon + 1);
            const size_t slash = stride.find('/');
            if (slash == std::string_view::npos || !parseInt(stride.substr(0, slash), used) || !parseInt(stride.substr(slash + 1), group) ||
                used == 0 || group == 0 || used > group)
                return bad("stride", item);
            item = item.substr(0, colon);
            if (item.find('-') == std::string_view::npos) return bad("range", item);
        } else {
            used = group = 1;
        }
        size_t dash = item.find('-');
        int a = 0, b = 0;
        if (dash == std::string_view::npos) {
            if (!parseInt(item, a)) return Error{"bad cpu number '" + escapeControl(std::string(item)) + "' in cpulist"};
            b = a;
        } else if (!parseInt(item.substr(0, dash), a) || !parseInt(item.substr(dash + 1), b) || b < a) {
            return bad("range", item);
        }
        if (b >= kMaxCpus) return Error{"cpu " + std::to_string(b) + " exceeds the limit of " + std::to_string(kMaxCpus) + " CPUs"};
        for (int start = a; start <= b; start += group)
            for (int c = start; c < start + used && c <= b; ++c) s.set(c);
    }
    return s;
}

Result<CpuSet> CpuSet::parseMask(std::string_view text) {
    std::string_view t = trimmed(text);
    std::vector<uint32_t> words;  // most significant first
    while (true) {
        size_t comma = t.find(',');
        std::string_view w = t.substr(0, comma);
        uint32_t v = 0;
        auto [p, ec] = std::from_chars(w.data(), w.data() + w.size(), v, 16);
        if (w.empty() || ec != std::errc() || p != w.data() + w.size())
            return Error{"bad hex cpumask '" + escapeControl(std::string(text)) + "'"};
        words.push_back(v);
        if (comma == std::string_view::npos) break;
        t = t.substr(comma + 1);
    }
    if (words.size() * 32 > static_cast<size_t>(kMaxCpus)) return Error{"cpumask wider than the CPU limit"};
    CpuSet s;
    std::reverse(words.begin(), words.end());
    for (size_t i = 0; i < words.size(); ++i)
        for (int b = 0; b < 32; ++b)
            if (words[i] & (1u << b)) s.set(static_cast<int>(i * 32 + b));
    return s;
}

void CpuSet::set(int cpu) {
    size_t w = static_cast<size_t>(cpu) / 64;
    if (words_.size() <= w) words_.resize(w + 1, 0);
    words_[w] |= uint64_t{1} << (cpu % 64);
}

void CpuSet::reset(int cpu) {
    size_t w = static_cast<size_t>(cpu) / 64;
    if (w < words_.size()) {
        words_[w] &= ~(uint64_t{1} << (cpu % 64));
        trim();
    }
}

bool CpuSet::empty() const { return words_.empty(); }

int CpuSet::count() const {
    int n = 0;
    for (uint64_t w : words_) n += __builtin_popcountll(w);
    return n;
}

int CpuSet::first() const {
    for (size_t w = 0; w < words_.size(); ++w)
        if (words_[w]) return static_cast<int>(w * 64 + __builtin_ctzll(words_[w]));
    return -1;
}

int CpuSet::last() const {
    if (words_.empty()) return -1;
    size_t w = words_.size() - 1;
    return static_cast<int>(w * 64 + 63 - __builtin_clzll(words_[w]));
}

int CpuSet::next(int after) const {
    int start = after + 1;
    if (start < 0) start = 0;
    size_t w = static_cast<size_t>(start) / 64;
    if (w >= words_.size()) return -1;
    uint64_t bits = words_[w] & (~uint64_t{0} << (start % 64));
    while (true) {
        if (bits) return static_cast<int>(w * 64 + __builtin_ctzll(bits));
        if (++w >= words_.size()) return -1;
        bits = words_[w];
    }
}

std::vector<int> CpuSet::toVector() const {
    std::vector<int> v;
    v.reserve(static_cast<size_t>(count()));
    forEach([&](int c) { v.push_back(c); });
    return v;
}

std::vector<int> CpuSet::toVectorWrappedFrom(int start) const {
    std::vector<int> all = toVector();
    auto it = std::lower_bound(all.begin(), all.end(), start);
    std::rotate(all.begin(), it, all.end());
    return all;
}

bool CpuSet::isSubsetOf(const CpuSet& o) const {
    for (size_t w = 0; w < words_.size(); ++w) {
        uint64_t ow = w < o.words_.size() ? o.words_[w] : 0;
        if (words_[w] & ~ow) return false;
    }
    return true;
}

bool CpuSet::intersects(const CpuSet& o) const {
    size_t n = std::min(words_.size(), o.words_.size());
    for (size_t w = 0; w < n; ++w)
        if (words_[w] & o.words_[w]) return true;
    return false;
}

CpuSet& CpuSet::operator|=(const CpuSet& o) {
    if (words_.size() < o.words_.size()) words_.resize(o.words_.size(), 0);
    for (size_t w = 0; w < o.words_.size(); ++w) words_[w] |= o.words_[w];
    return *this;
}

CpuSet& CpuSet::operator&=(const CpuSet& o) {
    for (size_t w = 0; w < words_.size(); ++w) words_[w] &= w < o.words_.size() ? o.words_[w] : 0;
    trim();
    return *this;
}

CpuSet CpuSet::operator|(const CpuSet& o) const { CpuSet r = *this; r |= o; return r; }
CpuSet CpuSet::operator&(const CpuSet& o) const { CpuSet r = *this; r &= o; return r; }

CpuSet CpuSet::minus(const CpuSet& o) const {
    CpuSet r = *this;
    for (size_t w = 0; w < r.words_.size() && w < o.words_.size(); ++w) r.words_[w] &= ~o.words_[w];
    r.trim();
    return r;
}

bool CpuSet::operator==(const CpuSet& o) const { return words_ == o.words_; }
bool CpuSet::operator<(const CpuSet& o) const { return words_ < o.words_; }

void CpuSet::trim() {
    while (!words_.empty() && words_.back() == 0) words_.pop_back();
}

std::string CpuSet::toList() const {
    std::string out;
    int c = first();
    while (c >= 0) {
        int end = c;
        while (test(end + 1)) ++end;
        if (!out.empty()) out += ',';
        out += std::to_string(c);
        if (end > c) out += '-' + std::to_string(end);
        c = next(end);
    }
    return out;
}

}  // namespace schedscope
