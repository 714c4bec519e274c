#include "models/routing/nca_routing.h"

#include "models/core/rng.h"

namespace angara {
namespace {
constexpr std::uint64_t kLevels = 17;  // more than a fat tree has
}  // namespace

RouteStep NcaRouting::route(NodeId here, NodeId dst, std::uint64_t key) const {
  RouteStep step;
  const int level = m_tree.level(here);
  if (m_tree.below(dst, level, m_tree.index(here))) {
    // Down the one path; at the leaf out of the destination's host port.
    step.eject = level == 0;
    step.port = static_cast<PortId>(m_tree.digit(static_cast<int>(dst), level));
    return step;
  }
  // Up: the same packet draws the same port at this level wherever it climbs from.
  const std::uint64_t draw =
      mix64(m_seed ^ mix64(key * kLevels + static_cast<std::uint64_t>(level)));
  step.port = m_tree.up_port(level, static_cast<int>(draw % m_tree.k()));
  return step;
}

}  // namespace angara
