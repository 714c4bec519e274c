#pragma once
// MessageExtension: what the network knows of a message delivered by a user port, attached to
// the tlm_generic_payload the port sends to the user's target. Like every generic-payload
// extension it is ignorable: the payload's address (the sending node) and data (the message)
// say all a target must know.

#include <tlm>

#include "models/core/ids.h"

namespace angara {

class MessageExtension : public tlm::tlm_extension<MessageExtension> {
 public:
  NodeId src = 0;             // the node whose user port sent it
  NodeId dst = 0;             // the node it was delivered to
  Cycle created = 0;          // router cycle the sender's user injected it
  Cycle delivered = 0;        // router cycle its last packet's tail was in dst's endpoint
  std::uint32_t packets = 0;  // network packets it travelled in (at most 256 bytes each)

  tlm::tlm_extension_base* clone() const override { return new MessageExtension(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const MessageExtension&>(other);
  }
};

}  // namespace angara
