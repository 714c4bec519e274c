#pragma once
// The Reducer of the PEGroup: per (TreeId, ReduceId) a counter of received packets and the
// stored partial result. Each reduce packet is combined word by word into the slot; when the
// last expected packet (one from the node's processor unless transit, one from each child) has
// arrived, the slot's result is handed out and the slot is free again.

#include <array>
#include <memory>
#include <optional>

#include "collectives/subnet/tree.h"
#include "models/core/collective_format.h"
#include "models/core/packet.h"

namespace angara {

class Reducer {
 public:
  // Combines `packet` into its slot. Returns the result packet (the first contribution's object,
  // holding the combined data) when this was the last expected one; `packet` is then either that
  // result or consumed (the caller recycles consumed packets: see `consumed`).
  struct Outcome {
    Packet* result = nullptr;    // the finished reduce, or null
    Packet* consumed = nullptr;  // a contribution folded into the slot, to recycle
    std::array<Cycle, 2 * kMaxDims + 1> arrivals{};  // with a result: when each came, sorted
    int count = 0;                                   // contributions (entries of arrivals)
  };
  // `at`: the cycle the contribution reached the Reducer.
  Outcome add(Packet* packet, const TreeRow& row, Cycle at);

  // Slots of `tree` holding a partial result.
  int busy(int tree) const;

 private:
  struct Slot {
    int received = 0;
    Packet* partial = nullptr;  // the first contribution, accumulating the others
    std::array<Cycle, 2 * kMaxDims + 1> arrivals{};
  };
  using TreeSlots = std::array<Slot, kReducesPerTree>;
  // Allocated on a tree's first reduce: a 32768-node machine keeps no slots for idle trees.
  std::array<std::unique_ptr<TreeSlots>, kMaxTrees> m_slots{};
};

}  // namespace angara
