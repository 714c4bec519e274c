#include "regress/support/isolated.h"

namespace angara::test {

nlohmann::json run_isolated(const std::function<nlohmann::json()>& body) {
  return nlohmann::json(run_in_child([&] { return nlohmann::ordered_json(body()); }));
}

}  // namespace angara::test
