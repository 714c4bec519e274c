#include "platform/machine/rtl_blocks.h"

#include "collectives/rtl/rtl_reducer.h"
#include "collectives/rtl/rtl_vcup.h"
#include "models/router/router_at.h"

namespace angara {

void check_rtl_built(const RtlParams&) {}

std::unique_ptr<ReducerBlock> make_rtl_reducer(const std::string& name, const std::string& where,
                                               const CollectiveParams& params,
                                               const FabricClock& clock, RtlReducerStats& stats,
                                               std::uint32_t flop_seed, BlockImpl impl,
                                               RtlRecording* recording) {
  return std::make_unique<RtlReducer>(name.c_str(), where, params, clock, stats, flop_seed,
                                      impl == BlockImpl::Drive, recording);
}

std::unique_ptr<sc_core::sc_module> make_rtl_vcup(const std::string& name, const std::string& where,
                                                  RouterAt& router, const TreeSet& trees,
                                                  const FabricClock& clock, RtlVcUpStats& stats,
                                                  std::uint32_t flop_seed, BlockImpl impl,
                                                  RtlRecording* recording) {
  const bool drives = impl == BlockImpl::Drive;
  auto vcup = std::make_unique<RtlVcUp>(name.c_str(), where, router.core(), trees, clock, stats,
                                        flop_seed, drives, recording);
  router.set_probe(vcup.get());
  if (drives) router.set_vcup_driver(*vcup);
  return vcup;
}

}  // namespace angara
