#include "models/core/ids.h"

#include <cctype>

namespace angara {

bool parse_direction(std::string_view text, Direction& out) {
  if (text.size() != 2 || (text[0] != '+' && text[0] != '-')) return false;
  const char dim = static_cast<char>(std::toupper(static_cast<unsigned char>(text[1])));
  for (int d = 0; d < kMaxDims; ++d) {
    if (kDimNames[d] == dim) {
      out = {d, text[0] == '-'};
      return true;
    }
  }
  return false;
}

}  // namespace angara
