#include "regress/fuzz/loader_verdict.h"

#include <exception>
#include <typeinfo>

#include <fmt/format.h>

#include "models/core/config_error.h"
#include "models/topology/torus.h"
#include "platform/config/config_loader.h"
#include "platform/machine/tree_plan.h"

namespace angara::fuzz {
namespace {

// A ConfigError's key names something the user can find: a section of the format
// ("router.vcs", "collective.tree[0].id", "collective") or a key the text itself has (an
// unknown "routers.speed").
bool names_a_key(const std::string& key, const std::string& text) {
  static const auto sections = config_to_json(Config{});
  const auto first = key.substr(0, key.find_first_of(".[ ("));
  // [[partition]] is a section too, though a config without partitions writes none.
  if (!first.empty() && (sections.contains(first) || first == "partition")) return true;
  const auto leaf = key.substr(key.find_last_of('.') + 1);
  return text.find(leaf) != std::string::npos;
}

LoaderOutcome failed(std::string what) {
  return {Verdict::Failed, std::move(what), {}, std::nullopt};
}

// The loader's answer, judged: a ConfigError must name the file (syntax) or a key.
LoaderOutcome refused(const ConfigError& error, const std::string& text, const std::string& origin,
                      Verdict verdict) {
  if (verdict == Verdict::Rejected && error.key() == origin) {
    return {Verdict::SyntaxError, error.what(), error.key(), std::nullopt};
  }
  if (!names_a_key(error.key(), text)) {
    return failed(fmt::format("a ConfigError naming no key ('{}'): {}", error.key(), error.what()));
  }
  return {verdict, error.what(), error.key(), std::nullopt};
}

std::string escaped(const std::exception& error, const char* where) {
  return fmt::format("{} threw {} (not a ConfigError): {}", where, typeid(error).name(),
                     error.what());
}

}  // namespace

std::string_view verdict_name(Verdict verdict) {
  switch (verdict) {
    case Verdict::SyntaxError:
      return "not TOML (syntax error, line and column named)";
    case Verdict::Rejected:
      return "rejected, a ConfigError naming the key";
    case Verdict::TreeRejected:
      return "loaded, a tree refused by the tree validator";
    case Verdict::Accepted:
      return "accepted (trees built, config written and loaded back)";
    case Verdict::Failed:
      return "FAILED";
  }
  return "?";
}

LoaderOutcome judge_config_text(const std::string& text, const std::string& origin) {
  LoaderOutcome outcome{Verdict::Accepted, "", "", std::nullopt};
  try {
    outcome.config = load_config(text, origin, {});
  } catch (const ConfigError& error) {
    return refused(error, text, origin, Verdict::Rejected);
  } catch (const std::exception& error) {
    return failed(escaped(error, "load_config"));
  }
  const Config& config = *outcome.config;
  try {
    if (config.topology.torus()) plan_trees(config, Torus(config.topology.dims));
  } catch (const ConfigError& error) {
    return refused(error, text, origin, Verdict::TreeRejected);
  } catch (const std::exception& error) {
    return failed(escaped(error, "plan_trees"));
  }
  // config_loader.h promises that the resolved TOML loads back to the same config.
  try {
    const std::string resolved = config_to_toml(config);
    if (config_to_json(load_config(resolved, "resolved", {})) != config_to_json(config)) {
      return failed("config_to_toml wrote a config that loads back different:\n" + resolved);
    }
    unused_keys(config);
  } catch (const ConfigError& error) {
    return failed(fmt::format("config_to_toml wrote a config that does not load back: {}\n{}",
                              error.what(), config_to_toml(config)));
  } catch (const std::exception& error) {
    return failed(escaped(error, "config_to_toml or unused_keys"));
  }
  return outcome;
}

}  // namespace angara::fuzz
