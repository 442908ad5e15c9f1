#pragma once
// How the lines of a saved kernel log look around their message: the prefixes dmesg, the
// journal, `dmesg -r`, /dev/kmsg and terminal colour put before it, and the pieces of a line
// printk cut into several records. What the sched_verbose reader needs to find its messages
// in any capture.
#include <cstddef>
#include <string>
#include <string_view>

namespace schedscope {

// /dev/kmsg's record prefix: "level,sequence,timestamp,flags;"
bool isKmsgPrefix(std::string_view prefix);
// The line without terminal colour codes (`dmesg --color=always`, a console capture): an ESC
// '[' sequence up to its final letter. `buffer` holds the result when there was one.
std::string_view withoutEscapes(std::string_view line, std::string& buffer);
// Where the message starts after a dmesg, journal or raw record prefix (0 without one).
size_t messageStart(std::string_view line);
// The message starts at `at`: the line's start, or after a dmesg timestamp ("] ") or a journal
// prefix ("kernel: "), not within another subsystem's message ("ACPI BIOS ERROR: ..."). The raw
// record prefixes of `dmesg -r` ("<7>") and of /dev/kmsg ("7,1234,5678,-;") end right before it.
bool startsMessage(std::string_view line, size_t at);
// The same for the indented domain and groups lines: only spaces between the prefix and `at`.
bool startsIndentedMessage(std::string_view line, size_t at);
// A piece of a groups line that printk put on a line of its own: sched_domain_debug_one()
// prints the line a group's part at a time (" 5:{ span=10-11", " mask=..", " cap=..", " }",
// ","), and printk starts a new record when one would pass its line limit (about 1 KiB: a
// domain of some 35 groups or more), or when an ERROR came in the middle of a group.
bool isGroupsContinuation(std::string_view message);

}  // namespace schedscope
