#include "platform/machine/model_reports.h"

#include <systemc>

#include "models/core/model_error.h"

namespace angara {
namespace {

void to_systemc(const char* id, const std::string& message) {
  sc_core::sc_report_handler::report(sc_core::SC_ERROR, id, message.c_str(), __FILE__, __LINE__);
}

}  // namespace

void report_model_errors_to_systemc() {
  static bool installed = false;
  if (installed) return;
  installed = true;
  using sc_core::sc_report_handler;
  for (const char* id : report_id::kAll) {
    // set_actions() answers with what was set before: a host's own choice is put back.
    const sc_core::sc_actions before = sc_report_handler::set_actions(
        id, sc_core::SC_ERROR, sc_core::SC_LOG | sc_core::SC_CACHE_REPORT);
    if (before != sc_core::SC_UNSPECIFIED) {
      sc_report_handler::set_actions(id, sc_core::SC_ERROR, before);
    }
  }
  set_model_error_hook(&to_systemc);
}

}  // namespace angara
