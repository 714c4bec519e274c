#pragma once
// UserPort: a node of the machine as a user's TLM-2.0 model reaches it, with
// tlm_generic_payload (docs/EMBEDDING.md). The user's initiator writes a message into `in`: the
// address is the destination node, the data the message's bytes (1 to 65536), the annotated
// delay when it is created; b_transport returns at once, the message queued at the node's
// endpoint like any source's packets. Messages for this node go out of `out` to the user's
// target as writes whose address is the sending node, with a MessageExtension; in LT as soon as
// they are whole, with the delivery time as annotated delay (temporal decoupling), in AT at the
// delivery time with no delay. `in` also takes the base protocol's nb_transport (the socket's
// own adapter turns it into b_transport), so an AT initiator may use the four phases.

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <functional>
#include <queue>
#include <vector>

#include "models/endpoint/user_port_core.h"
#include "models/timing/fabric_clock.h"

namespace angara {

class UserPort : public sc_core::sc_module, public UserPortCore {
 public:
  // Either may be left unbound: a port that only receives, or only sends (a node whose `out` is
  // unbound cannot be sent to).
  tlm_utils::simple_target_socket_optional<UserPort> in;      // the user's initiator sends here
  tlm_utils::simple_initiator_socket_optional<UserPort> out;  // to the user's target

  // `approximately_timed`: deliver at the delivery time (AT) rather than ahead of it (LT).
  UserPort(const sc_core::sc_module_name& name, NodeId id, const std::vector<bool>& reachable,
           const FabricClock& clock, bool approximately_timed);

  // Called when a message was queued: the node's endpoint looks at its source again.
  void on_new_work(std::function<void()> wake) { m_wake = std::move(wake); }
  // A packet the node's endpoint took (its tail in at packet.tail_at).
  void take(const Packet& packet);

  std::uint64_t messages_handed_on() const { return m_handed_on; }
  std::size_t messages_waiting() const { return m_ready.size(); }

 private:
  struct Ready {
    UserMessage message;
    std::uint64_t order = 0;  // among equal delivery times: the order they became whole
  };
  struct Later {
    bool operator()(const Ready& a, const Ready& b) const {
      return a.message.delivered != b.message.delivered ? a.message.delivered > b.message.delivered
                                                        : a.order > b.order;
    }
  };

  void b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay);
  void hand_on();  // SC_THREAD: whole messages to the user's target

  const FabricClock& m_clock;
  bool m_at;
  std::function<void()> m_wake;
  std::vector<UserMessage> m_whole;  // receive()'s out list, reused
  std::priority_queue<Ready, std::vector<Ready>, Later> m_ready;
  std::uint64_t m_order = 0, m_handed_on = 0;
  sc_core::sc_event m_became_ready;
};

}  // namespace angara
