#pragma once
// A 4x4 torus's routers without SystemC, for the router's unit tests: the hop rules
// (RouterCore) alone, or with AT's switch over them as RouterAt holds them.

#include <memory>
#include <utility>

#include "models/router/at_switch.h"
#include "models/router/router_core.h"

namespace angara::test {

constexpr Direction kPX{0, false}, kMX{0, true}, kPY{1, false}, kMY{1, true};

inline PortId port_of(Direction d) {
  return static_cast<PortId>(d.index());
}

// A 4x4 torus with the default (Table 1) parameters: P = 3, link L = 40 and S(1) = 1, S(17) = 15,
// local channel L = 0 and the same serialization, 64-flit buffers, 2 VCs, bubble rule.
struct Fabric {
  FabricParams params;
  Topology topology{TopologyParams{.dims = {4, 4}}};
  const Torus& torus = *topology.torus();
  std::unique_ptr<RouterShared> shared;
  PacketPool pool;

  Fabric() { shared = std::make_unique<RouterShared>(topology, params, 1); }
  RouterCore router(NodeId id) { return RouterCore(id, *shared, nullptr, pool); }
  NodeId step(NodeId from, Direction d) const { return torus.neighbor(from, d); }

  // A point-to-point packet of `data_flits` data flits, wholly in a buffer from head_at/tail_at.
  Packet* packet(NodeId dst, int data_flits, VcId vc, Cycle head_at, Cycle tail_at) {
    Packet* p = pool.acquire();
    p->header.dst = dst;
    p->header.data_flits = static_cast<std::uint8_t>(data_flits);
    p->header.vc = vc;
    p->head_at = head_at;
    p->tail_at = tail_at;
    return p;
  }
};

// A router's hop rules and AT's switch over them.
struct SwitchedRouter {
  explicit SwitchedRouter(RouterCore rules) : core(std::move(rules)) {}
  RouterCore core;
  AtSwitch at{core};
};

}  // namespace angara::test
