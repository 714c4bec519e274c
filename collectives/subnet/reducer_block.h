#pragma once
// What the PEGroup asks of its Reducer, so that another implementation can take its place: the
// C++ Reducer (ModelReducer), or the SystemVerilog one behind its transactor (collectives/rtl).

#include <functional>
#include <memory>

#include "collectives/subnet/reducer.h"

namespace angara {

class ReducerBlock {
 public:
  virtual ~ReducerBlock() = default;
  // A contribution at the Reducer's input at `at`. In AT the PEGroup's timing gives it the
  // Reducer from `start` (its head taken) to `end` (the next head may come; with the last
  // contribution, its result is handed off collective.reducer_result_cycles later); LT passes 0
  // for both.
  virtual Reducer::Outcome add(Packet* packet, const TreeRow& row, Cycle at, Cycle start,
                               Cycle end) = 0;
  // Reduces of `tree` in the Reducer: slots holding a partial result, results not handed off.
  virtual int busy(int tree) const = 0;

  // A block that times its results itself (an RTL block driving the model, AT): add() returns
  // no result, and the block passes each to `hand_off` in the cycle it gives it, before the
  // router acts in that cycle.
  using HandOff = std::function<void(Packet* result, Cycle cycle)>;
  virtual bool drives() const { return false; }
  virtual void set_hand_off(HandOff) {}
};

class ModelReducer final : public ReducerBlock {
 public:
  Reducer::Outcome add(Packet* packet, const TreeRow& row, Cycle at, Cycle, Cycle) override {
    return m_reducer.add(packet, row, at);
  }
  int busy(int tree) const override { return m_reducer.busy(tree); }

 private:
  Reducer m_reducer;
};

}  // namespace angara
