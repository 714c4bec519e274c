#pragma once
// How one TOML value becomes one typed field of a Config, and back: the readers and writers the
// config loader's key table (config_loader.cpp) is built from. Strict: 2.0 is not an integer, a
// string is not a list, and every error names the key, the value as written and what it expected.

#include <algorithm>
#include <array>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <toml++/toml.h>
#include <nlohmann/json.hpp>

#include "models/core/config_error.h"
#include "platform/config/config.h"

namespace angara::config_values {

// The spellings of an enum in the config file, and what the enum is called in error messages.
template <typename E, std::size_t N>
struct EnumNames {
  std::string_view what;
  std::array<std::pair<std::string_view, E>, N> names;
};

// Overloaded on a tag value so that read_value() and json_value() find the table by type.
constexpr EnumNames<RoutingAlgorithm, 2> names_of(RoutingAlgorithm) {
  return {"routing",
          {{{"dimension_order", RoutingAlgorithm::DimensionOrder},
            {"adaptive", RoutingAlgorithm::Adaptive}}}};
}
constexpr EnumNames<Switching, 2> names_of(Switching) {
  return {"switching", {{{"vct", Switching::Vct}, {"wormhole", Switching::Wormhole}}}};
}
constexpr EnumNames<TopologyKind, 3> names_of(TopologyKind) {
  return {"topology",
          {{{"torus", TopologyKind::Torus},
            {"fat_tree", TopologyKind::FatTree},
            {"cayley", TopologyKind::Cayley}}}};
}
constexpr EnumNames<CayleyGroup, 3> names_of(CayleyGroup) {
  return {"Cayley group",
          {{{"circulant", CayleyGroup::Circulant},
            {"star", CayleyGroup::Star},
            {"pancake", CayleyGroup::Pancake}}}};
}
constexpr EnumNames<DeadlockScheme, 4> names_of(DeadlockScheme) {
  return {"deadlock scheme",
          {{{"bubble", DeadlockScheme::Bubble},
            {"dateline", DeadlockScheme::Dateline},
            {"hop_classes", DeadlockScheme::HopClasses},
            {"none", DeadlockScheme::None}}}};
}
constexpr EnumNames<TieRule, 4> names_of(TieRule) {
  return {"tie rule",
          {{{"positive", TieRule::Positive},
            {"source_parity", TieRule::SourceParity},
            {"destination_parity", TieRule::DestinationParity},
            {"random", TieRule::Random}}}};
}
constexpr EnumNames<TrafficPattern, 11> names_of(TrafficPattern) {
  return {"traffic pattern",
          {{{"uniform", TrafficPattern::Uniform},
            {"local", TrafficPattern::Local},
            {"hotspot", TrafficPattern::Hotspot},
            {"transpose", TrafficPattern::Transpose},
            {"bit_complement", TrafficPattern::BitComplement},
            {"bit_reverse", TrafficPattern::BitReverse},
            {"shuffle", TrafficPattern::Shuffle},
            {"tornado", TrafficPattern::Tornado},
            {"neighbour", TrafficPattern::Neighbour},
            {"random_permutation", TrafficPattern::RandomPermutation},
            {"fft3d", TrafficPattern::Fft3d}}}};
}

// Other spellings an enum's values are read in (written back in the table's): names other
// simulators give them, so that a config written for one of those runs here. None by default.
template <typename E>
constexpr std::array<std::pair<std::string_view, E>, 0> aliases_of(E) {
  return {};
}
// BookSim's names of the patterns this model has under other names.
constexpr std::array<std::pair<std::string_view, TrafficPattern>, 4> aliases_of(TrafficPattern) {
  return {{{"bitcomp", TrafficPattern::BitComplement},
           {"bitrev", TrafficPattern::BitReverse},
           {"randperm", TrafficPattern::RandomPermutation},
           {"neighbor", TrafficPattern::Neighbour}}};
}
constexpr EnumNames<InjectionProcess, 3> names_of(InjectionProcess) {
  return {"injection process",
          {{{"bernoulli", InjectionProcess::Bernoulli},
            {"poisson", InjectionProcess::Poisson},
            {"on_off", InjectionProcess::OnOff}}}};
}
constexpr EnumNames<SimMode, 2> names_of(SimMode) {
  return {"sim mode", {{{"at", SimMode::At}, {"lt", SimMode::Lt}}}};
}
constexpr EnumNames<WorkloadKind, 7> names_of(WorkloadKind) {
  return {"workload kind",
          {{{"synthetic", WorkloadKind::Synthetic},
            {"collective", WorkloadKind::Collective},
            {"msgrate", WorkloadKind::MsgRate},
            {"pingpong", WorkloadKind::PingPong},
            {"software", WorkloadKind::Software},
            {"spmv", WorkloadKind::Spmv},
            {"heat", WorkloadKind::Heat}}}};
}
constexpr EnumNames<CollectiveOp, 5> names_of(CollectiveOp) {
  return {"collective operation",
          {{{"broadcast", CollectiveOp::Broadcast},
            {"reduce", CollectiveOp::Reduce},
            {"allreduce", CollectiveOp::Allreduce},
            {"allgather", CollectiveOp::Allgather},
            {"reduce_scatter", CollectiveOp::ReduceScatter}}}};
}
constexpr EnumNames<SoftwareAlgorithm, 10> names_of(SoftwareAlgorithm) {
  return {"software algorithm",
          {{{"tree", SoftwareAlgorithm::Tree},
            {"binomial", SoftwareAlgorithm::Binomial},
            {"recursive_doubling", SoftwareAlgorithm::RecursiveDoubling},
            {"subnet", SoftwareAlgorithm::Subnet},
            {"chain", SoftwareAlgorithm::Chain},
            {"ring", SoftwareAlgorithm::Ring},
            {"rabenseifner", SoftwareAlgorithm::Rabenseifner},
            {"pipelined_tree", SoftwareAlgorithm::PipelinedTree},
            {"dimensional", SoftwareAlgorithm::Dimensional},
            {"ring_subnet", SoftwareAlgorithm::RingSubnet}}}};
}
constexpr EnumNames<PcieEncoding, 2> names_of(PcieEncoding) {
  return {"PCIe encoding",
          {{{"8b10b", PcieEncoding::B8b10b}, {"128b130b", PcieEncoding::B128b130b}}}};
}
constexpr EnumNames<Reduction, 3> names_of(Reduction) {
  return {"reduction",
          {{{"sum", Reduction::Sum}, {"min", Reduction::Min}, {"max", Reduction::Max}}}};
}

constexpr EnumNames<BlockImpl, 3> names_of(BlockImpl) {
  return {
      "block implementation",
      {{{"model", BlockImpl::Model}, {"check", BlockImpl::Check}, {"drive", BlockImpl::Drive}}}};
}

constexpr EnumNames<ComputeModelKind, 3> names_of(ComputeModelKind) {
  return {"compute model",
          {{{"flat", ComputeModelKind::Flat},
            {"roofline", ComputeModelKind::Roofline},
            {"table", ComputeModelKind::Table}}}};
}

// The value as the user wrote it, in TOML syntax (strings quoted), for error messages.
inline std::string written(const toml::node& node) {
  // Double quotes and one line, whatever quoting the file used, to match the other messages.
  constexpr auto kFlags =
      toml::format_flags::relaxed_float_precision | toml::format_flags::allow_unicode_strings |
      toml::format_flags::allow_binary_integers | toml::format_flags::allow_octal_integers |
      toml::format_flags::allow_hexadecimal_integers;
  std::ostringstream out;
  out << toml::toml_formatter(node, kFlags);
  return out.str();
}

[[noreturn]] inline void wrong_type(const toml::node& node, const std::string& key,
                                    std::string_view expected) {
  throw ConfigError(key, written(node), fmt::format("expected {}", expected));
}

// read_value() converts one TOML value into a field, strictly: 2.0 is not an integer, but an
// integer is a fine number (clock_mhz = 500).
inline void read_value(const toml::node& node, const std::string& key, double& out) {
  if (const auto* real = node.as_floating_point()) {
    out = real->get();
  } else if (const auto* integer = node.as_integer()) {
    out = static_cast<double>(integer->get());
  } else {
    wrong_type(node, key, "a number");
  }
}

inline void read_value(const toml::node& node, const std::string& key, int& out) {
  const auto* integer = node.as_integer();
  if (integer == nullptr || integer->get() < std::numeric_limits<int>::min() ||
      integer->get() > std::numeric_limits<int>::max()) {
    wrong_type(node, key, "an integer (32-bit)");
  }
  out = static_cast<int>(integer->get());
}

inline void read_value(const toml::node& node, const std::string& key, std::uint64_t& out) {
  const auto* integer = node.as_integer();
  if (integer == nullptr || integer->get() < 0) wrong_type(node, key, "a non-negative integer");
  out = static_cast<std::uint64_t>(integer->get());
}

inline void read_value(const toml::node& node, const std::string& key, bool& out) {
  const auto* boolean = node.as_boolean();
  if (boolean == nullptr) wrong_type(node, key, "true or false");
  out = boolean->get();
}

inline void read_value(const toml::node& node, const std::string& key, std::vector<int>& out) {
  const auto* array = node.as_array();
  // An empty array is let through: validate() explains that a torus needs 1 to 4 dimensions.
  if (array == nullptr || (!array->empty() && !array->is_homogeneous(toml::node_type::integer))) {
    wrong_type(node, key, "an array of integers");
  }
  out.clear();
  for (const auto& item : *array) read_value(item, key, out.emplace_back());
}

// A list of node coordinates: [[0, 0, 0], [2, 1, 3]].
inline void read_value(const toml::node& node, const std::string& key,
                       std::vector<std::vector<int>>& out) {
  const auto* array = node.as_array();
  if (array == nullptr || (!array->empty() && !array->is_homogeneous(toml::node_type::array))) {
    wrong_type(node, key, "an array of node coordinates such as [[0, 0], [1, 2]]");
  }
  out.clear();
  for (const auto& item : *array) read_value(item, key, out.emplace_back());
}

// "X" stands for both directions of X at that position, +X first; "+X" and "-X" name one each.
inline void read_value(const toml::node& node, const std::string& key,
                       std::vector<Direction>& out) {
  const auto* array = node.as_array();
  if (array == nullptr || (!array->empty() && !array->is_homogeneous(toml::node_type::string))) {
    wrong_type(node, key, "an array of direction names such as [\"X\", \"Y\"] or [\"+X\", \"-X\"]");
  }
  out.clear();
  for (const auto& item : *array) {
    const std::string& text = item.as_string()->get();
    Direction plus;
    Direction minus;
    if (text.size() == 1 && parse_direction("+" + text, plus) &&
        parse_direction("-" + text, minus)) {
      out.push_back(plus);
      out.push_back(minus);
    } else if (Direction one; parse_direction(text, one)) {
      out.push_back(one);
    } else {
      throw ConfigError(key, written(node),
                        fmt::format("unknown direction \"{}\"; known: X, Y, Z, W (both signs) or "
                                    "+X, -X, +Y, -Y, +Z, -Z, +W, -W",
                                    text));
    }
  }
}

inline void read_value(const toml::node& node, const std::string& key, std::string& out) {
  const auto* text = node.as_string();
  if (text == nullptr) wrong_type(node, key, "a string");
  out = text->get();
}

// The fields of a table, each read by `read(field, node, key)`; an unknown field is an error.
template <typename Read>
void read_fields(const toml::node& node, const std::string& key,
                 std::initializer_list<std::string_view> known, Read read) {
  const auto* table = node.as_table();
  if (table == nullptr) wrong_type(node, key, "a table");
  for (const auto& [name, value] : *table) {
    const std::string field(name.str());
    if (std::find(known.begin(), known.end(), field) == known.end()) {
      throw ConfigError(key + "." + field, written(value),
                        fmt::format("unknown field; known: {}", fmt::join(known, ", ")));
    }
    read(field, value, key + "." + field);
  }
}

inline void read_value(const toml::node& node, const std::string& key,
                       std::vector<std::string>& out) {
  const auto* array = node.as_array();
  if (array == nullptr || (!array->empty() && !array->is_homogeneous(toml::node_type::string))) {
    wrong_type(node, key, "an array of strings");
  }
  out.clear();
  for (const auto& item : *array) out.push_back(item.as_string()->get());
}

// [[collective.tree]] tables: id, and rows of { node, root, to_root, pe, dirs }.
inline void read_value(const toml::node& node, const std::string& key, std::vector<TreeSpec>& out) {
  const auto* array = node.as_array();
  if (array == nullptr) wrong_type(node, key, "tables [[collective.tree]] with id and rows");
  out.clear();
  for (std::size_t i = 0; i < array->size(); ++i) {
    TreeSpec& tree = out.emplace_back();
    read_fields((*array)[i], fmt::format("{}[{}]", key, i), {"id", "rows"},
                [&](const std::string& field, const toml::node& value, const std::string& k) {
                  if (field == "id") return read_value(value, k, tree.id);
                  const auto* rows = value.as_array();
                  if (rows == nullptr) wrong_type(value, k, "an array of row tables");
                  for (std::size_t r = 0; r < rows->size(); ++r) {
                    TreeRowSpec& row = tree.rows.emplace_back();
                    read_fields(
                        (*rows)[r], fmt::format("{}[{}]", k, r),
                        {"node", "root", "to_root", "pe", "dirs"},
                        [&](const std::string& f, const toml::node& v, const std::string& kk) {
                          if (f == "node") return read_value(v, kk, row.node);
                          if (f == "root") return read_value(v, kk, row.root);
                          if (f == "to_root") return read_value(v, kk, row.to_root);
                          if (f == "pe") return read_value(v, kk, row.pe);
                          read_value(v, kk, row.dirs);
                        });
                  }
                });
  }
}

// The spellings of enum E in the config file, in the order of its table.
template <typename E>
requires std::is_enum_v<E> std::vector<std::string_view> spellings() {
  std::vector<std::string_view> known;
  for (const auto& [name, value] : names_of(E{}).names) known.push_back(name);
  return known;
}

// The candidate closest to `word` by edit distance (insertions, deletions, substitutions), if it
// is close enough to be a typing slip (at most a third of the word's letters); else "".
inline std::string_view nearest(std::string_view word,
                                const std::vector<std::string_view>& candidates) {
  std::string_view best;
  std::size_t best_distance = word.size() / 3 + 1;
  std::vector<std::size_t> row, next;
  for (const std::string_view candidate : candidates) {
    row.resize(candidate.size() + 1);
    for (std::size_t j = 0; j < row.size(); ++j) row[j] = j;
    for (std::size_t i = 0; i < word.size(); ++i) {
      next.assign(row.size(), i + 1);
      for (std::size_t j = 0; j < candidate.size(); ++j) {
        next[j + 1] =
            std::min({row[j + 1] + 1, next[j] + 1, row[j] + (word[i] == candidate[j] ? 0 : 1)});
      }
      row.swap(next);
    }
    if (row.back() < best_distance) {
      best_distance = row.back();
      best = candidate;
    }
  }
  return best;
}

// "did you mean X? " when `word` is a slip of one of `candidates`, else "".
inline std::string suggestion(std::string_view word,
                              const std::vector<std::string_view>& candidates) {
  const auto best = nearest(word, candidates);
  return best.empty() ? std::string() : fmt::format("did you mean {}? ", best);
}

// [faults] links: [[x, y, ..., "+X"], ...], a node's coordinates and a direction from it.
inline void read_value(const toml::node& node, const std::string& key,
                       std::vector<FailedLinkSpec>& out) {
  const auto* array = node.as_array();
  constexpr std::string_view kExpected =
      "an array of links, each a node's coordinates and a direction: [[0, 0, 0, \"+X\"], ...]";
  if (array == nullptr) wrong_type(node, key, kExpected);
  out.clear();
  for (const auto& item : *array) {
    const auto* link = item.as_array();
    if (link == nullptr || link->size() < 2 || !link->back().is_string()) {
      wrong_type(item, key, kExpected);
    }
    FailedLinkSpec& spec = out.emplace_back();
    for (std::size_t i = 0; i + 1 < link->size(); ++i) {
      if (!(*link)[i].is_integer()) wrong_type(item, key, kExpected);
      read_value((*link)[i], key, spec.node.emplace_back());
    }
    spec.dir = link->back().as_string()->get();
  }
}

inline nlohmann::ordered_json json_value(const std::vector<FailedLinkSpec>& links) {
  auto out = nlohmann::ordered_json::array();
  for (const FailedLinkSpec& link : links) {
    auto each = nlohmann::ordered_json(link.node);
    each.push_back(link.dir);
    out.push_back(each);
  }
  return out;
}

template <typename E>
requires std::is_enum_v<E>
inline void read_value(const toml::node& node, const std::string& key, E& out) {
  const auto* text = node.as_string();
  if (text == nullptr) wrong_type(node, key, "a string");
  for (const auto& [name, value] : names_of(E{}).names) {
    if (name == text->get()) {
      out = value;
      return;
    }
  }
  for (const auto& [alias, value] : aliases_of(E{})) {
    if (alias == text->get()) {
      out = value;
      return;
    }
  }
  const auto known = spellings<E>();
  throw ConfigError(key, written(node),
                    fmt::format("unknown {}; {}known: {}", names_of(E{}).what,
                                suggestion(text->get(), known), fmt::join(known, ", ")));
}

inline nlohmann::ordered_json json_value(const std::vector<TreeSpec>& trees) {
  auto out = nlohmann::ordered_json::array();
  for (const TreeSpec& t : trees) {
    auto rows = nlohmann::ordered_json::array();
    for (const TreeRowSpec& r : t.rows) {
      auto dirs = nlohmann::ordered_json::array();
      for (Direction d : r.dirs) dirs.push_back(d.name());
      rows.push_back({{"node", r.node},
                      {"root", r.root},
                      {"to_root", r.to_root},
                      {"pe", r.pe},
                      {"dirs", dirs}});
    }
    out.push_back({{"id", t.id}, {"rows", rows}});
  }
  return out;
}

template <typename T>
nlohmann::ordered_json json_value(const T& value) {
  if constexpr (std::is_enum_v<T>) {
    for (const auto& [name, each] : names_of(T{}).names) {
      if (each == value) return std::string(name);
    }
    return nullptr;  // unreachable while every enumerator has a name
  } else {
    return value;
  }
}

}  // namespace angara::config_values
