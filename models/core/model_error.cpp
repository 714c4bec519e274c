#include "models/core/model_error.h"

namespace angara {
namespace {

ModelErrorHook g_hook = nullptr;

}  // namespace

void set_model_error_hook(ModelErrorHook hook) {
  g_hook = hook;
}

void model_error(const char* id, const std::string& message) {
  if (g_hook != nullptr) g_hook(id, message);
  throw ModelError(message);
}

void shared_model_error(const char* id, const std::string& message) {
  if (g_hook != nullptr) g_hook(id, message);
  throw SharedModelError(message);
}

}  // namespace angara
