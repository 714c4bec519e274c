#pragma once
// The RTL blocks a run puts in the machine (rtl.reducer, rtl.vcup not "model"; docs/RTL.md). Only
// these functions name them: rtl_blocks.cpp builds them in a build with RTL co-simulation (CMake
// option ANGARA_RTL), rtl_blocks_none.cpp stands in without it and refuses every one as bad
// configuration, so the machine, the tools and the installed package build without Verilator.

#include <memory>
#include <string>

#include <systemc>

#include "collectives/rtl/rtl_recording.h"
#include "collectives/rtl/rtl_stats.h"
#include "collectives/subnet/reducer_block.h"
#include "collectives/subnet/tree.h"
#include "models/core/params.h"
#include "models/timing/fabric_clock.h"
#include "platform/config/config.h"

namespace angara {

class RouterAt;

// Throws ConfigError naming the key when `rtl` asks for an RTL block and this build has none.
void check_rtl_built(const RtlParams& rtl);

// The PEGroup's Reducer as its RTL behind the transactor, checked against the model or driving
// its timing (`impl`, rtl.reducer); `where` names the node in its messages, `stats` counts what
// it compared; its flops start from random values drawn from `flop_seed` (rtl_seed.h);
// `recording`: where it records its waveform and ports (a traced node), or null.
std::unique_ptr<ReducerBlock> make_rtl_reducer(const std::string& name, const std::string& where,
                                               const CollectiveParams& params,
                                               const FabricClock& clock, RtlReducerStats& stats,
                                               std::uint32_t flop_seed, BlockImpl impl,
                                               RtlRecording* recording);

// The RTL VCUp beside the VCUp buffers of `router`, which shows it its arrivals and grants from
// now on (its probe), checked against the router's timing or driving it (`impl`, rtl.vcup);
// `recording`: where it records its waveform (a traced node), or null.
std::unique_ptr<sc_core::sc_module> make_rtl_vcup(const std::string& name, const std::string& where,
                                                  RouterAt& router, const TreeSet& trees,
                                                  const FabricClock& clock, RtlVcUpStats& stats,
                                                  std::uint32_t flop_seed, BlockImpl impl,
                                                  RtlRecording* recording);

}  // namespace angara
