#pragma once
// The approximately-timed router: a thin SystemC shell over the hop rules (RouterCore) and AT's
// switch (AtSwitch). It has no clock and no per-cycle process: one method runs at the cycles the
// switch asks for (a packet becomes routable, an output frees, credits arrive) and carries out
// the grants over the sockets.

#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include <memory>
#include <optional>
#include <vector>

#include "models/fabric/fabric_protocol.h"
#include "models/router/at_switch.h"
#include "models/router/router_core.h"
#include "models/router/router_probe.h"
#include "models/router/vcup_driver.h"
#include "models/timing/wake_event.h"

namespace angara {

class RouterAt : public sc_core::sc_module, private WormOwner {
 public:
  // Bound in port order: out[d] feeds the neighbour in direction d, out[local] the endpoint;
  // in[d] is fed by the neighbour in direction -d, in[local] by the endpoint.
  tlm_utils::multi_passthrough_initiator_socket<RouterAt, 0, FabricProtocol> out;
  tlm_utils::multi_passthrough_target_socket<RouterAt, 0, FabricProtocol> in;

  RouterAt(const sc_core::sc_module_name& name, RouterCore core, const FabricClock& clock);

  const RouterCore& core() const { return m_core; }
  // For the deadlock watchdog: the oldest head packet still waiting here, or none.
  std::optional<AtSwitch::Blocked> oldest_blocked(Cycle now) const {
    return m_switch.oldest_blocked(now);
  }
  // Turns tracing on for this router: the signals to drive (router_trace.h).
  void set_trace(std::unique_ptr<RouterTrace> trace) { m_switch.set_trace(std::move(trace)); }
  // Shows arrivals and grants to `probe` (an RTL transactor) from now on; null: to none.
  void set_probe(RouterProbe* probe) { m_probe = probe; }
  // Worm bubble: packets enter rings as `rings` admits (ring_budget.h).
  void set_ring_budget(RingBudget& rings) {
    m_switch.set_ring_budget(rings, [this](Cycle cycle) { wake_at(cycle); });
  }
  // Lets `driver` (an RTL VCUp's transactor) say when the link ports' VCUp packets go and free
  // their space (vcup_driver.h).
  void set_vcup_driver(VcUpDriver& driver);

 private:
  tlm::tlm_sync_enum nb_transport_fw(int port, FabricPayload& payload, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  tlm::tlm_sync_enum nb_transport_bw(int port, FabricPayload& payload, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  void evaluate();
  void wake_at(Cycle cycle);
  // Wormhole: a worm's tail has left input (in_port, in_vc): its credits go upstream.
  void worm_tail_left(PortId in_port, VcId in_vc, int flits, Cycle tail) override;
  // Sends END_REQ for `credit` of input `port`, usable upstream from `at`.
  void return_upstream(PortId port, Credit credit, Cycle at);

  RouterCore m_core;
  AtSwitch m_switch{m_core};
  const FabricClock& m_clock;
  WakeEvent m_wake;
  std::vector<Grant> m_grants;
  Cycle m_allocated_at = kNever;  // the last cycle the switch allocated in
  RouterProbe* m_probe = nullptr;
};

}  // namespace angara
