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
  EXPECT_EQ(vcd.signals[1].number_at(4'000'000), 1U);  // fs
  EXPECT_EQ(vcd.signals[1].value_at(10'000'000), "100");
  EXPECT_EQ(vcd.signals[1].value_at(0), "000");
}

TEST(Vcd, FirstDifferenceNamesSignalTimeAndValues) {
  EXPECT_FALSE(compare_vcd(parse_vcd(two_signals(4)), parse_vcd(two_signals(4))));
  const auto diff = compare_vcd(parse_vcd(two_signals(4)), parse_vcd(two_signals(3)));
  ASSERT_TRUE(diff);
  EXPECT_EQ(*diff,
            "router_1_0.vcup_xp.stage first differs at 10000 ps (10.0 ns): expected 4, got 3");
}

// The model's two_signals(4) as an RTL simulator would dump it: nanoseconds, everything x
// until it is driven, values in upper case and cut short on the left, a redundant write, and
// the valid net under a second name (a port of the block inside), sharing its id.
std::string from_a_simulator(const std::string& stage_at_10ns) {
  return "$date today $end\n$version a simulator $end\n$timescale 1 ns $end\n"
         "$scope module router_1_0 $end\n$scope module link_xp $end\n"
         "$var reg 1 ! valid $end\n$scope module port $end\n$var wire 1 ! in $end\n$upscope $end\n"
         "$upscope $end\n$scope module vcup_xp $end\n$var wire 3 % stage [2:0] $end\n"
         "$upscope $end\n$upscope $end\n$enddefinitions $end\n"
         "#0\n$dumpvars\nx!\nbX %\n$end\n0!\nb0 %\n#4\n1!\nb1 %\n#6\n1!\n#10\nb" +
         stage_at_10ns + " %\n";
}

std::string without(const std::string& text, const std::string& part) {
  std::string out = text;
  out.erase(out.find(part), part.size());
  return out;
}

TEST(Vcd, ASimulatorsFileInNanosecondsComparesWithTheModels) {
  const std::string port = "$scope module port $end\n$var wire 1 ! in $end\n$upscope $end\n";
  const Vcd rtl = parse_vcd(from_a_simulator("100"));
  ASSERT_EQ(rtl.signals.size(), 3U);
  EXPECT_EQ(rtl.signals[1].name, "router_1_0.link_xp.port.in");
  EXPECT_EQ(rtl.signals[1].changes, rtl.signals[0].changes);  // one id, two names
  EXPECT_EQ(rtl.signals[2].changes.size(), 3U);               // x at #0 is overwritten at #0
  EXPECT_FALSE(
      compare_vcd(parse_vcd(two_signals(4)), parse_vcd(without(from_a_simulator("100"), port))));
  const auto diff =
      compare_vcd(parse_vcd(two_signals(4)), parse_vcd(without(from_a_simulator("11"), port)));
  ASSERT_TRUE(diff);
  EXPECT_EQ(*diff,
            "router_1_0.vcup_xp.stage first differs at 10000 ps (10.0 ns): expected 4, got 3");
}

TEST(Vcd, UnknownAndFloatingBitsReadAndCompare) {
  std::string text = two_signals(4);
  text += "#20000\nbx1 \"\n#30000\nbz \"\n#40000\nZ!\n";
  const Vcd vcd = parse_vcd(text);
  EXPECT_EQ(vcd.signals[1].value_at(25'000'000), "xx1");  // extended with its x
  EXPECT_EQ(vcd.signals[1].value_at(35'000'000), "zzz");
  EXPECT_EQ(vcd.signals[0].value_at(45'000'000), "z");
  const auto diff = compare_vcd(parse_vcd(two_signals(4)), vcd);
  ASSERT_TRUE(diff);
  EXPECT_EQ(*diff,
            "router_1_0.vcup_xp.stage first differs at 20000 ps (20.0 ns): expected 4, "
            "got 3'bxx1");
  EXPECT_THROW(read_vcd("/nonexistent/a.vcd"), std::runtime_error);
}

TEST(Vcd, WideValuesAndFemtosecondsPrintAsVerilogLiterals) {
  EXPECT_EQ(vcd_value_text(std::string(64, '1')), "18446744073709551615");
  EXPECT_EQ(vcd_value_text("0" + std::string(64, '1')), "65'h0ffffffffffffffff");
  EXPECT_EQ(vcd_value_text(std::string(60, '0') + "x01zzzzz"), "68'h000000000000000Xz");
  EXPECT_EQ(vcd_value_text("1x0z"), "4'b1x0z");
  const std::string text =
      "$timescale 100fs $end\n$scope module m $end\n$var wire 128 ! data [127:0] $end\n"
      "$upscope $end\n$enddefinitions $end\n#0\nb0 !\n#15\nb1x !\n";
  const Vcd wide = parse_vcd(text);
  EXPECT_EQ(wide.signals[0].changes.back().first, 1500U);
  const auto diff = compare_vcd(parse_vcd(text), parse_vcd(without(text, "#15\nb1x !\n")));
  ASSERT_TRUE(diff);
  EXPECT_EQ(*diff, "m.data first differs at 1500 fs (0.001500 ns): expected 128'h" +
                       std::string(31, '0') + "X, got 128'h" + std::string(32, '0'));
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
  EXPECT_NE(error(replaced(" 3 ", " 0 ")).find("width 0 of stage"), std::string::npos);
  EXPECT_NE(error(replaced("1ps", "3ps")).find("$timescale '3ps': 1, 10 or 100 of"),
            std::string::npos);
  EXPECT_NE(error(replaced("1ps", "1 parsec")).find("'1parsec'"), std::string::npos);
  EXPECT_NE(error(good + "#20000\nr1.5 !\n").find("'r1.5': real and string values"),
            std::string::npos);
  EXPECT_NE(error(good + "#20000\nbu1 \"\n")
                .find("value 'u1' of signal router_1_0.vcup_xp.stage at 20000000 fs: bits are "
                      "0, 1, x or z"),
            std::string::npos);
  EXPECT_NE(error(good + "#9000\n1!\n").find("time #9000 goes back"), std::string::npos);
  EXPECT_NE(error(good + "$timescale 1ns $end\n").find("$timescale after $enddefinitions"),
            std::string::npos);
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
  const std::string save = gtkw_save_file(parse_vcd(two_signals(4)), "/w/t.vcd", "stage",
                                          "/w/t.stages.txt", "/w/t.gtkw");
  EXPECT_EQ(save,
            "[dumpfile] \"/w/t.vcd\"\n[savefile] \"/w/t.gtkw\"\n[timestart] 0\n"
            "@24\nrouter_1_0.link_xp.valid\n"
            "@2024\n^1 /w/t.stages.txt\nrouter_1_0.vcup_xp.stage[2:0]\n");
  EXPECT_EQ(translate_filter({{0, "idle"}, {4, "issuing"}}), "0 idle\n4 issuing\n");
}

}  // namespace
}  // namespace angara
