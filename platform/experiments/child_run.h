#pragma once
// A SystemC kernel elaborates once per process, so a run that must not share one (a partition of
// a re-cabled machine, a test's simulation) runs in a forked child that hands back JSON through a
// pipe; an exception in the child comes back as a ChildError naming its type.

#include <functional>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

namespace angara {

class ChildError : public std::runtime_error {
 public:
  ChildError(std::string type, const std::string& what)
      : std::runtime_error(what), m_type(std::move(type)) {}
  // "ConfigError", "ModelError" or "exception" (what the child threw), or "crash" (it died
  // without an answer: a signal, an exit of its own).
  const std::string& type() const { return m_type; }

 private:
  std::string m_type;
};

// Runs `body` in a child process forked from this one (which must not have elaborated anything
// that the child would run into) and returns what it returned; the caller waits.
nlohmann::ordered_json run_in_child(const std::function<nlohmann::ordered_json()>& body);

}  // namespace angara
