// A build without RTL co-simulation (CMake option ANGARA_RTL off, docs/RTL.md): no RTL block
// exists, and a config that asks for one is refused before anything is elaborated.

#include "platform/machine/rtl_blocks.h"

#include "models/core/config_error.h"
#include "platform/config/config_values.h"

namespace angara {
namespace {

[[noreturn]] void refuse(const char* key, BlockImpl impl) {
  throw ConfigError(key, config_values::json_value(impl).dump(),
                    "this build has no RTL co-simulation (configure with -DANGARA_RTL=ON; needs "
                    "verilator)");
}

}  // namespace

void check_rtl_built(const RtlParams& rtl) {
  if (rtl.reducer != BlockImpl::Model) refuse("rtl.reducer", rtl.reducer);
  if (rtl.vcup != BlockImpl::Model) refuse("rtl.vcup", rtl.vcup);
}

std::unique_ptr<ReducerBlock> make_rtl_reducer(const std::string&, const std::string&,
                                               const CollectiveParams&, const FabricClock&,
                                               RtlReducerStats&, std::uint32_t, BlockImpl impl,
                                               RtlRecording*) {
  refuse("rtl.reducer", impl);
}

std::unique_ptr<sc_core::sc_module> make_rtl_vcup(const std::string&, const std::string&, RouterAt&,
                                                  const TreeSet&, const FabricClock&, RtlVcUpStats&,
                                                  std::uint32_t, BlockImpl impl, RtlRecording*) {
  refuse("rtl.vcup", impl);
}

}  // namespace angara
