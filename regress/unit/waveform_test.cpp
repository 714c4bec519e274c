// The waveform files: the VCD the Tracer writes read back, the first difference of two, and the
// GTKWave save file and translate filter.
#include <gtest/gtest.h>

#include <sstream>

#include "models/timing/tracer.h"
#include "platform/waveform/gtkw.h"
#include "platform/waveform/vcd.h"

namespace angara {
namespace {

// Two signals under router_1_0: a 1-bit valid and a 3-bit stage, with changes at cycles 2 and 5.
std::string two_signals(std::uint64_t stage_at_5) {
  Tracer t;
  const Tracer::Signal valid = t.declare("router_1_0.link_xp", "valid", 1);
  const Tracer::Signal stage = t.declare("router_1_0.vcup_xp", "stage", 3);
  t.change(valid, 2, 1);
  t.change(stage, 2, 1);
  t.change(stage, 5, stage_at_5);
  std::ostringstream out;
  t.write_vcd(out, 2000);
  return out.str();
}

TEST(Vcd, VectorsCarryTheirBitRangeAndReadBack) {
  const std::string text = two_signals(4);
  EXPECT_NE(text.find(" stage [2:0] $end"), std::string::npos) << text;
  EXPECT_NE(text.find(" valid $end"), std::string::npos) << text;
  const Vcd vcd = parse_vcd(text);
  ASSERT_EQ(vcd.signals.size(), 2U);
  EXPECT_EQ(vcd.signals[1].name, "router_1_0.vcup_xp.stage");
  EXPECT_EQ(vcd.signals[1].width, 3);
  EXPECT_EQ(vcd.signals[1].value_at(4000), 1U);
  EXPECT_EQ(vcd.signals[1].value_at(10000), 4U);
}

TEST(Vcd, FirstDifferenceNamesSignalTimeAndValues) {
  EXPECT_FALSE(compare_vcd(parse_vcd(two_signals(4)), parse_vcd(two_signals(4))));
  const auto diff = compare_vcd(parse_vcd(two_signals(4)), parse_vcd(two_signals(3)));
  ASSERT_TRUE(diff);
  EXPECT_EQ(*diff,
            "router_1_0.vcup_xp.stage first differs at 10000 ps (10.0 ns): expected 4, got 3");
}

TEST(Vcd, UnknownBitsAndMissingFilesAreNamed) {
  std::string text = two_signals(4);
  text += "#20000\nbx1 \"\n";
  try {
    parse_vcd(text);
    FAIL() << "an x bit was read";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("value 'x1' of signal router_1_0.vcup_xp.stage"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(read_vcd("/nonexistent/a.vcd"), std::runtime_error);
}

// What the reader cannot take is an error naming the line, never a quiet end: a file read half
// way would compare "same" with another read half way.
TEST(Vcd, WhatCannotBeReadIsAnErrorNamingTheLine) {
  const std::string good = two_signals(4);
  const auto error = [](const std::string& text) -> std::string {
    try {
      parse_vcd(text);
    } catch (const std::runtime_error& e) {
      return e.what();
    }
    return "";
  };
  const auto replaced = [&](const std::string& from, const std::string& to) {
    std::string text = good;
    text.replace(text.find(from), from.size(), to);
    return text;
  };
  EXPECT_NE(error(replaced(" 3 ", " three ")).find("width 'three' is not a whole number"),
            std::string::npos);
  EXPECT_NE(error(replaced(" 3 ", " 65 ")).find("width 65"), std::string::npos);
  EXPECT_NE(error(good.substr(0, good.find("$enddefinitions"))).find("no $enddefinitions"),
            std::string::npos);
  EXPECT_NE(error("").find("no $enddefinitions"), std::string::npos);
  EXPECT_NE(error("$enddefinitions $end\n").find("declares no signals"), std::string::npos);
  EXPECT_NE(error(good + "#12x\n").find("time '12x'"), std::string::npos);
  EXPECT_NE(error(good + "b1111 \"\n").find("wider than its 3 bits"), std::string::npos);
  const std::string line = error(replaced("$enddefinitions", "#0\n$enddefinitions"));
  EXPECT_NE(line.find("VCD, line "), std::string::npos) << line;
  EXPECT_EQ(error(good), "");
}

TEST(Gtkw, ShowsEverySignalAndTranslatesTheStages) {
  const std::string save =
      gtkw_save_file(parse_vcd(two_signals(4)), "t.vcd", "stage", "t.stages.txt");
  EXPECT_EQ(save,
            "[dumpfile] \"t.vcd\"\n[timestart] 0\n"
            "@24\nrouter_1_0.link_xp.valid\n"
            "@2024\n^1 t.stages.txt\nrouter_1_0.vcup_xp.stage[2:0]\n");
  EXPECT_EQ(translate_filter({{0, "idle"}, {4, "issuing"}}), "0 idle\n4 issuing\n");
}

}  // namespace
}  // namespace angara
