#pragma once
// A note about a node at a cycle (a program that failed, a packet blocked longest): over the
// ranks of a split run, the first by cycle, then node, is the one a one-process run would give.

#include <string>

#include "models/core/ids.h"
#include "platform/parallel/ranks.h"

namespace angara {

struct NodeNote {
  Cycle at = kNever;  // kNever: no note
  NodeId node = 0;
  std::string what;

  bool empty() const { return at == kNever; }
  // Keeps the earlier of this note and `other` (by cycle, then node).
  void keep_first(NodeNote other);
};

// Rank 0: the first of every rank's notes; the other ranks: their own.
NodeNote first_over_ranks(NodeNote mine, const Ranks& ranks);

}  // namespace angara
