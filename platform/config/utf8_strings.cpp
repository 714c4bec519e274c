#include "platform/config/utf8_strings.h"

#include <fmt/format.h>

#include "models/core/config_error.h"

namespace angara {
namespace {

// `text` with every byte outside printable ASCII as \xNN, for a message.
std::string escaped(std::string_view text) {
  std::string out;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    out += byte >= 0x20 && byte < 0x7f ? std::string(1, c) : fmt::format("\\x{:02x}", byte);
  }
  return out;
}

void check_node(const toml::node& node, const std::string& key) {
  if (const auto* table = node.as_table()) {
    for (const auto& [name, child] : *table) {
      check_node(child,
                 key.empty() ? std::string(name.str()) : key + "." + std::string(name.str()));
    }
  } else if (const auto* array = node.as_array()) {
    for (std::size_t i = 0; i < array->size(); ++i) {
      check_node(*array->get(i), fmt::format("{}[{}]", key, i));
    }
  } else if (const auto* text = node.as_string()) {
    const std::string_view value = text->get();
    if (const auto at = invalid_utf8_at(value); at != std::string_view::npos) {
      throw ConfigError(key, fmt::format("\"{}\"", escaped(value)),
                        fmt::format("is not valid UTF-8 (byte {} of {}): config strings go into "
                                    "the results JSON, which must be UTF-8",
                                    at + 1, value.size()));
    }
  }
}

}  // namespace

std::size_t invalid_utf8_at(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned lead = byte(i);
    std::size_t length = 0;
    unsigned low = 0x80, high = 0xbf;  // the range of the second byte
    if (lead < 0x80) {
      length = 1;
    } else if (lead >= 0xc2 && lead <= 0xdf) {
      length = 2;
    } else if (lead >= 0xe0 && lead <= 0xef) {
      length = 3;
      if (lead == 0xe0) low = 0xa0;   // overlong
      if (lead == 0xed) high = 0x9f;  // surrogates
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      length = 4;
      if (lead == 0xf0) low = 0x90;   // overlong
      if (lead == 0xf4) high = 0x8f;  // past U+10FFFF
    } else {
      return i;
    }
    if (i + length > text.size()) return i;
    for (std::size_t k = 1; k < length; ++k) {
      const unsigned b = byte(i + k);
      if (b < (k == 1 ? low : 0x80) || b > (k == 1 ? high : 0xbf)) return i;
    }
    i += length;
  }
  return std::string_view::npos;
}

void check_utf8_strings(const toml::table& root) {
  check_node(root, "");
}

}  // namespace angara
