#pragma once
// Graphs for the topology and routing tests: shortest distances by breadth-first search, and
// channel-dependency graphs (a deadlock-freedom argument holds when the graph of its channels has
// no directed cycle).

#include <cstddef>
#include <deque>
#include <utility>
#include <vector>

namespace angara::test {

// Links from `src` to each of `vertices` vertices (-1: unreachable), by breadth-first search;
// `for_each_neighbour(v, visit)` calls visit(w) for every vertex w one link from v.
template <typename ForEachNeighbour>
std::vector<int> bfs_distances(int vertices, int src, ForEachNeighbour for_each_neighbour) {
  std::vector<int> d(static_cast<std::size_t>(vertices), -1);
  std::deque<int> queue{src};
  d[src] = 0;
  while (!queue.empty()) {
    const int at = queue.front();
    queue.pop_front();
    for_each_neighbour(at, [&](int next) {
      if (d[next] < 0) {
        d[next] = d[at] + 1;
        queue.push_back(next);
      }
    });
  }
  return d;
}

// A directed graph on vertices 0..n-1 as adjacency lists.
using Graph = std::vector<std::vector<int>>;

// True if `graph` has a directed cycle: iterative depth-first search, a back edge to a vertex
// still on the stack (grey) closes a cycle.
inline bool has_cycle(const Graph& graph) {
  enum class Color { White, Grey, Black };
  std::vector<Color> color(graph.size(), Color::White);
  std::vector<std::pair<int, std::size_t>> stack;  // vertex, next edge to follow
  for (int root = 0; root < static_cast<int>(graph.size()); ++root) {
    if (color[root] != Color::White) continue;
    color[root] = Color::Grey;
    stack.push_back({root, 0});
    while (!stack.empty()) {
      auto& [v, next] = stack.back();
      if (next == graph[v].size()) {
        color[v] = Color::Black;
        stack.pop_back();
        continue;
      }
      const int w = graph[v][next++];
      if (color[w] == Color::Grey) return true;
      if (color[w] == Color::White) {
        color[w] = Color::Grey;
        stack.push_back({w, 0});
      }
    }
  }
  return false;
}

}  // namespace angara::test
