#include "regress/fuzz/config_mutator.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <sstream>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "models/core/rng.h"
#include "platform/config/config_values.h"

namespace angara::fuzz {
namespace {

// Values at the edges of the config's ranges and types, as one TOML array: zero, -1, the limits
// of 32- and 64-bit integers, the largest and smallest doubles, inf, nan, empty and odd strings,
// arrays of the wrong length or element type, tables and dates where nothing takes them.
constexpr std::string_view kBoundaryValues = R"([
  0, -1, 1, 2, 3, 15, 16, 17, 33, 34, 64, 65536, 65537, 2147483647, 2147483648, -2147483648,
  4294967296, 1000000000000, 1000000000001, 9007199254740993, 9223372036854775807,
  -9223372036854775808,
  0.0, -0.0, -1.0, 0.5, 1.5, 1e-308, 5e-324, 1e308, -1e308, 1e12, inf, -inf, nan,
  "", "x", " bubble", "\u0000", "\u00e9", true, false,
  [], [0], [-1], [2, 2], [1, 1], [65536, 65536, 65536, 65536], [2147483647, 2], [0.5], [""],
  [true], [[]], [[0, 0, 0]], [[-1, 0]], [[0, 0], [0, 0]], [1, "x"], {}, { x = 1 },
  1979-05-27, 1979-05-27T07:32:00Z, 07:32:00])";

// Spellings of the config's enumerations, direction and block names: values that pass the type
// check, so that mutants reach the rules that tie keys together.
constexpr std::string_view kWords = R"(
  torus fat_tree cayley circulant star pancake hop_classes bubble dateline none dimension_order adaptive synthetic collective msgrate
  pingpong software spmv heat broadcast reduce allreduce allgather sum min max tree binomial
  recursive_doubling subnet at lt model rtl flat roofline table uniform local hotspot transpose
  bit_complement bit_reverse shuffle tornado neighbour random_permutation fft3d bernoulli poisson
  on_off 8b10b 128b130b +X -X +Y -Y +Z -Z +W -W X Y Z W link vcup reducer credit vct wormhole)";

const std::vector<std::string>& words() {
  static const std::vector<std::string> split = [] {
    std::vector<std::string> out;
    std::istringstream in{std::string(kWords)};
    for (std::string word; in >> word;) out.push_back(word);
    return out;
  }();
  return split;
}

// Keys no section has, some a slip of a real one.
constexpr std::string_view kUnknownKeys[] = {"bogus",     "Kind",       "dim",    "kind ",
                                             "clock_MHz", "",           "rows.x", "tree",
                                             "origin",    "partitions", "fail_at"};

constexpr std::size_t kShownChars = 80;  // of a value in a step's description

toml::node& value_of(toml::table& holder) {
  return *holder.get("v");
}

// Parses a value written in TOML syntax into `into` (a table holding it as "v").
void add_value(toml::array& into, const std::string& text) {
  toml::table parsed = toml::parse("v = " + text);
  into.push_back(value_of(parsed));
}

std::string shown(const toml::node& node) {
  std::string text = config_values::written(node);
  if (text.size() > kShownChars) text = text.substr(0, kShownChars) + "...";
  return text;
}

// Where a value sits: a key of a table or an element of an array, named as the error messages
// name it ("collective.tree[0].rows[2].node").
struct Slot {
  std::string name;
  toml::table* table = nullptr;
  std::string key;
  toml::array* array = nullptr;
  std::size_t index = 0;

  toml::node& node() const { return table != nullptr ? *table->get(key) : *array->get(index); }
  void set(const toml::node& value) const {
    if (table != nullptr) {
      table->insert_or_assign(key, value);
    } else {
      array->replace(array->cbegin() + static_cast<std::ptrdiff_t>(index), value);
    }
  }
  void erase() const {
    if (table != nullptr) {
      table->erase(key);
    } else {
      array->erase(array->cbegin() + static_cast<std::ptrdiff_t>(index));
    }
  }
};

void collect(toml::node& node, const std::string& name, std::vector<Slot>& out) {
  if (auto* table = node.as_table()) {
    for (auto&& [key, value] : *table) {
      Slot slot{name.empty() ? std::string(key.str()) : name + "." + std::string(key.str()), table,
                std::string(key.str())};
      out.push_back(slot);
      collect(value, slot.name, out);
    }
  } else if (auto* array = node.as_array()) {
    for (std::size_t i = 0; i < array->size(); ++i) {
      Slot slot{fmt::format("{}[{}]", name, i), nullptr, {}, array, i};
      out.push_back(slot);
      collect(*array->get(i), slot.name, out);
    }
  }
}

std::vector<Slot> slots_of(toml::table& root, std::string_view under = {}) {
  std::vector<Slot> all;
  collect(root, "", all);
  std::erase_if(all, [&](const Slot& s) { return !s.name.starts_with(under); });
  return all;
}

// One mutant in the making: the parsed seed, the generator and the mutator's pools.
class Mutation {
 public:
  Mutation(toml::table root, Rng& rng, const toml::table& complete, const toml::array& values,
           const toml::array& trees)
      : m_root(std::move(root)),
        m_rng(rng),
        m_complete(complete),
        m_values(values),
        m_trees(trees) {}

  // Applies one change to the parsed config and says what it was; "" if the change chosen
  // found nothing to change (the caller draws again).
  std::string step() {
    switch (m_rng.uniform(10)) {
      case 0:
      case 1:
        return replace_value();
      case 2:
        return perturb_number(any_slot());
      case 3:
        return set_known_key();
      case 4:
        return delete_slot();
      case 5:
        return swap_values();
      case 6:
        return resize_array();
      case 7:
        return m_rng.uniform(2) == 0 ? unknown_key() : change_type();
      default:
        return tree_step();
    }
  }

  std::string text() const {
    std::ostringstream out;
    out << toml::toml_formatter(m_root);
    return out.str();
  }

 private:
  template <typename T>
  const T& pick(const std::vector<T>& items) {
    return items[m_rng.uniform(items.size())];
  }
  const toml::node& pool_value() { return *m_values.get(m_rng.uniform(m_values.size())); }

  std::optional<Slot> any_slot(std::string_view under = {}) {
    auto slots = slots_of(m_root, under);
    if (slots.empty()) return std::nullopt;
    return pick(slots);
  }

  std::string replace_value() {
    const auto slot = any_slot();
    if (!slot) return "";
    const toml::node& value = pool_value();
    slot->set(value);
    return fmt::format("{} = {}", slot->name, shown(value));
  }

  // A number moved a little or a lot: off by one, doubled, negated, scaled by 1000.
  std::string perturb_number(const std::optional<Slot>& slot) {
    if (!slot) return "";
    toml::node& node = slot->node();
    if (auto* integer = node.as_integer()) {
      static constexpr std::int64_t kFactors[] = {1, 1, 1, 2, -1, 1000};
      static constexpr std::int64_t kOffsets[] = {-1, 1, 0, 0, 0, 0};
      const auto i = m_rng.uniform(std::size(kFactors));
      // Wraps like the hardware would; the loader must cope with whatever comes out.
      const auto value = static_cast<std::int64_t>(static_cast<std::uint64_t>(integer->get()) *
                                                       static_cast<std::uint64_t>(kFactors[i]) +
                                                   static_cast<std::uint64_t>(kOffsets[i]));
      slot->set(toml::value<std::int64_t>(value));
    } else if (auto* real = node.as_floating_point()) {
      static constexpr double kFactors[] = {-1.0, 0.5, 2.0, 1e6, 1e-6, 1.0};
      const double v = real->get() * kFactors[m_rng.uniform(std::size(kFactors))];
      slot->set(toml::value<double>(m_rng.uniform(4) == 0 ? std::nextafter(v, 0.0) : v));
    } else {
      return "";
    }
    return fmt::format("{} = {}", slot->name, shown(slot->node()));
  }

  // A key of the format, perhaps one the seed leaves out, set to a pool value or its default
  // moved a little.
  std::string set_known_key() {
    struct Known {
      std::string section, key;
      const toml::node* value;
    };
    std::vector<Known> known;
    for (auto&& [section, keys] : m_complete) {
      for (auto&& [key, value] : *keys.as_table()) {
        known.push_back({std::string(section.str()), std::string(key.str()), &value});
      }
    }
    const Known& spec = pick(known);
    auto* table = m_root.insert(spec.section, toml::table{}).first->second.as_table();
    if (table == nullptr) return "";
    Slot slot{spec.section + "." + spec.key, table, spec.key};
    slot.set(m_rng.uniform(2) == 0 ? pool_value() : *spec.value);
    if (m_rng.uniform(2) == 0 && !perturb_number(slot).empty()) return slot.name + " (moved)";
    return fmt::format("{} = {}", slot.name, shown(slot.node()));
  }

  std::string delete_slot() {
    const auto slot = any_slot();
    if (!slot) return "";
    slot->erase();
    return "deleted " + slot->name;
  }

  std::string swap_values() {
    const auto a = any_slot();
    const auto b = any_slot();
    if (!a || !b || a->name.starts_with(b->name) || b->name.starts_with(a->name)) return "";
    toml::array copies;
    copies.push_back(a->node());
    copies.push_back(b->node());
    a->set(*copies.get(1));
    b->set(*copies.get(0));
    return fmt::format("swapped {} and {}", a->name, b->name);
  }

  std::string resize_array() {
    auto slots = slots_of(m_root);
    std::erase_if(slots, [](const Slot& s) { return !s.node().is_array(); });
    if (slots.empty()) return "";
    const Slot& slot = pick(slots);
    toml::array& array = *slot.node().as_array();
    const auto at = array.cbegin() +
                    static_cast<std::ptrdiff_t>(array.empty() ? 0 : m_rng.uniform(array.size()));
    switch (m_rng.uniform(4)) {
      case 0:
        if (array.empty()) return "";
        array.erase(at);
        return fmt::format("{}: one element fewer", slot.name);
      case 1: {
        if (array.empty()) return "";
        toml::array copy;  // not a reference into the array that grows
        copy.push_back(*at);
        array.insert(at, *copy.get(0));
        return fmt::format("{}: an element repeated", slot.name);
      }
      case 2:
        array.insert(at, pool_value());
        return fmt::format("{}: one element more", slot.name);
      default:
        array.clear();
        return fmt::format("{} = []", slot.name);
    }
  }

  std::string unknown_key() {
    auto slots = slots_of(m_root);
    std::erase_if(slots, [](const Slot& s) { return !s.node().is_table(); });
    const std::string key(kUnknownKeys[m_rng.uniform(std::size(kUnknownKeys))]);
    const toml::node& value = pool_value();
    if (slots.empty() || m_rng.uniform(4) == 0) {
      m_root.insert_or_assign(key, value);  // a section of that name, or a key outside any
      return fmt::format("{} = {} at the top", key, shown(value));
    }
    const Slot& slot = pick(slots);
    slot.node().as_table()->insert_or_assign(key, value);
    return fmt::format("{}.{} = {}", slot.name, key, shown(value));
  }

  // A value as another type: wrapped in an array, an array's first element, written as a string.
  std::string change_type() {
    const auto slot = any_slot();
    if (!slot) return "";
    toml::node& node = slot->node();
    if (auto* array = node.as_array(); array != nullptr && !array->empty()) {
      toml::array first;
      first.push_back(*array->get(0));
      slot->set(*first.get(0));
    } else if (m_rng.uniform(2) == 0) {
      toml::array wrapped;
      wrapped.push_back(node);
      slot->set(wrapped);
    } else {
      slot->set(toml::value<std::string>(config_values::written(node)));
    }
    return fmt::format("{} = {}", slot->name, shown(slot->node()));
  }

  // The tree loader's input: a seed's [[collective.tree]] added where there is none, or one
  // row or field of a tree changed, repeated or reordered.
  std::string tree_step() {
    auto* collective = m_root.insert("collective", toml::table{}).first->second.as_table();
    if (collective == nullptr || m_trees.empty()) return "";
    if (!collective->contains("tree") || m_rng.uniform(8) == 0) {
      toml::array trees;
      trees.push_back(*m_trees.get(m_rng.uniform(m_trees.size())));
      collective->insert_or_assign("tree", trees);
      return "collective.tree = a seed's tree";
    }
    auto rows = slots_of(m_root, "collective.tree");
    std::erase_if(rows,
                  [](const Slot& s) { return !s.name.ends_with("rows") || !s.node().is_array(); });
    const auto field = any_slot("collective.tree");
    switch (m_rng.uniform(5)) {
      case 0: {  // a direction name where one is, or a new one in a row
        if (!field) return "";
        const toml::value<std::string> word(pick(words()));
        if (field->node().is_array() && !field->name.ends_with("node") &&
            !field->name.ends_with("rows")) {
          field->node().as_array()->push_back(word);
          return fmt::format("{}: {} added", field->name, shown(word));
        }
        field->set(word);
        return fmt::format("{} = {}", field->name, shown(word));
      }
      case 1: {  // a boolean turned, a coordinate or id moved
        if (!field) return "";
        if (const auto* flag = field->node().as_boolean()) {
          const bool turned = !flag->get();  // read before set() frees the node
          field->set(toml::value<bool>(turned));
          return fmt::format("{} = {}", field->name, turned);
        }
        return perturb_number(field);
      }
      case 2: {  // a row repeated
        if (rows.empty()) return "";
        const Slot& slot = pick(rows);
        toml::array& array = *slot.node().as_array();
        if (array.empty()) return "";
        const auto from = m_rng.uniform(array.size());
        toml::array copy;
        copy.push_back(*array.get(from));
        array.push_back(*copy.get(0));
        return fmt::format("{}[{}] repeated", slot.name, from);
      }
      case 3: {  // rows in another order: the same tree, which must load the same
        if (rows.empty()) return "";
        const Slot& slot = pick(rows);
        toml::array& array = *slot.node().as_array();
        toml::array shuffled;
        std::vector<std::size_t> order(array.size());
        for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
        for (std::size_t i = order.size(); i > 1; --i) {
          std::swap(order[i - 1], order[m_rng.uniform(i)]);
        }
        for (std::size_t i : order) shuffled.push_back(*array.get(i));
        slot.set(shuffled);
        return slot.name + " reordered";
      }
      default:
        return field ? (m_rng.uniform(2) == 0 ? delete_slot_at(*field) : replace_at(*field)) : "";
    }
  }

  std::string delete_slot_at(const Slot& slot) {
    slot.erase();
    return "deleted " + slot.name;
  }
  std::string replace_at(const Slot& slot) {
    const toml::node& value = pool_value();
    slot.set(value);
    return fmt::format("{} = {}", slot.name, shown(value));
  }

  toml::table m_root;
  Rng& m_rng;
  const toml::table& m_complete;
  const toml::array& m_values;
  const toml::array& m_trees;
};

// A change to the text itself: what no parsed table can hold (a duplicate key, a cut line,
// bytes that are not UTF-8).
std::string text_step(std::string& text, Rng& rng) {
  const std::size_t at = text.empty() ? 0 : rng.uniform(text.size());
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  const auto join = [&] {
    std::string out;
    for (const auto& line : lines) out += line + "\n";
    return out;
  };
  switch (rng.uniform(6)) {
    case 0:
      text.resize(at);
      return fmt::format("truncated to {} bytes", at);
    case 1: {
      std::string bytes;
      for (auto n = 1 + rng.uniform(8); n > 0; --n) bytes += static_cast<char>(rng.uniform(256));
      text.insert(at, bytes);
      return fmt::format("{} random bytes at byte {}", bytes.size(), at);
    }
    case 2:
      if (text.empty()) return "";
      text[at] = static_cast<char>(rng.uniform(256));
      return fmt::format("byte {} replaced", at);
    case 3: {
      if (lines.empty()) return "";
      const auto line = rng.uniform(lines.size());
      lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(line));
      text = join();
      return fmt::format("line {} deleted", line + 1);
    }
    case 4: {  // a key or a section header given twice
      if (lines.empty()) return "";
      const auto line = rng.uniform(lines.size());
      lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(line), lines[line]);
      text = join();
      return fmt::format("line {} repeated", line + 1);
    }
    default: {
      if (lines.size() < 2) return "";
      const auto a = rng.uniform(lines.size());
      const auto b = rng.uniform(lines.size());
      std::swap(lines[a], lines[b]);
      text = join();
      return fmt::format("lines {} and {} swapped", a + 1, b + 1);
    }
  }
}

}  // namespace

ConfigMutator::ConfigMutator(std::vector<Seed> seeds, const std::string& complete_config)
    : m_seeds(std::move(seeds)), m_complete(toml::parse(complete_config)) {
  toml::table boundaries = toml::parse("v = " + std::string(kBoundaryValues));
  for (auto&& value : *value_of(boundaries).as_array()) m_values.push_back(value);
  for (const auto& word : words()) m_values.push_back(toml::value<std::string>(word));
  add_value(m_values, "\"" + std::string(10000, 'x') + "\"");
  std::string many = "[";
  for (int i = 0; i < 1000; ++i) many += "2, ";
  add_value(m_values, many + "]");
  for (const auto& seed : m_seeds) {
    m_parsed.push_back(toml::parse(seed.text, seed.name));
    // Every value of every seed, so that a key may get a value that is right for another key.
    for (const Slot& slot : slots_of(m_parsed.back())) {
      if (!slot.node().is_table()) m_values.push_back(slot.node());
    }
    if (const auto* trees = m_parsed.back()["collective"]["tree"].as_array()) {
      for (const auto& tree : *trees) m_trees.push_back(tree);
    }
  }
}

Mutant ConfigMutator::make(std::uint64_t run_seed, std::uint64_t index) const {
  Rng rng(run_seed, index);
  Mutant mutant;
  mutant.seed = static_cast<std::size_t>(index % m_seeds.size());
  // Four in five get changes to the parsed config: one, two, three or four.
  const bool parsed = rng.uniform(5) != 0;
  const auto changes = parsed ? 1 + (rng.uniform(2) == 0 ? 0 : rng.uniform(4)) : 0;
  Mutation mutation(m_parsed[mutant.seed], rng, m_complete, m_values, m_trees);
  for (std::uint64_t made = 0, tries = 0; made < changes && tries < 50; ++tries) {
    if (auto step = mutation.step(); !step.empty()) {
      mutant.steps.push_back(std::move(step));
      ++made;
    }
  }
  mutant.text = parsed ? mutation.text() : m_seeds[mutant.seed].text;
  // One in four of those, and all the others, also get a change to the text.
  if (!parsed || rng.uniform(4) == 0) {
    for (int tries = 0; tries < 10; ++tries) {
      if (auto step = text_step(mutant.text, rng); !step.empty()) {
        mutant.steps.push_back(std::move(step));
        break;
      }
    }
  }
  return mutant;
}

}  // namespace angara::fuzz
