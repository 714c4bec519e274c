#include "platform/waveform/vcd.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <iterator>
#include <map>
#include <sstream>
#include <stdexcept>

#include "models/core/input_file.h"

namespace angara {

VcdValue VcdSignal::value_at(std::uint64_t time_fs) const {
  const auto after = std::upper_bound(changes.begin(), changes.end(), time_fs,
                                      [](std::uint64_t t, const auto& c) { return t < c.first; });
  return after == changes.begin() ? VcdValue(static_cast<std::size_t>(width), 'x')
                                  : std::prev(after)->second;
}

std::uint64_t VcdSignal::vcd_number(const VcdValue& value) {
  std::uint64_t n = 0;
  for (const char bit : value) n = n << 1 | (bit == '1' ? 1 : 0);
  return n;
}

const VcdSignal* Vcd::find(const std::string& name) const {
  for (const VcdSignal& s : signals) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

namespace {

// `value` made `width` bits wide as VCD extends a shorter one: to the left with 0, or with its
// leading x or z.
VcdValue extended(const VcdValue& value, std::size_t width) {
  const char fill = value[0] == 'x' || value[0] == 'z' ? value[0] : '0';
  return VcdValue(width - std::min(width, value.size()), fill) + value;
}

}  // namespace

std::string vcd_value_text(const VcdValue& value) {
  const bool two_state = value.find_first_of("xz") == std::string::npos;
  if (two_state && value.size() <= 64) return fmt::format("{}", VcdSignal::vcd_number(value));
  if (value.size() <= 16) return fmt::format("{}'b{}", value.size(), value);
  const VcdValue bits = extended(value, (value.size() + 3) / 4 * 4);  // whole hex digits
  std::string hex;
  for (std::size_t i = 0; i < bits.size(); i += 4) {
    const std::string nibble = bits.substr(i, 4);
    const auto all = [&](char c) { return nibble.find_first_not_of(c) == std::string::npos; };
    if (all('x') || all('z')) {
      hex += nibble[0];
    } else if (nibble.find('x') != std::string::npos) {
      hex += 'X';
    } else if (nibble.find('z') != std::string::npos) {
      hex += 'Z';
    } else {
      hex += fmt::format("{:x}", VcdSignal::vcd_number(nibble));
    }
  }
  return fmt::format("{}'h{}", value.size(), hex);
}

namespace {

// The femtoseconds in one unit of a $timescale ("1ps", "10 ns").
std::optional<std::uint64_t> timescale_fs(const std::string& text) {
  static const std::map<std::string, std::uint64_t> kUnits = {{"s", 1'000'000'000'000'000},
                                                              {"ms", 1'000'000'000'000},
                                                              {"us", 1'000'000'000},
                                                              {"ns", 1'000'000},
                                                              {"ps", 1'000},
                                                              {"fs", 1}};
  for (const std::uint64_t magnitude : {100, 10, 1}) {
    const std::string digits = std::to_string(magnitude);
    if (text.rfind(digits, 0) != 0) continue;
    const auto unit = kUnits.find(text.substr(digits.size()));
    if (unit == kUnits.end()) return std::nullopt;
    return magnitude * unit->second;
  }
  return std::nullopt;
}

// A reader of the VCD files the model and RTL simulators write: anything it does not take is an
// error saying where, never a silent end (a comparison of two half-read files would say "same").
class VcdReader {
 public:
  explicit VcdReader(const std::string& text) : m_text(text), m_in(text) {}

  Vcd read() {
    std::string word;
    while (m_in >> word) {
      if (word == "$enddefinitions") {
        expect_end(word);
        m_defined = true;
      } else if (word == "$timescale") {
        timescale();
      } else if (word == "$scope") {
        next("$scope");  // the kind, "module"
        const std::string name = next("$scope");
        expect_end("$scope");
        m_scopes.push_back(name);
      } else if (word == "$upscope") {
        expect_end(word);
        if (m_scopes.empty()) fail("$upscope outside any $scope");
        m_scopes.pop_back();
      } else if (word == "$var") {
        declare();
      } else if (word == "$dumpvars" || word == "$dumpall" || word == "$dumpon" ||
                 word == "$dumpoff" || word == "$end") {
        // the values they hold follow as ordinary changes
      } else if (word[0] == '$') {
        skip_section(word);
      } else if (!m_defined) {
        fail(fmt::format("'{}' before $enddefinitions", word));
      } else if (word[0] == '#') {
        at_time(number(word.substr(1), "time"));
      } else {
        change(word);
      }
    }
    if (!m_defined) fail("no $enddefinitions: not a VCD file, or cut short");
    if (m_vcd.signals.empty()) fail("it declares no signals");
    return std::move(m_vcd);
  }

 private:
  [[noreturn]] void fail(const std::string& what) {
    const auto pos = m_in.tellg();
    const std::size_t at = pos < 0 ? m_text.size() : static_cast<std::size_t>(pos);
    const auto line = 1 + std::count(m_text.begin(), m_text.begin() + static_cast<long>(at), '\n');
    throw std::runtime_error(fmt::format("VCD, line {}: {}", line, what));
  }

  std::string next(const std::string& section) {
    std::string word;
    if (!(m_in >> word)) fail(fmt::format("the file ends inside {}", section));
    return word;
  }

  void expect_end(const std::string& section) {
    if (const std::string word = next(section); word != "$end") {
      fail(fmt::format("'{}' where {} ends with $end", word, section));
    }
  }

  void skip_section(const std::string& section) {
    while (next(section) != "$end") {
    }
  }

  std::uint64_t number(const std::string& digits, const char* what) {
    std::uint64_t value = 0;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (digits.empty() || error != std::errc{} || end != digits.data() + digits.size()) {
      fail(fmt::format("{} '{}' is not a whole number", what, digits));
    }
    return value;
  }

  // "$timescale 1ps $end" or "$timescale 10 ns $end"
  void timescale() {
    if (m_defined) fail("$timescale after $enddefinitions");
    std::string text;
    for (std::string word = next("$timescale"); word != "$end"; word = next("$timescale")) {
      text += word;
    }
    const auto fs = timescale_fs(text);
    if (!fs) {
      fail(fmt::format("$timescale '{}': 1, 10 or 100 of s, ms, us, ns, ps or fs", text));
    }
    m_unit_fs = *fs;
  }

  void at_time(std::uint64_t units) {
    std::uint64_t fs = 0;
    if (__builtin_mul_overflow(units, m_unit_fs, &fs)) {
      fail(fmt::format("time #{} in units of {} fs: beyond 2^64 fs", units, m_unit_fs));
    }
    if (fs < m_time_fs) fail(fmt::format("time #{} goes back", units));
    m_time_fs = fs;
  }

  // "$var wire 8 # occupancy [7:0] $end"; a single bit of a vector, "bus [3]", is named so.
  void declare() {
    next("$var");  // the kind, "wire"
    const std::string width = next("$var"), id = next("$var");
    std::string name = next("$var");
    const std::uint64_t bits = number(width, "the width");
    if (bits < 1) fail(fmt::format("width 0 of {}", name));
    if (name == "$end") fail("a $var without a name");
    std::vector<std::string> rest;
    for (std::string word = next("$var"); word != "$end"; word = next("$var")) {
      rest.push_back(word);
    }
    if (rest.size() == 1 && rest[0].find(':') == std::string::npos) name += rest[0];
    std::string path;
    for (const auto& s : m_scopes) path += s + ".";
    // RTL simulators give a net every name it has in the hierarchy, under one id.
    m_by_id[id].push_back(m_vcd.signals.size());
    m_vcd.signals.push_back({path + name, static_cast<int>(bits), {}});
  }

  // "b10x1 #", "1#", "z#"
  void change(const std::string& word) {
    std::string value, id;
    if (word[0] == 'b' || word[0] == 'B') {
      value = word.substr(1);
      id = next("a value change");
    } else if (word[0] == 'r' || word[0] == 'R' || word[0] == 's' || word[0] == 'S') {
      fail(fmt::format("'{}': real and string values are not read", word));
    } else {
      value = word.substr(0, 1);
      id = word.substr(1);
    }
    const auto it = m_by_id.find(id);
    if (it == m_by_id.end()) fail(fmt::format("'{}' changes an undeclared signal '{}'", word, id));
    std::transform(value.begin(), value.end(), value.begin(),
                   [](char c) { return static_cast<char>(std::tolower(c)); });
    for (const std::size_t index : it->second) {
      const VcdSignal& signal = m_vcd.signals[index];
      if (value.empty() || value.find_first_not_of("01xz") != std::string::npos) {
        fail(fmt::format("value '{}' of signal {} at {} fs: bits are 0, 1, x or z", value,
                         signal.name, m_time_fs));
      }
      const auto width = static_cast<std::size_t>(signal.width);
      if (value.size() > width) {
        fail(fmt::format("value '{}' of signal {} at {} fs: wider than its {} bits", value,
                         signal.name, m_time_fs, signal.width));
      }
      record(m_vcd.signals[index], extended(value, width));
    }
  }

  // At one time only the last value counts, and a value written again is no change.
  void record(VcdSignal& signal, VcdValue value) {
    auto& changes = signal.changes;
    if (!changes.empty() && changes.back().first == m_time_fs) changes.pop_back();
    if (!changes.empty() && changes.back().second == value) return;
    changes.emplace_back(m_time_fs, std::move(value));
  }

  const std::string& m_text;
  std::istringstream m_in;
  Vcd m_vcd;
  std::map<std::string, std::vector<std::size_t>> m_by_id;
  std::vector<std::string> m_scopes;
  std::uint64_t m_unit_fs = 1000;  // without a $timescale: ps, the model's own unit
  std::uint64_t m_time_fs = 0;
  bool m_defined = false;
};

// "216000 ps (216.0 ns)"; to the fs where a time is not whole ps.
std::string time_text(std::uint64_t fs) {
  if (fs % 1000 == 0) {
    return fmt::format("{} ps ({:.1f} ns)", fs / 1000, static_cast<double>(fs) / 1e6);
  }
  return fmt::format("{} fs ({:.6f} ns)", fs, static_cast<double>(fs) / 1e6);
}

}  // namespace

Vcd parse_vcd(const std::string& text) {
  return VcdReader(text).read();
}

Vcd read_vcd(const std::string& path) {
  return parse_vcd(read_input_file(path, "", "VCD file"));
}

std::optional<std::string> compare_vcd(const Vcd& expected, const Vcd& actual) {
  std::vector<std::string> missing, extra;
  for (const VcdSignal& e : expected.signals) {
    if (!actual.find(e.name)) missing.push_back(e.name);
  }
  for (const VcdSignal& a : actual.signals) {
    if (!expected.find(a.name)) extra.push_back(a.name);
  }
  if (!missing.empty() || !extra.empty()) {
    return fmt::format("signals differ: {} missing from the new waveform ({}), {} new ({})",
                       missing.size(), missing.empty() ? "" : missing.front(), extra.size(),
                       extra.empty() ? "" : extra.front());
  }
  // The signal that differs first in time (declaration order among equals).
  const VcdSignal* first = nullptr;
  std::uint64_t first_t = 0;
  for (const VcdSignal& e : expected.signals) {
    const VcdSignal& a = *actual.find(e.name);
    if (e.width != a.width) {
      return fmt::format("{} is {} bits wide in the expected waveform, {} in the new one", e.name,
                         e.width, a.width);
    }
    if (e.changes == a.changes) continue;
    std::size_t i = 0;
    while (i < e.changes.size() && i < a.changes.size() && e.changes[i] == a.changes[i]) ++i;
    std::uint64_t t = i < e.changes.size() ? e.changes[i].first : a.changes[i].first;
    if (i < e.changes.size() && i < a.changes.size()) {
      t = std::min(e.changes[i].first, a.changes[i].first);
    }
    if (!first || t < first_t) first = &e, first_t = t;
  }
  if (first) {
    const VcdSignal& a = *actual.find(first->name);
    return fmt::format("{} first differs at {}: expected {}, got {}", first->name,
                       time_text(first_t), vcd_value_text(first->value_at(first_t)),
                       vcd_value_text(a.value_at(first_t)));
  }
  return std::nullopt;
}

namespace {

// How a value reads in a diagram: packet ids in hex, VC stages by name.
std::string diagram_text(const VcdSignal& s, const VcdValue& value) {
  static constexpr const char* kStages[] = {"idle", "storing", "table", "analysis", "issuing"};
  if (value.find_first_of("xz") != std::string::npos || s.width > 64) {
    return vcd_value_text(value);
  }
  const std::uint64_t v = VcdSignal::vcd_number(value);
  if (s.name.size() > 6 && s.name.compare(s.name.size() - 6, 6, ".stage") == 0 && v < 5) {
    return kStages[v];
  }
  return s.width > 16 ? fmt::format("{:x}", v) : fmt::format("{}", v);
}

}  // namespace

std::string draw_timing_svg(const Vcd& vcd, const std::vector<std::string>& names,
                            std::uint64_t from, std::uint64_t to, std::uint64_t period,
                            const std::string& title) {
  const int label_w = 230, row_h = 34, top = 56, cycle_w = 28;
  const auto cycles = static_cast<int>((to - from + period - 1) / period);
  const int width = label_w + cycles * cycle_w + 20;
  const int height = top + static_cast<int>(names.size()) * row_h + 30;
  auto x_of = [&](std::uint64_t t) {
    return label_w + static_cast<double>(t - from) / static_cast<double>(period) * cycle_w;
  };
  std::string svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
      "font-family=\"monospace\" font-size=\"12\">\n"
      "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      "<text x=\"10\" y=\"22\" font-size=\"15\" font-weight=\"bold\">{}</text>\n",
      width, height, title);
  // The cycle grid, numbered every 5 cycles from the window's first cycle.
  const std::uint64_t first_cycle = from / period;
  for (int c = 0; c <= cycles; ++c) {
    const double x = label_w + c * cycle_w;
    svg += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#ddd\"/>\n", x,
                       top - 8, x, height - 24);
    if (c % 5 == 0) {
      svg += fmt::format("<text x=\"{}\" y=\"{}\" fill=\"#666\" text-anchor=\"middle\">{}</text>\n",
                         x, top - 14, first_cycle + c);
    }
  }
  svg += fmt::format("<text x=\"{}\" y=\"{}\" fill=\"#666\">cycle</text>\n", 10, top - 14);
  for (std::size_t r = 0; r < names.size(); ++r) {
    const VcdSignal* s = vcd.find(names[r]);
    if (!s) throw std::runtime_error("no signal " + names[r] + " in the waveform");
    const double y = top + static_cast<double>(r) * row_h, hi = y + 6, lo = y + row_h - 10;
    svg += fmt::format("<text x=\"10\" y=\"{}\">{}</text>\n", (hi + lo) / 2 + 4,
                       names[r].substr(names[r].find('.') + 1));
    // The value over the window: its changes inside, plus the value it enters with.
    std::vector<std::pair<std::uint64_t, VcdValue>> steps{{from, s->value_at(from)}};
    for (const auto& [t, v] : s->changes) {
      if (t > from && t < to) steps.emplace_back(t, v);
    }
    for (std::size_t i = 0; i < steps.size(); ++i) {
      const double x0 = x_of(steps[i].first),
                   x1 = x_of(i + 1 < steps.size() ? steps[i + 1].first : to);
      const std::uint64_t v = VcdSignal::vcd_number(steps[i].second);
      if (s->width == 1) {
        const double yv = v ? hi : lo;
        svg += fmt::format(
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#1565c0\" "
            "stroke-width=\"2\"/>\n",
            x0, yv, x1, yv);
        if (i > 0) {
          svg += fmt::format(
              "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#1565c0\" "
              "stroke-width=\"2\"/>\n",
              x0, hi, x0, lo);
        }
        continue;
      }
      // A bus: a hexagon per value, the value written inside (hex for packet ids).
      const double m = std::min(4.0, (x1 - x0) / 2), mid = (hi + lo) / 2;
      svg += fmt::format(
          "<polygon points=\"{},{} {},{} {},{} {},{} {},{} {},{}\" fill=\"{}\" "
          "stroke=\"#2e7d32\" stroke-width=\"1.5\"/>\n",
          x0, mid, x0 + m, hi, x1 - m, hi, x1, mid, x1 - m, lo, x0 + m, lo, v ? "#e8f5e9" : "none");
      // The value, shortened to its first letters where the span is narrow (stage names).
      const std::string full = diagram_text(*s, steps[i].second);
      for (std::size_t len : {full.size(), std::size_t{3}, std::size_t{1}}) {
        const std::string text = full.substr(0, len);
        if (x1 - x0 > 7.5 * static_cast<double>(text.size()) + 4) {
          svg += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
                             (x0 + x1) / 2, mid + 4, text);
          break;
        }
      }
    }
  }
  return svg + "</svg>\n";
}

}  // namespace angara
