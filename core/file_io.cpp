// core/file_io.cpp — checked reads (regular files, size caps, nesting pre-scans) and checked writes
// (temporary name + rename, checked standard output).
#include "core/file_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <vector>

#include "core/error.h"

namespace rl {
namespace {

std::string mib(uint64_t bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f MiB", double(bytes) / double(1u << 20));
    return buf;
}

std::string errno_text(int e) { return e ? std::string(": ") + std::strerror(e) : std::string(); }

// Skips a TOML or JSON string starting at text[i] (the opening quote); returns the index after it.
size_t skip_string(std::string_view text, size_t i, bool toml) {
    const char q = text[i];
    const bool triple = toml && text.substr(i, 3) == std::string(3, q);
    size_t j = i + (triple ? 3 : 1);
    const bool escapes = q == '"';
    while (j < text.size()) {
        if (escapes && text[j] == '\\') {
            j += 2;
            continue;
        }
        if (triple ? text.substr(j, 3) == std::string(3, q) : text[j] == q) {
            j += triple ? 3 : 1;
            while (triple && j < text.size() && text[j] == q) ++j;  // """a"""" ends with extra quotes in the value
            return j;
        }
        if (!triple && text[j] == '\n') return j;  // unterminated: the parser reports it
        ++j;
    }
    return j;
}

}  // namespace

void check_readable_file(const std::string& path, const std::string& what, uint64_t max_bytes) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) throw Error(one_line(path) + ": cannot open the " + what + errno_text(errno));
    if (S_ISDIR(st.st_mode)) throw Error(one_line(path) + ": is a folder; expected a " + what + " file");
    if (!S_ISREG(st.st_mode))
        throw Error(one_line(path) + ": is not a regular file (a device, pipe or socket); expected a " + what + " file");
    if (uint64_t(st.st_size) > max_bytes)
        throw Error(one_line(path) + ": " + mib(uint64_t(st.st_size)) + " is over the " + mib(max_bytes) + " limit for a " +
                    what + " file (docs/limits.md)");
}

std::string read_text_file(const std::string& path, const std::string& what, uint64_t max_bytes) {
    check_readable_file(path, what, max_bytes);
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(one_line(path) + ": cannot open the " + what + errno_text(errno));
    std::string text;
    std::vector<char> buf(1 << 16);
    while (in) {
        in.read(buf.data(), std::streamsize(buf.size()));
        text.append(buf.data(), size_t(in.gcount()));
        // The file may grow after the check: never read past the cap.
        if (text.size() > max_bytes)
            throw Error(one_line(path) + ": over the " + mib(max_bytes) + " limit for a " + what + " file (docs/limits.md)");
    }
    if (in.bad()) throw Error(one_line(path) + ": reading the " + what + " failed" + errno_text(errno));
    return text;
}

int json_nesting_depth(std::string_view text, int limit) {
    int depth = 0, deepest = 0;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '"') {
            i = skip_string(text, i, false) - 1;
        } else if (c == '[' || c == '{') {
            deepest = std::max(deepest, ++depth);
            if (deepest > limit) return deepest;
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return deepest;
}

int toml_nesting_depth(std::string_view text, int limit) {
    std::vector<char> open;   // inline [ and { now open
    bool key_position = true;  // before the '=' of a key/value (dots there nest tables)
    int dots = 0, deepest = 0;
    auto note = [&](int d) { deepest = std::max(deepest, d); };
    for (size_t i = 0; i < text.size() && deepest <= limit; ++i) {
        const char c = text[i];
        if (c == '#') {
            while (i + 1 < text.size() && text[i + 1] != '\n') ++i;
        } else if (c == '\n') {
            key_position = open.empty();
            dots = 0;
        } else if (c == '"' || c == '\'') {
            i = skip_string(text, i, true) - 1;
        } else if (key_position && open.empty() && c == '[') {
            // A table header [a.b.c] or [[a.b]]: its depth is its number of parts.
            int parts = 1;
            size_t j = i + 1;
            while (j < text.size() && text[j] != '\n' && text[j] != ']') {
                if (text[j] == '"' || text[j] == '\'') {
                    j = skip_string(text, j, true);
                    continue;
                }
                parts += text[j] == '.';
                ++j;
            }
            note(parts);
            i = j;
            while (i < text.size() && text[i] == ']') ++i;
            --i;
            key_position = false;
        } else if (key_position && c == '.') {
            note(int(open.size()) + ++dots + 1);
        } else if (key_position && c == '=') {
            key_position = false;
            dots = 0;
        } else if (!key_position && (c == '[' || c == '{')) {
            open.push_back(c);
            note(int(open.size()) + 1);
            if (c == '{') key_position = true;
        } else if ((c == ']' || c == '}') && !open.empty()) {
            open.pop_back();
            key_position = false;
        } else if (c == ',' && !open.empty() && open.back() == '{') {
            key_position = true;
            dots = 0;
        }
    }
    return deepest;
}

void check_json_nesting(std::string_view text, const std::string& what, int limit) {
    if (json_nesting_depth(text, limit) > limit)
        throw Error(what + ": nested deeper than " + std::to_string(limit) +
                    " levels of arrays and objects (docs/limits.md); the format needs at most 4");
}

void check_toml_nesting(std::string_view text, const std::string& what, int limit) {
    if (toml_nesting_depth(text, limit) > limit)
        throw Error(what + ": nested deeper than " + std::to_string(limit) +
                    " levels of tables, arrays and dotted keys (docs/limits.md); lessons need at most 3");
}

void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& write) {
    const std::string shown = one_line(path);
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) throw Error(shown + ": is a folder; give a file name");
    const bool special_dir = path.rfind("/dev/", 0) == 0 || path.rfind("/proc/", 0) == 0;  // /dev/stdout and kin
    if (special_dir || (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))) {
        // A device, pipe or /dev/stdout cannot be replaced by a rename: write in place and check every byte.
        std::ofstream out(path, std::ios::binary);
        if (!out) throw Error(shown + ": cannot open for writing" + errno_text(errno));
        write(out);
        out.flush();
        const int e = errno;
        if (!out) throw Error("writing " + shown + " failed" + errno_text(e));
        out.close();
        if (!out) throw Error("writing " + shown + " failed" + errno_text(errno));
        return;
    }
    std::string tmp = path + ".tmp-XXXXXX";
    std::vector<char> name(tmp.begin(), tmp.end());
    name.push_back('\0');
    const int fd = ::mkstemp(name.data());
    if (fd < 0) throw Error(shown + ": cannot create a file in its folder" + errno_text(errno));
    tmp = name.data();
    const mode_t mask = ::umask(0);
    ::umask(mask);
    ::fchmod(fd, 0666 & ~mask);  // what a plain open would have given (mkstemp makes 0600)
    auto fail = [&](const std::string& why, int e) {
        ::unlink(tmp.c_str());
        throw Error("writing " + shown + " failed" + (why.empty() ? "" : ": " + why) + errno_text(e) +
                    "; nothing was written there");
    };
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) {
            ::close(fd);
            fail("", errno);
        }
        try {
            write(out);
        } catch (...) {
            ::close(fd);
            ::unlink(tmp.c_str());
            throw;
        }
        out.flush();
        if (!out) {
            const int e = errno;
            ::close(fd);
            fail("", e);
        }
        out.close();
        if (!out) {
            const int e = errno;
            ::close(fd);
            fail("", e);
        }
    }
    // Delayed allocation can report a full disk only here.
    if (::fsync(fd) != 0) {
        const int e = errno;
        ::close(fd);
        fail("", e);
    }
    ::close(fd);
    if (::rename(tmp.c_str(), path.c_str()) != 0) fail("", errno);
}

void write_file_atomically(const std::string& path, std::string_view bytes) {
    write_file_atomically(path, [&](std::ostream& out) { out.write(bytes.data(), std::streamsize(bytes.size())); });
}

void guard_closed_stdout() {
    if (::fcntl(STDOUT_FILENO, F_GETFD) != -1 || errno != EBADF) return;
    const int fd = ::open("/dev/null", O_RDONLY);
    if (fd >= 0 && fd != STDOUT_FILENO) {
        ::dup2(fd, STDOUT_FILENO);
        ::close(fd);
    }
}

void flush_stdout_checked() {
    errno = 0;
    std::cout.flush();
    const bool cpp_ok = bool(std::cout);
    int e = errno;
    const bool c_ok = std::fflush(stdout) == 0 && !std::ferror(stdout);
    if (!c_ok && !e) e = errno;
    if (!cpp_ok || !c_ok) {
        std::cout.clear();
        throw Error("writing standard output failed" + errno_text(e == EBADF ? 0 : e) +
                    (e == EBADF ? ": it is closed" : "") + "; the output is incomplete");
    }
}

std::string one_line(std::string_view text, size_t max_chars) {
    std::string out;
    for (unsigned char c : text) {
        if (out.size() >= max_chars) {
            out += "...";
            break;
        }
        if (c == '\n') out += "\\n";
        else if (c == '\r') out += "\\r";
        else if (c == '\t') out += "\\t";
        else if (c < 0x20 || c == 0x7f) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", c);
            out += buf;
        } else out += char(c);
    }
    return out;
}

}  // namespace rl
