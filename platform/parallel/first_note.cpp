#include "platform/parallel/first_note.h"

#include <tuple>

namespace angara {

void NodeNote::keep_first(NodeNote other) {
  if (std::tie(other.at, other.node) < std::tie(at, node)) *this = std::move(other);
}

NodeNote first_over_ranks(NodeNote mine, const Ranks& ranks) {
  if (!ranks.parallel()) return mine;
  Bytes bytes;
  put(bytes, mine.at);
  put(bytes, mine.node);
  bytes.insert(bytes.end(), mine.what.begin(), mine.what.end());
  for (const Bytes& theirs : ranks.gather(bytes)) {
    std::size_t at = 0;
    NodeNote other;
    other.at = take<Cycle>(theirs, at);
    other.node = take<NodeId>(theirs, at);
    other.what = take_rest(theirs, at);
    mine.keep_first(std::move(other));
  }
  return mine;
}

}  // namespace angara
