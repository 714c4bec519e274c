#include "platform/waveform/vcd.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <sstream>
#include <stdexcept>

#include "models/core/input_file.h"

namespace angara {

std::uint64_t VcdSignal::value_at(std::uint64_t time) const {
  std::uint64_t v = 0;
  for (const auto& [t, value] : changes) {
    if (t > time) break;
    v = value;
  }
  return v;
}

const VcdSignal* Vcd::find(const std::string& name) const {
  for (const VcdSignal& s : signals) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

namespace {

// A strict reader of the VCD subset the tracer writes: anything else is an error saying where,
// never a silent end (a comparison of two half-read files would say "same").
class VcdReader {
 public:
  explicit VcdReader(const std::string& text) : m_text(text), m_in(text) {}

  Vcd read() {
    std::string word;
    while (m_in >> word) {
      if (word == "$enddefinitions") {
        expect_end(word);
        m_defined = true;
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
      } else if (word == "$dumpvars" || word == "$end") {
        // the initial values follow as ordinary changes
      } else if (word[0] == '$') {
        skip_section(word);
      } else if (!m_defined) {
        fail(fmt::format("'{}' before $enddefinitions", word));
      } else if (word[0] == '#') {
        m_time = number(word.substr(1), "time");
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

  // "$var wire 8 # occupancy [7:0] $end"
  void declare() {
    next("$var");  // the kind, "wire"
    const std::string width = next("$var"), id = next("$var"), name = next("$var");
    const std::uint64_t bits = number(width, "the width");
    if (bits < 1 || bits > 64)
      fail(fmt::format("width {} of {}: 1 to 64 bits are read", bits, name));
    if (name == "$end") fail("a $var without a name");
    skip_section("$var");  // a bit range, "[7:0]"
    std::string path;
    for (const auto& s : m_scopes) path += s + ".";
    if (!m_by_id.emplace(id, m_vcd.signals.size()).second) {
      fail(fmt::format("signal id '{}' declared twice", id));
    }
    m_vcd.signals.push_back({path + name, static_cast<int>(bits), {}});
  }

  // "b101 #" or "1#"
  void change(const std::string& word) {
    std::string value, id;
    if (word[0] == 'b') {
      value = word.substr(1);
      id = next("a value change");
    } else {
      value = word.substr(0, 1);
      id = word.substr(1);
    }
    const auto it = m_by_id.find(id);
    if (it == m_by_id.end()) fail(fmt::format("'{}' changes an undeclared signal '{}'", word, id));
    const VcdSignal& signal = m_vcd.signals[it->second];
    if (value.empty() || value.find_first_not_of("01") != std::string::npos) {
      fail(fmt::format("value '{}' of signal {} at {}: only 0 and 1 bits are read", value,
                       signal.name, m_time));
    }
    if (value.size() > static_cast<std::size_t>(signal.width)) {
      fail(fmt::format("value '{}' of signal {} at {}: wider than its {} bits", value, signal.name,
                       m_time, signal.width));
    }
    m_vcd.signals[it->second].changes.emplace_back(m_time, std::stoull(value, nullptr, 2));
  }

  const std::string& m_text;
  std::istringstream m_in;
  Vcd m_vcd;
  std::map<std::string, std::size_t> m_by_id;
  std::vector<std::string> m_scopes;
  std::uint64_t m_time = 0;
  bool m_defined = false;
};

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
    return fmt::format("{} first differs at {} ps ({:.1f} ns): expected {}, got {}", first->name,
                       first_t, static_cast<double>(first_t) / 1000.0, first->value_at(first_t),
                       a.value_at(first_t));
  }
  return std::nullopt;
}

// How a value reads in a diagram: packet ids in hex, VC stages by name.
std::string value_text(const VcdSignal& s, std::uint64_t v) {
  static constexpr const char* kStages[] = {"idle", "storing", "table", "analysis", "issuing"};
  if (s.name.size() > 6 && s.name.compare(s.name.size() - 6, 6, ".stage") == 0 && v < 5) {
    return kStages[v];
  }
  return s.width > 16 ? fmt::format("{:x}", v) : fmt::format("{}", v);
}

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
    std::vector<std::pair<std::uint64_t, std::uint64_t>> steps{{from, s->value_at(from)}};
    for (const auto& [t, v] : s->changes) {
      if (t > from && t < to) steps.emplace_back(t, v);
    }
    for (std::size_t i = 0; i < steps.size(); ++i) {
      const double x0 = x_of(steps[i].first),
                   x1 = x_of(i + 1 < steps.size() ? steps[i + 1].first : to);
      const std::uint64_t v = steps[i].second;
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
      const std::string full = value_text(*s, v);
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
