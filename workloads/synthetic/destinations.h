#pragma once
// Where synthetic packets go (traffic.pattern), one choice per packet. Built once per machine and
// shared by every node's source (a permutation is the machine's, not a node's); the randomness is
// the source's own generator.
//
//   uniform             any other node, equally likely
//   local               with probability local_rate a node at most local_distance hops away
//                       (a fat tree: in the subtree of height local_distance around the source;
//                       equally likely among them), else uniform
//   hotspot             with probability hotspot_rate the hot node, else uniform
//   transpose           id bits: the high half and the low half swapped (4^k nodes)
//   bit_complement      id bits inverted (2^k nodes)
//   bit_reverse         id bits in reverse order (2^k nodes)
//   shuffle             id bits rotated left by one (2^k nodes)
//   tornado             every coordinate x to x + ceil(k/2) - 1 on its ring of k
//   neighbour           every coordinate x to x + 1 on its ring
//                       (a fat tree: its node's base-k digits are the coordinates)
//   random_permutation  a fixed random permutation without fixed points (from the run's seed)
//   fft3d               the fft_rows x fft_cols processes (process i on node i) all-to-all within
//                       a row (phase 1) or a column (phase 2), uniform among the others there
//
// A node a permutation maps to itself, or outside the FFT's process grid, sends nothing.
// Failed nodes ([faults]) send nothing and are sent nothing: a node a permutation maps to one
// sends nothing, and a destination drawn on one is drawn again (at most 64 times, then uniform
// among the live nodes).

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "models/core/rng.h"
#include "models/topology/faults.h"
#include "models/topology/topology.h"
#include "workloads/params/workload_params.h"

namespace angara {

class Destinations {
 public:
  Destinations(const Topology& topology, const TrafficParams& params, std::uint64_t seed,
               const FaultMap& faults = {});

  // Whether node `src` sends at all.
  bool sends(NodeId src) const;
  // The destination of `src`'s next packet (never `src`).
  NodeId pick(NodeId src, Rng& rng) const;

 private:
  NodeId draw(NodeId src, Rng& rng) const;  // as if no node failed
  bool failed(NodeId node) const { return !m_failed.empty() && m_failed[node]; }
  NodeId uniform(NodeId src, Rng& rng) const;
  NodeId local(NodeId src, Rng& rng) const;
  NodeId fft_peer(NodeId src, Rng& rng) const;
  NodeId mapped(NodeId src) const;  // the permutations
  NodeId per_coordinate(NodeId src, int (*shift)(int ring)) const;
  // A node's coordinates (a fat tree: its base-k digits, least significant first), and back.
  using Digits = std::array<int, 16>;  // a fat tree has at most 16 levels
  Digits digits(NodeId node) const;
  NodeId from_digits(std::span<const int> coords) const;

  const Topology& m_topology;
  TrafficParams m_params;
  std::vector<int> m_radices;  // a node id's digits, least significant first (a torus: X)
  int m_subtree = 0;           // local on a fat tree: nodes in the source's subtree
  NodeId m_hot = 0;
  int m_bits = 0;                     // of a node id, for the bit permutations
  std::vector<Coords> m_near;         // local: offsets within local_distance, none zero
  std::vector<NodeId> m_permutation;  // random_permutation
  std::vector<bool> m_failed;         // [node]; empty: none failed
  std::vector<NodeId> m_live;         // with failed nodes: the others
};

}  // namespace angara
