#pragma once
// The one error type for bad configuration: names the key, the offending value and the rule.

#include <stdexcept>
#include <string>

namespace angara {

class ConfigError : public std::runtime_error {
 public:
  ConfigError(std::string key, const std::string& value, const std::string& rule)
      : std::runtime_error("config key '" + key + "' = " + value + ": " + rule),
        m_key(std::move(key)) {}

  const std::string& key() const { return m_key; }

 private:
  std::string m_key;
};

}  // namespace angara
