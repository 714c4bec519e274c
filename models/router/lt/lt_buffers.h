#pragma once
// The buffers of every loosely-timed router (sim.lt_buffers): the hold calendar behind each
// output VC and the order of each input VC, [port * VCs + vc], in one array each for the whole
// fabric, router r's from r * stride on. A packet entering the network asks the cache for those
// of its whole path; where they are is then arithmetic, not a read of each router on the way
// (one cache miss after another).

#include <cstddef>

#include "models/core/big_array.h"
#include "models/core/ids.h"
#include "models/router/lt/input_order.h"
#include "models/timing/hold_calendar.h"

namespace angara {

class LtBuffers {
 public:
  // `per_router`: the most port VCs (ports x VCs per port) a router of the fabric has.
  LtBuffers(std::size_t routers, std::size_t per_router)
      : m_stride(per_router), m_holds(routers * per_router), m_orders(routers * per_router) {}

  HoldCalendar* holds(NodeId router) const { return m_holds.data() + router * m_stride; }
  InputOrder* orders(NodeId router) const { return m_orders.data() + router * m_stride; }

 private:
  std::size_t m_stride;
  BigArray<HoldCalendar> m_holds;
  BigArray<InputOrder> m_orders;
};

}  // namespace angara
