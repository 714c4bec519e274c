#pragma once
// Mutants of valid configs for the loader fuzzer: each one a seed config with one to four
// changes a hostile or careless user might make, in the parsed TOML (keys deleted, swapped,
// unknown or set to boundary values and wrong types, arrays of the wrong length, tree rows
// broken) or in the text itself (truncated, random bytes, lines deleted, duplicated or swapped).

#include <cstdint>
#include <string>
#include <vector>

#include <toml++/toml.h>

namespace angara::fuzz {

// A config to mutate: its text, which must parse, and where it came from.
struct Seed {
  std::string name;
  std::string text;
};

// One mutant: the text to load and, for a person reproducing it, what was done to which seed.
struct Mutant {
  std::size_t seed = 0;            // index into the mutator's seeds
  std::string text;                // the mutated config
  std::vector<std::string> steps;  // each change, e.g. "router.vcs = -1", "truncated to 120 bytes"
};

class ConfigMutator {
 public:
  // `seeds` must parse as TOML; `complete_config` is a config naming every key (config_to_toml of
  // the defaults), the source of keys a seed leaves out.
  ConfigMutator(std::vector<Seed> seeds, const std::string& complete_config);

  // Mutant `index` of run `run_seed`: a function of the two numbers alone, so a reported mutant
  // can be made again without the ones before it.
  Mutant make(std::uint64_t run_seed, std::uint64_t index) const;

  const std::vector<Seed>& seeds() const { return m_seeds; }

 private:
  std::vector<Seed> m_seeds;
  std::vector<toml::table> m_parsed;  // m_seeds parsed
  toml::table m_complete;             // every key with its default
  toml::array m_values;               // values to put anywhere: boundaries, wrong types, seeds'
  toml::array m_trees;                // the seeds' [[collective.tree]] tables
};

}  // namespace angara::fuzz
