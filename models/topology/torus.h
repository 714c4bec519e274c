#pragma once
// An n-dimensional torus (1 to 4 dimensions, X, Y, Z, W, any ring size >= 2): coordinates,
// neighbours per direction and minimal ring distances. Geometry only; routing lives elsewhere.

#include <array>
#include <string>
#include <vector>

#include "models/core/ids.h"

namespace angara {

using Coords = std::array<int, kMaxDims>;

class Torus {
 public:
  explicit Torus(std::vector<int> dims);

  int dims() const { return static_cast<int>(m_sizes.size()); }
  int size(int dim) const { return m_sizes[dim]; }
  int node_count() const { return m_nodes; }
  int direction_count() const { return 2 * dims(); }

  const Coords& coords(NodeId node) const { return m_coords[node]; }
  NodeId node(const Coords& c) const;
  // The node one hop away in direction `d` (wrapping around the ring).
  NodeId neighbor(NodeId node, Direction d) const;
  // True if the hop from `node` in direction `d` uses the ring's wrap-around link.
  bool is_wrap_hop(NodeId node, Direction d) const {
    const int x = coords(node)[d.dim];
    return d.negative ? x == 0 : x == m_sizes[d.dim] - 1;
  }
  // Signed minimal offset from a to b along `dim`: in (-k/2, k/2]; ties go the positive way.
  int ring_offset(int a, int b, int dim) const {
    const int k = m_sizes[dim];
    int forward = b - a;  // in (-k, k) for coordinates on the ring: no division on the hot path
    if (forward < 0) forward += k;
    if (forward < 0 || forward >= k) forward = (forward % k + k) % k;
    return 2 * forward <= k ? forward : forward - k;
  }
  // Sum over dimensions of the minimal ring distances.
  int min_hops(NodeId a, NodeId b) const;
  // "(x,y,z)" for messages.
  std::string format(NodeId node) const;

 private:
  std::vector<int> m_sizes;
  std::array<int, kMaxDims> m_stride{};
  int m_nodes = 1;
  std::vector<Coords> m_coords;  // [node]: computed once, read on every routing step
};

}  // namespace angara
