#include "models/router/router_trace.h"

namespace angara {

const RouterTrace::Vc* RouterTrace::traced_vc(std::size_t input) const {
  if (input >= inputs.size()) return nullptr;
  return inputs[input].occupancy >= 0 ? &inputs[input] : nullptr;
}

// A buffer holds a packet's flits from its head's arrival until its tail has left. In VCUp/VCDown
// the packet is stored whole, the table read, the head analysed, then it issues.
void RouterTrace::arrival(std::size_t input, const Packet& p, Cycle ready, bool routed,
                          Cycle table_cycles) {
  const Vc* v = traced_vc(input);
  if (!v) return;
  Tracer& t = *tracer;
  t.add(v->occupancy, p.head_at, p.wire_flits());
  if (v->stage < 0) return;
  const auto stage = [&](VcStage s, Cycle at) { t.change(v->stage, at, static_cast<int>(s)); };
  t.change(v->packet, p.head_at, trace_id(p));
  stage(VcStage::Storing, p.head_at);
  if (routed) {
    stage(VcStage::Table, p.tail_at);
    stage(VcStage::Analysis, p.tail_at + table_cycles);
  }
  stage(VcStage::Issuing, ready);
}

void RouterTrace::grant(const Grant& g, std::size_t output, std::size_t input) {
  Tracer& t = *tracer;
  if (g.out_port < link_valid.size() && link_valid[g.out_port] >= 0) {
    t.change(link_valid[g.out_port], g.start, 1);
    t.change(link_packet[g.out_port], g.start, trace_id(*g.packet));
    t.change(link_valid[g.out_port], g.tail_out, 0);
    t.change(link_packet[g.out_port], g.tail_out, 0);
  }
  credits_change(output, -g.packet->wire_flits(), g.start);
  const Vc* v = traced_vc(input);
  if (!v || !g.frees_input) return;
  t.add(v->occupancy, g.tail_out, -g.packet->wire_flits());
  if (v->stage < 0) return;
  t.change(v->stage, g.tail_out, static_cast<int>(VcStage::Idle));
  t.change(v->packet, g.tail_out, 0);
}

void RouterTrace::credits_change(std::size_t output, std::int64_t flits, Cycle at) {
  if (output < credits.size() && credits[output] >= 0) tracer->add(credits[output], at, flits);
}

}  // namespace angara
