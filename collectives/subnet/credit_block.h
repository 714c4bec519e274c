#pragma once
// The PEGroup's credit block. Between a node and its parent, reduce packets of one tree are
// limited to 16 in flight: a node starts with 16 up-credits per tree and spends one per result it
// sends up; the parent, every time 8 results of that tree have left it, sends each child a
// credit packet worth 8 more. Towards the processor, it reports the per-tree counts of completed
// reduces every 128 results (all trees together) or, when some are unreported, every 4096 cycles.
// Those are the published values, the defaults of collective.reduces_in_flight, credit_batch,
// report_results and report_cycles.

#include <array>
#include <cstdint>

#include "collectives/subnet/reducer.h"
#include "collectives/subnet/tree.h"
#include "models/core/ids.h"
#include "models/core/packet.h"
#include "models/core/params.h"

namespace angara {

class CreditBlock {
 public:
  explicit CreditBlock(const CollectiveParams& params = {})
      : m_batch(params.credit_batch),
        m_report_results(params.report_results),
        m_report_cycles(static_cast<Cycle>(params.report_cycles)) {
    m_up_credits.fill(params.reduces_in_flight);
  }

  bool can_send_up(int tree) const { return m_up_credits[tree] > 0; }
  int up_credits(int tree) const { return m_up_credits[tree]; }
  void sent_up(int tree) { --m_up_credits[tree]; }
  void credit_from_parent(int tree) { m_up_credits[tree] += m_batch; }

  // A result of `tree` has left the node (up, to its destination or down the tree). Returns true
  // when the children are owed a credit packet for this tree.
  bool result_left(int tree, Cycle at);
  // Whether a report to the processor is due at `now`; taking it resets the count.
  bool report_due(Cycle now) const;
  std::array<std::uint32_t, kMaxTrees> take_report();  // and resets the count
  // The cycle at which unreported results force a report, or kNever.
  Cycle report_deadline() const {
    return m_unreported ? m_first_unreported + m_report_cycles : kNever;
  }

 private:
  int m_batch;            // results per credit packet to the children
  int m_report_results;   // results per report to the processor
  Cycle m_report_cycles;  // or this long after the first unreported one
  std::array<int, kMaxTrees> m_up_credits{};
  std::array<int, kMaxTrees> m_left_since_credit{};
  std::array<std::uint32_t, kMaxTrees> m_completed{};
  int m_unreported = 0;
  Cycle m_first_unreported = 0;
};

}  // namespace angara
