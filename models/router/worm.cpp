#include "models/router/worm.h"

#include <algorithm>

namespace angara {

void Worm::begin(int flits, Cycle head_at, Cycle tail_at, const ChannelTiming& in) {
  m_flits = flits;
  m_hops.clear();
  for (int j = 0; j < flits; ++j) {
    m_arrival[j] = std::min(tail_at, head_at + in.serialization(j + 1) - in.serialization(1));
  }
}

int Worm::add_hop(const WormHop& hop) {
  m_hops.push_back(hop);
  m_hops.back().known = 0;
  m_hops.back().told = false;
  const int current = static_cast<int>(m_hops.size()) - 1;
  resolve(current);
  return current;
}

Cycle Worm::arrival(int i, int j) const {
  if (i == 0) return m_arrival[j];
  const WormHop& before = m_hops[i - 1];
  return before.known > j ? before.left[j] + before.out->latency : kNever;
}

// Each pass moves every hop on as far as what is known allows; a hop's flits need the hop before
// (arrivals) and the hop after (credits), so passes repeat until nothing moves.
void Worm::resolve(int current) {
  const int hops = static_cast<int>(m_hops.size());
  for (bool moved = true; moved;) {
    moved = false;
    for (int i = 0; i < hops; ++i) {
      WormHop& h = m_hops[i];
      while (h.known < m_flits) {
        const int j = h.known;
        const Cycle in = arrival(i, j);
        if (in == kNever) break;
        const Cycle flit = h.out->serialization(j + 1) - h.out->serialization(j);
        Cycle credit = 0;
        if (h.window > 0 && j >= h.window) {
          if (i + 1 >= hops || m_hops[i + 1].known <= j - h.window) break;
          credit = m_hops[i + 1].left[j - h.window] + h.out->latency + flit;
        }
        Cycle left = std::max({h.start + h.out->serialization(j + 1), in, credit});
        if (j > 0) left = std::max(left, h.left[j - 1] + flit);
        h.left[j] = left;
        ++h.known;
        moved = true;
      }
    }
  }
  for (int i = 0; i < hops; ++i) {
    WormHop& h = m_hops[i];
    if (i == current || h.told || h.known < m_flits || h.owner == nullptr) continue;
    h.told = true;
    h.owner->worm_tail_left(h.in_port, h.in_vc, m_flits, h.left[m_flits - 1]);
  }
}

Cycle Worm::tail(int i) {
  WormHop& h = m_hops[i];
  if (h.known < m_flits) return kNever;
  h.told = true;
  return h.left[m_flits - 1];
}

bool Worm::finished() const {
  return std::all_of(m_hops.begin(), m_hops.end(), [](const WormHop& h) { return h.told; });
}

Cycle Worm::least_hold(int flits, int window, const ChannelTiming& link, Cycle pipeline) {
  Worm w;
  w.begin(flits, 0, 0, link);
  // Enough routers that the second hop's tail depends on none beyond them: each hop's flits
  // need credits from the next, `window` flits apart.
  const int hops = (flits + window - 1) / window + 2;
  const Cycle step = link.latency + link.serialization(1) + pipeline;
  for (int i = 0; i < hops; ++i) {
    const bool last = i + 1 == hops;
    w.add_hop(
        {static_cast<Cycle>(i) * step, &link, last ? 0 : window, 0, 0, nullptr, 0, false, {}});
  }
  return w.tail(1) + link.latency;
}

std::uint32_t WormPool::acquire() {
  if (m_free.empty()) {
    m_worms.push_back(std::make_unique<Worm>());
    return static_cast<std::uint32_t>(m_worms.size());
  }
  const std::uint32_t id = m_free.back();
  m_free.pop_back();
  return id;
}

}  // namespace angara
