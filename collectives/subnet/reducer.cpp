#include "collectives/subnet/reducer.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "models/core/model_error.h"
#include "models/core/packet_ledger.h"

namespace angara {

Reducer::Outcome Reducer::add(Packet* packet, const TreeRow& row, Cycle at) {
  const auto& h = packet->header;
  auto& slots = m_slots.at(h.tree_id);
  if (!slots) slots = std::make_unique<TreeSlots>();
  Slot& slot = slots->at(h.reduce_id);
  const int expected = (row.pe ? 1 : 0) + row.dir_sum;
  Outcome outcome;
  if (slot.received == 0) {
    slot.partial = packet;
  } else {
    if (slot.partial->header.op != h.op || slot.partial->header.data_flits != h.data_flits) {
      model_error(report_id::kCollective,
                  fmt::format("reduce {} of tree {}: contributions disagree on op or size",
                              h.reduce_id, h.tree_id));
    }
    reduce_flits(ReduceOp::decode(h.op).reduction, slot.partial->data.data(), packet->data.data(),
                 h.data_flits);
    outcome.consumed = packet;
  }
  slot.arrivals.at(static_cast<std::size_t>(slot.received)) = at;
  if (++slot.received == expected) {
    outcome.result = slot.partial;
    outcome.arrivals = slot.arrivals;
    outcome.count = slot.received;
    std::sort(outcome.arrivals.begin(), outcome.arrivals.begin() + outcome.count);
    slot = Slot{};
  }
  return outcome;
}

int Reducer::busy(int tree) const {
  int n = 0;
  if (!m_slots.at(tree)) return n;
  for (const Slot& s : *m_slots.at(tree)) n += s.received > 0 ? 1 : 0;
  return n;
}

}  // namespace angara
