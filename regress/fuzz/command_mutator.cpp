#include "regress/fuzz/command_mutator.h"

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "models/core/rng.h"

namespace angara::fuzz {
namespace {

// Hostile values. Paths name only the scratch directory's own things, never the machine's files:
// a tool that wrongly accepted one must not damage anything outside.
const std::vector<std::string>& hostile_values() {
  static const std::vector<std::string> values = [] {
    std::vector<std::string> v{
        // files a careless path names
        "fifo", "adir", "adir/", "link", "victim.txt", "config.toml", "sweep.toml", "a.vcd",
        "missing/dir/x.json", ".", "..", "/", "/dev/null", "/dev/zero", "-", "--",
        // shell and gnuplot commands
        "$(touch PWNED)", "`touch PWNED`", ";touch PWNED", "x|touch PWNED", "x && touch PWNED",
        "x\ntouch PWNED", "'; system(\"touch PWNED\"); '", "\"; system(\"touch PWNED\") #",
        "x' . system('touch PWNED') . '", "!touch PWNED", "it's", "a\"b",
        // numbers
        "", " ", "0", "-1", "-0", "2147483648", "-2147483649", "18446744073709551616", "1e999",
        "-1e999", "nan", "inf", "0x10", "1.5", "007", "+3",
        // text
        "a b", "\t", "x\ny", std::string("\x01\x02", 2), "\xff\xfe", "caf\xc3\xa9", "%s%n%x",
        "{router.deadlock}", "[1,2", "a=b=c", std::string(5000, 'a')};
    return v;
  }();
  return values;
}

std::string shown(const std::string& word) {
  std::string out;
  for (const unsigned char c : word.substr(0, 60)) {
    if (c < 0x20 || c >= 0x7f) {
      out += fmt::format("\\x{:02x}", c);
    } else {
      out += static_cast<char>(c);
    }
  }
  return "\"" + out + (word.size() > 60 ? "...\"" : "\"");
}

}  // namespace

std::vector<Command> read_commands(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::vector<Command> commands;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    Command command;
    if (!(words >> command.tool) || command.tool[0] == '#') continue;
    for (std::string word; words >> word;) command.words.push_back(word);
    commands.push_back(std::move(command));
  }
  if (commands.empty()) throw std::runtime_error("no commands in " + path);
  return commands;
}

namespace {

// The command a seed's flags belong to: the tool and its command word.
std::string command_of(const Command& command) {
  return command.tool + " " + (command.words.empty() ? "" : command.words[0]);
}

}  // namespace

CommandMutator::CommandMutator(std::vector<Command> seeds) : m_seeds(std::move(seeds)) {
  std::map<std::string, std::set<std::string>> flags;
  for (const Command& seed : m_seeds) {
    for (const std::string& word : seed.words) {
      if (word.size() > 1 && word[0] == '-') {
        flags[command_of(seed)].insert(word.substr(0, word.find('=')));
      }
    }
  }
  for (const auto& [command, set] : flags) m_flags[command].assign(set.begin(), set.end());
}

CommandMutant CommandMutator::make(std::uint64_t run_seed, std::uint64_t index) const {
  Rng rng(run_seed, index);
  CommandMutant mutant;
  mutant.seed = rng.uniform(m_seeds.size());
  mutant.command = m_seeds[mutant.seed];
  std::vector<std::string>& words = mutant.command.words;
  const auto& values = hostile_values();
  const auto value = [&] { return values[rng.uniform(values.size())]; };
  // Mostly values replaced, so that most mutants get past the command line's parser into the
  // tool; the command word itself now and then.
  const std::size_t changes = 1 + rng.uniform(2);
  // A kind of change that does not fit the command (no flags, one word) is drawn again.
  for (int tries = 0; mutant.steps.size() < changes && tries < 100; ++tries) {
    std::size_t at = words.empty() ? 0 : rng.uniform(words.size());
    if (at == 0 && words.size() > 1 && rng.uniform(10) != 0) at = 1 + rng.uniform(words.size() - 1);
    constexpr int kKinds[] = {0, 0, 0, 1, 1, 1, 2, 3, 4, 5, 5};
    switch (kKinds[rng.uniform(std::size(kKinds))]) {
      case 0:  // a word replaced (the command word too, now and then)
        if (words.empty()) break;
        words[at] = value();
        mutant.steps.push_back(fmt::format("word {} = {}", at, shown(words[at])));
        break;
      case 1:  // the value of a key=value or --flag=value word
        if (words.empty() || words[at].find('=') == std::string::npos) {
          words.push_back(value());
          mutant.steps.push_back(fmt::format("appended {}", shown(words.back())));
          break;
        }
        words[at] = words[at].substr(0, words[at].find('=') + 1) + value();
        mutant.steps.push_back(fmt::format("word {} = {}", at, shown(words[at])));
        break;
      case 2:  // a word deleted
        if (words.size() < 2) break;
        mutant.steps.push_back(fmt::format("deleted word {} {}", at, shown(words[at])));
        words.erase(words.begin() + static_cast<std::ptrdiff_t>(at));
        break;
      case 3:  // a word duplicated
        if (words.empty()) break;
        words.insert(words.begin() + static_cast<std::ptrdiff_t>(at), words[at]);
        mutant.steps.push_back(fmt::format("duplicated word {}", at));
        break;
      case 4: {  // two words swapped
        if (words.size() < 2) break;
        const std::size_t other = rng.uniform(words.size());
        std::swap(words[at], words[other]);
        mutant.steps.push_back(fmt::format("swapped words {} and {}", at, other));
        break;
      }
      default: {  // a flag of the seed's command with a hostile value
        const auto known = m_flags.find(command_of(m_seeds[mutant.seed]));
        if (known == m_flags.end()) break;
        const std::string flag = known->second[rng.uniform(known->second.size())];
        const std::string v = value();
        const auto where =
            words.begin() + static_cast<std::ptrdiff_t>(std::min(at + 1, words.size()));
        words.insert(words.insert(where, flag) + 1, v);
        mutant.steps.push_back(fmt::format("inserted {} {}", flag, shown(v)));
      }
    }
  }
  return mutant;
}

}  // namespace angara::fuzz
