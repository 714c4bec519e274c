#include "models/timing/tracer.h"

#include <algorithm>
#include <ostream>

namespace angara {
namespace {

// VCD identifiers: printable characters from '!' (33) to '~' (126), base 94.
std::string identifier(int index) {
  std::string id;
  do {
    id += static_cast<char>('!' + index % 94);
    index /= 94;
  } while (index > 0);
  return id;
}

std::string binary(std::uint64_t value, int width) {
  if (width == 1) return value ? "1" : "0";
  std::string bits;
  for (int b = width - 1; b >= 0; --b) bits += ((value >> b) & 1U) ? '1' : '0';
  const auto first = bits.find('1');
  return "b" + (first == std::string::npos ? std::string("0") : bits.substr(first)) + " ";
}

}  // namespace

Tracer::Signal Tracer::declare(const std::string& scope, const std::string& name, int width) {
  m_signals.push_back({scope, name, width});
  return static_cast<Signal>(m_signals.size() - 1);
}

void Tracer::change(Signal signal, Cycle at, std::uint64_t value) {
  m_changes.push_back({at, signal, m_changes.size(), static_cast<std::int64_t>(value), false});
}

void Tracer::add(Signal signal, Cycle at, std::int64_t delta) {
  m_changes.push_back({at, signal, m_changes.size(), delta, true});
}

void Tracer::write_vcd(std::ostream& out, std::uint64_t period_ps) const {
  out << "$version angara-tlm $end\n$timescale 1ps $end\n";
  // The scope tree, "a.b" nesting b in a, each level in order of first declaration.
  struct Scope {
    std::string name;
    std::vector<int> signals;
    std::vector<Scope> children;
    Scope& child(const std::string& n) {
      for (Scope& c : children) {
        if (c.name == n) return c;
      }
      children.push_back({n, {}, {}});
      return children.back();
    }
  };
  Scope root;
  for (int s = 0; s < static_cast<int>(m_signals.size()); ++s) {
    Scope* at = &root;
    const std::string& path = m_signals[s].scope;
    for (std::size_t start = 0;;) {
      const auto dot = path.find('.', start);
      at = &at->child(path.substr(start, dot - start));
      if (dot == std::string::npos) break;
      start = dot + 1;
    }
    at->signals.push_back(s);
  }
  const auto emit = [&](const Scope& scope, const auto& self) -> void {
    out << "$scope module " << scope.name << " $end\n";
    for (int s : scope.signals) {
      // A vector with its bit range, so that a viewer names it as a save file does: name[7:0].
      const int width = m_signals[s].width;
      out << "$var wire " << width << ' ' << identifier(s) << ' ' << m_signals[s].name;
      if (width > 1) out << " [" << width - 1 << ":0]";
      out << " $end\n";
    }
    for (const Scope& c : scope.children) self(c, self);
    out << "$upscope $end\n";
  };
  for (const Scope& top : root.children) emit(top, emit);
  out << "$enddefinitions $end\n";

  std::vector<Change> changes = m_changes;
  std::sort(changes.begin(), changes.end(), [](const Change& a, const Change& b) {
    return a.at != b.at ? a.at < b.at : a.order < b.order;
  });
  std::vector<std::int64_t> value(m_signals.size(), 0), written(m_signals.size(), 0);
  out << "#0\n$dumpvars\n";
  for (int s = 0; s < static_cast<int>(m_signals.size()); ++s) {
    out << binary(0, m_signals[s].width) << identifier(s) << '\n';
  }
  out << "$end\n";
  for (std::size_t i = 0; i < changes.size();) {
    const Cycle at = changes[i].at;
    std::vector<int> touched;
    for (; i < changes.size() && changes[i].at == at; ++i) {
      const Change& c = changes[i];
      value[c.signal] = c.delta ? value[c.signal] + c.value : c.value;
      touched.push_back(c.signal);
    }
    std::sort(touched.begin(), touched.end());
    touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
    bool stamped = false;
    for (int s : touched) {
      if (value[s] == written[s]) continue;
      if (!stamped) out << '#' << at * period_ps << '\n';
      stamped = true;
      written[s] = value[s];
      out << binary(static_cast<std::uint64_t>(value[s]), m_signals[s].width) << identifier(s)
          << '\n';
    }
  }
}

}  // namespace angara
