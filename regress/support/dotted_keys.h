#pragma once
// Every key of every section of a config's JSON form, in file order, as "section.key".

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace angara::test {

inline std::vector<std::string> dotted_keys(const nlohmann::ordered_json& json) {
  std::vector<std::string> keys;
  for (const auto& [section, table] : json.items()) {
    for (const auto& [key, value] : table.items()) keys.push_back(section + "." + key);
  }
  return keys;
}

}  // namespace angara::test
