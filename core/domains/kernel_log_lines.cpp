#include "domains/kernel_log_lines.h"

namespace schedscope {

bool isKmsgPrefix(std::string_view p) {
    if (p.empty() || p.back() != ';') return false;
    int commas = 0;
    for (char c : p.substr(0, p.size() - 1)) {
        if (c == ',') ++commas;
        else if (commas < 3 && (c < '0' || c > '9')) return false;
    }
    return commas >= 3;
}

std::string_view withoutEscapes(std::string_view line, std::string& buffer) {
    if (line.find('\x1b') == std::string_view::npos) return line;
    buffer.clear();
    for (size_t i = 0; i < line.size(); ++i) {
        if (line[i] != '\x1b') {
            buffer += line[i];
            continue;
        }
        if (i + 1 < line.size() && line[i + 1] == '[') {
            i += 2;
            while (i < line.size() && !((line[i] >= 'A' && line[i] <= 'Z') || (line[i] >= 'a' && line[i] <= 'z'))) ++i;
        }
    }
    return buffer;
}

size_t messageStart(std::string_view line) {
    // a mail's quote marks ("> ", "> > ") before what the kernel printed: a groups line wrapped
    // by a mailer continues on a quoted line of its own
    if (line.starts_with('>')) {
        size_t quote = 0;
        while (quote < line.size() && (line[quote] == '>' || line[quote] == ' ')) ++quote;
        return quote + messageStart(line.substr(quote));
    }
    size_t at = 0;
    if (line.starts_with('<')) {
        if (const size_t close = line.find('>'); close != std::string_view::npos && close < 6) at = close + 1;
    } else if (const size_t semi = line.find(';'); semi != std::string_view::npos && semi < 48 && isKmsgPrefix(line.substr(0, semi + 1))) {
        at = semi + 1;
    }
    if (line.substr(at).starts_with('[')) {
        if (const size_t close = line.find("] ", at); close != std::string_view::npos) return close + 2;
    }
    if (at > 0) return at;
    if (const size_t kernel = line.find("kernel: "); kernel != std::string_view::npos) return kernel + 8;
    return 0;
}

bool isGroupsContinuation(std::string_view message) {
    while (!message.empty() && message.front() == ' ') message.remove_prefix(1);
    if (message.starts_with('}') || message.starts_with(',') || message.starts_with("mask=") || message.starts_with("cap="))
        return true;
    size_t digits = 0;
    while (digits < message.size() && message[digits] >= '0' && message[digits] <= '9') ++digits;
    return digits > 0 && message.substr(digits).starts_with(":{");
}

bool startsMessage(std::string_view line, size_t at) {
    return at == 0 || (at >= 2 && line[at - 1] == ' ' && (line[at - 2] == ']' || line[at - 2] == ':')) ||
           (at >= 2 && ((line[at - 1] == '>' && line[0] == '<') || (line[at - 1] == ';' && isKmsgPrefix(line.substr(0, at)))));
}

bool startsIndentedMessage(std::string_view line, size_t at) {
    size_t k = at;
    while (k > 0 && line[k - 1] == ' ') --k;
    if (k == 0) return true;
    if (k < at && (line[k - 1] == ']' || line[k - 1] == ':')) return true;
    return startsMessage(line, k) && line[k - 1] != ' ';
}

}  // namespace schedscope
