#pragma once
// CpuSet: a growable bitmask of logical CPU ids, the kernel's struct cpumask.
// Parses and prints kernel cpulists ("0-3,8,10-11") and hex masks ("00000000,000000ff").
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "util/result.h"

namespace schedscope {

class CpuSet {
public:
    CpuSet() = default;
    static CpuSet single(int cpu);
    static CpuSet range(int first, int last);  // inclusive

    // Kernel cpulist syntax (bitmap_parselist(): "0-3,8", strides "0-15:2/4"; not "N", which
    // needs the machine); whitespace/newline tolerated; "" is the empty set.
    static Result<CpuSet> parseList(std::string_view text);
    // Kernel hex mask syntax: comma-separated 32-bit words, most significant first.
    static Result<CpuSet> parseMask(std::string_view text);

    void set(int cpu);
    void reset(int cpu);
    bool test(int cpu) const {
        // a negative cpu wraps to a huge index and fails the bounds test: one branch, not two
        const size_t u = static_cast<size_t>(cpu);
        return u / 64 < words_.size() && (words_[u / 64] >> (u % 64) & 1);
    }
    bool empty() const;
    int count() const;
    int first() const;  // -1 when empty
    int last() const;   // -1 when empty
    int next(int after) const;  // first cpu > after, or -1
    // The first cpu >= start in the set, wrapping around: for_each_cpu_wrap's starting point.
    std::vector<int> toVectorWrappedFrom(int start) const;
    std::vector<int> toVector() const;

    bool isSubsetOf(const CpuSet& other) const;
    bool intersects(const CpuSet& other) const;
    CpuSet operator|(const CpuSet& other) const;
    CpuSet operator&(const CpuSet& other) const;
    CpuSet& operator|=(const CpuSet& other);
    CpuSet& operator&=(const CpuSet& other);
    CpuSet minus(const CpuSet& other) const;
    bool operator==(const CpuSet& other) const;
    bool operator<(const CpuSet& other) const;  // for use as a map key; not a subset order

    std::string toList() const;  // "0-3,8"

    template <typename F>
    void forEach(F&& f) const {
        for (size_t w = 0; w < words_.size(); ++w) {
            uint64_t bits = words_[w];
            while (bits) {
                int b = __builtin_ctzll(bits);
                f(static_cast<int>(w * 64 + b));
                bits &= bits - 1;
            }
        }
    }

private:
    void trim();
    std::vector<uint64_t> words_;  // trailing zero words trimmed, so == is structural
};

// The largest CPU id any loader accepts; the kernel's NR_CPUS tops out at 8192.
inline constexpr int kMaxCpus = 8192;

}  // namespace schedscope
