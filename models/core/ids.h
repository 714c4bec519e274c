#pragma once
// Basic identifiers shared by every layer: node ids, cycles, torus directions and ports.

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

namespace angara {

using NodeId = std::uint32_t;  // linear node index, X varies fastest
using Cycle = std::uint64_t;   // router clock cycles since simulation start
using PortId = std::uint8_t;   // router port: link (torus: direction), local or PEGroup
using VcId = std::uint8_t;     // virtual channel index within a port

inline constexpr Cycle kNever = std::numeric_limits<Cycle>::max();  // "no such cycle"

inline constexpr int kMaxDims = 4;
inline constexpr char kDimNames[kMaxDims] = {'X', 'Y', 'Z', 'W'};
// A router's link ports: a 4D torus's 8 directions, a fat tree's switch 2k (k <= 8).
inline constexpr int kMaxLinkPorts = 16;
inline constexpr int kMaxVcs = 8;  // point-to-point VCs per port (3 header bits)

// One direction of motion on the torus: +X is index 0, -X 1, +Y 2, ... -W 7.
struct Direction {
  int dim = 0;
  bool negative = false;

  constexpr int index() const { return 2 * dim + (negative ? 1 : 0); }
  constexpr Direction opposite() const { return {dim, !negative}; }
  static constexpr Direction from_index(int i) { return {i / 2, (i % 2) != 0}; }
  std::string name() const { return std::string(1, negative ? '-' : '+') + kDimNames[dim]; }
  constexpr bool operator==(const Direction&) const = default;
};

// One end of a link: a router and its port.
struct LinkEnd {
  NodeId router = 0;
  PortId port = 0;
};

// Parses "+X", "-w" ...; returns false if the text is not a direction.
bool parse_direction(std::string_view text, Direction& out);

}  // namespace angara
