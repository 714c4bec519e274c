#pragma once
// SystemC elaborates once per process, so a test that simulates runs the simulation in a forked
// child: the child returns JSON through a pipe; an exception in the child comes back as
// IsolatedError with the child's message.

#include <functional>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

namespace angara::test {

class IsolatedError : public std::runtime_error {
 public:
  IsolatedError(std::string type, const std::string& what)
      : std::runtime_error(what), m_type(std::move(type)) {}
  // "ConfigError", "ModelError" or "exception".
  const std::string& type() const { return m_type; }

 private:
  std::string m_type;
};

nlohmann::json run_isolated(const std::function<nlohmann::json()>& body);

}  // namespace angara::test
