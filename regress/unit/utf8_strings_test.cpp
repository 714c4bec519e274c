// Config strings are UTF-8 or the load fails naming the key: before this, a bad byte passed
// validation and ended the run at the results writer, after the whole simulation.

#include <string>

#include <gtest/gtest.h>

#include "models/core/config_error.h"
#include "platform/config/config_loader.h"
#include "platform/config/utf8_strings.h"

namespace angara {
namespace {

TEST(Utf8, ValidTextPassesAndTheFirstBadByteIsFound) {
  constexpr auto npos = std::string_view::npos;
  EXPECT_EQ(invalid_utf8_at("plain ascii"), npos);
  EXPECT_EQ(invalid_utf8_at("\xd1\x82\xd0\xbe\xd1\x80 \xe2\x82\xac \xf0\x9f\x98\x80"), npos);
  EXPECT_EQ(invalid_utf8_at("ab\xff"), 2U);            // never a UTF-8 byte
  EXPECT_EQ(invalid_utf8_at("a\xc3"), 1U);             // cut short
  EXPECT_EQ(invalid_utf8_at("\xc0\xaf"), 0U);          // overlong '/'
  EXPECT_EQ(invalid_utf8_at("\xe0\x80\xaf"), 0U);      // overlong, three bytes
  EXPECT_EQ(invalid_utf8_at("x\xed\xa0\x80"), 1U);     // a surrogate
  EXPECT_EQ(invalid_utf8_at("\xf4\x90\x80\x80"), 0U);  // past U+10FFFF
  EXPECT_EQ(invalid_utf8_at("\xe2\x28\xa1"), 0U);      // a bad continuation
}

// By --set (a bare word is taken as the string itself) and inside a partition's tables.
TEST(Utf8, AConfigStringThatIsNotUtf8IsRefusedNamingTheKey) {
  try {
    load_config("", "test", {"trace.file=t\xff.vcd"});
    FAIL() << "no ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key(), "trace.file");
    EXPECT_EQ(e.value(), "\"t\\xff.vcd\"");
    EXPECT_NE(e.rule().find("not valid UTF-8 (byte 2 of 6)"), std::string::npos) << e.what();
  }
  try {
    load_config("[[partition]]\norigin = [0, 0, 0]\ndims = [2, 2, 2]\n", "test",
                {"compute.table=\xe2\x82"});
    FAIL() << "no ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key(), "compute.table");
  }
  EXPECT_NO_THROW(
      load_config("[trace]\nnodes = [[0, 0, 0]]\nfile = \"\xd1\x82.vcd\"\n", "test", {}));
}

}  // namespace
}  // namespace angara
