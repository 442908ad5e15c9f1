#pragma once
// Whether this test binary runs under AddressSanitizer (the asan preset). Tests that scale down
// there, or that cannot run with its allocator, ask this one place.

namespace schedscope::test {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kAddressSanitizer = true;
#else
inline constexpr bool kAddressSanitizer = false;
#endif
#else
inline constexpr bool kAddressSanitizer = false;
#endif

}  // namespace schedscope::test
