#pragma once
// What a packet asks of the buffer behind an output, which AT's credit counter and LT's hold
// calendar both answer with the first cycle it can have: `need` free flits at its start (its own
// and any more the flow-control rule asks for) from cycle `from` on. LT also keeps the hold:
// room for its `flits` over the `span` cycles it holds them at least; a train asks that for each
// of its `lanes`, lane k `k * step` cycles after the first, beside the lanes before it.

#include "models/core/ids.h"

namespace angara {

struct BufferClaim {
  Cycle from = 0;
  int need = 0;
  int flits = 0;
  Cycle span = 1;
  int lanes = 1;
  Cycle step = 0;
};

}  // namespace angara
