#pragma once
// Value changes of named signals at router cycles, recorded in any order (the AT model computes
// future cycles when it decides), written as a VCD file sorted by time. Deterministic by
// construction: no date in the header, signals in declaration order, simultaneous changes of one
// signal resolved by recording order. A model with tracing off holds no Tracer and pays one
// null-pointer test per trace point.

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "models/core/ids.h"

namespace angara {

class Tracer {
 public:
  using Signal = int;

  // A signal `name` of `width` bits in the scope `scope` ("router_3.vcup_+X"), initially 0.
  Signal declare(const std::string& scope, const std::string& name, int width);
  void change(Signal signal, Cycle at, std::uint64_t value);
  // Adds `delta` to the signal's value at `at` (counters: occupancy, credits); deltas recorded
  // out of time order are applied in time order when written.
  void add(Signal signal, Cycle at, std::int64_t delta);

  // The VCD text; `period_ps` converts cycles to the file's 1 ps timescale.
  void write_vcd(std::ostream& out, std::uint64_t period_ps) const;
  std::size_t changes() const { return m_changes.size(); }

 private:
  struct Declaration {
    std::string scope, name;
    int width;
  };
  struct Change {
    Cycle at;
    Signal signal;
    std::uint64_t order;
    std::int64_t value;
    bool delta;
  };
  std::vector<Declaration> m_signals;
  std::vector<Change> m_changes;
};

}  // namespace angara
