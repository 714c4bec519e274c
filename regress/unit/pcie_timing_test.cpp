#include "models/pcie/pcie_timing.h"

#include <gtest/gtest.h>

#include "models/core/config_error.h"

namespace angara {
namespace {

// Table 1: gen2 x16, 8b/10b: 16 x 5 GT/s x 0.8 = 64 Gbit/s of data.
TEST(PcieTiming, Gen2X16CarriesSixtyFourGigabitsOfData) {
  const PcieTiming t{PcieParams{}};
  EXPECT_DOUBLE_EQ(t.data_gbps(), 64.0);
}

TEST(PcieTiming, PayloadIsCutIntoTlpsEachWithItsOverhead) {
  const PcieTiming t{PcieParams{}};  // 256-byte TLPs, 24 bytes each beside the payload
  EXPECT_EQ(t.tlps(0), 1u);
  EXPECT_EQ(t.tlps(8), 1u);
  EXPECT_EQ(t.tlps(256), 1u);
  EXPECT_EQ(t.tlps(257), 2u);
  EXPECT_EQ(t.tlps(4096), 16u);
  EXPECT_EQ(t.wire_bytes(256), 280u);
  EXPECT_EQ(t.wire_bytes(4096), 4096u + 16 * 24);
}

TEST(PcieTiming, TransferTimeIsLatencyPlusWireBytesAtTheDataRate) {
  const PcieTiming t{PcieParams{}};
  EXPECT_DOUBLE_EQ(t.serialization_ns(256), 280 * 8 / 64.0);  // 35 ns
  EXPECT_DOUBLE_EQ(t.transfer_ns(256), 300.0 + 35.0);
  EXPECT_DOUBLE_EQ(t.transfer_ns(8), 300.0 + 32 * 8 / 64.0);
}

// Payload throughput: 256 of every 280 bytes, 58.5 Gbit/s, below a 75 Gbit/s link: the PCIe
// link is the narrowest for long messages; short ones pay the overhead of a whole TLP.
TEST(PcieTiming, PayloadThroughputIsBelowTheNetworkLinkAndFallsForShortTransfers) {
  const PcieTiming t{PcieParams{}};
  EXPECT_NEAR(t.payload_gbps(256), 64.0 * 256 / 280, 1e-9);
  EXPECT_LT(t.payload_gbps(4096), 75.0);
  EXPECT_LT(t.payload_gbps(8), t.payload_gbps(64));
  EXPECT_LT(t.payload_gbps(64), t.payload_gbps(256));
}

TEST(PcieTiming, Gen3UsesTheLighterLineCode) {
  PcieParams gen3;
  gen3.transfer_gtps = 8.0;
  gen3.encoding = PcieEncoding::B128b130b;
  EXPECT_NEAR(PcieTiming(gen3).data_gbps(), 16 * 8.0 * 128 / 130, 1e-9);
}

TEST(PcieTiming, BadParametersNameTheKey) {
  PcieParams p;
  p.lanes = 3;
  EXPECT_THROW(p.validate(), ConfigError);
  try {
    p.validate();
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key(), "pcie.lanes");
  }
  p = PcieParams{};
  p.max_payload_bytes = 300;
  try {
    p.validate();
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key(), "pcie.max_payload_bytes");
  }
}

}  // namespace
}  // namespace angara
