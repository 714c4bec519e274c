#pragma once
// The one error type for bad input: names what is at fault (a config key, a command-line flag, a
// file, a directory or a key of a sweep file), the offending value and the rule.

#include <stdexcept>
#include <string>
#include <utility>

namespace angara {

class ConfigError : public std::runtime_error {
 public:
  enum class Subject { Key, Flag, File, Directory, SweepKey, Argument };

  // A config key, a flag when `key` starts with '-' ("--out"), a positional argument when it
  // starts with a capital ("DIR", as the usage line spells it).
  ConfigError(const std::string& key, const std::string& value, const std::string& rule)
      : ConfigError(key.starts_with('-')                             ? Subject::Flag
                    : !key.empty() && key[0] >= 'A' && key[0] <= 'Z' ? Subject::Argument
                                                                     : Subject::Key,
                    key, value, rule) {}

  // For a file or directory `value` says where in it, if anywhere ("line 3, column 5").
  ConfigError(Subject subject, std::string name, const std::string& value, const std::string& rule)
      : std::runtime_error(message(subject, name, value, rule)),
        m_subject(subject),
        m_key(std::move(name)),
        m_value(value),
        m_rule(rule) {}

  Subject subject() const { return m_subject; }
  // The key, flag or path at fault.
  const std::string& key() const { return m_key; }
  const std::string& value() const { return m_value; }
  const std::string& rule() const { return m_rule; }

 private:
  static std::string message(Subject subject, const std::string& name, const std::string& value,
                             const std::string& rule) {
    const bool place = subject == Subject::File || subject == Subject::Directory;
    const char* what[] = {"config key", "flag", "file", "directory", "sweep file key", "argument"};
    std::string text = std::string(what[static_cast<int>(subject)]) + " '" + name + "'";
    if (place) {
      if (!value.empty()) text += " (" + value + ")";
    } else {
      text += " = " + value;
    }
    return text + ": " + rule;
  }

  Subject m_subject;
  std::string m_key;
  std::string m_value;
  std::string m_rule;
};

}  // namespace angara
