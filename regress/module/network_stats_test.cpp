// Network statistics ([stats] network = true): the numbers against what a single flow must give,
// the same in AT, LT and LT with buffers, on a torus and on a fat tree (switches, up and down
// ports, host ports); light uniform load the same per link in the three
// modes; statistics off leave the results as they were.

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "platform/experiments/experiment.h"
#include "regress/support/in_mode.h"
#include "regress/support/isolated.h"

namespace angara {
namespace {

using test::in_mode;
using test::lt_with_buffers;
using test::run_isolated;

// The results and each table, by extension.
nlohmann::json run(const Config& c) {
  return run_isolated([&] {
    const RunOutput out = synthetic_output(c, {});
    nlohmann::json j{{"results", nlohmann::json(out.json)}, {"files", nlohmann::json::object()}};
    for (const SideFile& f : out.side_files) j["files"][f.extension] = f.text;
    return j;
  });
}

// A CSV's rows as column name -> value text.
std::vector<std::map<std::string, std::string>> rows(const std::string& csv) {
  std::istringstream in(csv);
  std::string line;
  std::vector<std::string> header;
  std::vector<std::map<std::string, std::string>> out;
  const auto split = [](const std::string& s) {
    std::vector<std::string> cells;
    std::istringstream cs(s);
    for (std::string cell; std::getline(cs, cell, ',');) cells.push_back(cell);
    return cells;
  };
  std::getline(in, line);
  header = split(line);
  while (std::getline(in, line)) {
    const auto cells = split(line);
    EXPECT_EQ(cells.size(), header.size()) << line;
    std::map<std::string, std::string> row;
    for (std::size_t i = 0; i < header.size() && i < cells.size(); ++i) row[header[i]] = cells[i];
    out.push_back(row);
  }
  return out;
}

std::string where(const std::map<std::string, std::string>& row) {
  return fmt::format("({},{},{}) {}", row.at("x"), row.at("y"), row.at("z"), row.at("port"));
}

// 8 messages of 17 flits from (0,0,0) to (2,1,0) and nothing else: direction order takes +X
// twice (a tie on a ring of 4 goes the positive way), then +Y.
Config single_flow() {
  Config c;
  c.topology.dims = {4, 4, 4};
  c.traffic.rate = 0;
  c.traffic.packet_flits = 16;
  c.traffic.probes = 8;
  c.traffic.probe_src = {0, 0, 0};
  c.traffic.probe_dst = {2, 1, 0};
  c.sim.warmup_cycles = 500;
  c.sim.measure_cycles = 4000;
  c.stats.network = true;
  return c;
}

std::string mode_name(const Config& c) {
  return c.sim.mode == SimMode::At ? "AT" : (c.sim.lt_buffers ? "LT buffers" : "LT");
}

// A single flow's totals: its 8 packets of 17 flits crossed `hops` links inside the window, all
// the run's flit hops; the machine has `links` links; routers forwarded each packet `outputs`
// times (its links and the ejection port).
void expect_flow_totals(const nlohmann::json& r, int hops, int links, int outputs,
                        const std::string& name) {
  const auto& s = r["network_stats"];
  EXPECT_EQ(r["flit_hops"], hops * 8 * 17) << name;
  EXPECT_EQ(s["link_flits"], r["flit_hops"]) << name;
  EXPECT_EQ(s["links"], links) << name;
  EXPECT_EQ(s["router_packets"], 8 * outputs) << name;
}

TEST(NetworkStats, ASingleFlowLoadsItsPathOnlyInEveryMode) {
  const Config c = single_flow();
  const std::map<std::string, int> path{
      {"(0,0,0) +X", 1}, {"(1,0,0) +X", 1}, {"(2,0,0) +Y", 1}, {"(2,1,0) local", 1}};
  const int flits = 8 * 17;
  std::vector<nlohmann::json> runs;
  for (const Config& mode : test::every_mode(c)) {
    const auto j = run(mode);
    const std::string name = mode_name(mode);
    const auto& r = j["results"];
    const auto& s = r["network_stats"];
    expect_flow_totals(r, 3, 64 * 6, 4, name);
    EXPECT_EQ(s["mean_wait_cycles"], 0.0) << name;  // alone in the network: never waits
    const double window = 4000;
    int on_path = 0;
    for (const auto& row : rows(j["files"][".links.csv"])) {
      const bool used = path.count(where(row)) > 0;
      on_path += used;
      EXPECT_EQ(std::stoi(row.at("flits")), used ? flits : 0) << name << " " << where(row);
      EXPECT_EQ(std::stoi(row.at("packets")), used ? 8 : 0) << name << " " << where(row);
      // A 17-flit packet holds a link for 15 cycles (1.707 ns per flit, 2 ns cycles).
      if (row.at("port") != "local") {
        EXPECT_EQ(std::stoi(row.at("busy_cycles")), used ? 8 * 15 : 0) << name << " " << where(row);
      }
      EXPECT_DOUBLE_EQ(std::stod(row.at("flits_per_cycle")), used ? flits / window : 0.0)
          << name << " " << where(row);
    }
    EXPECT_EQ(on_path, 4) << name;
    EXPECT_DOUBLE_EQ(s["busiest_link"]["flits_per_cycle"].get<double>(), flits / window) << name;
    EXPECT_EQ(s["busiest_link"]["router"], "(0,0,0)") << name;  // the first of the busiest
    const auto routers = rows(j["files"][".routers.csv"]);
    ASSERT_EQ(routers.size(), 64u) << name;
    if (mode.sim.mode == SimMode::Lt && !mode.sim.lt_buffers) {
      EXPECT_FALSE(j["files"].contains(".vcs.csv")) << name;
      EXPECT_TRUE(s["vc_occupancy_flits"].is_null()) << name;
    } else {
      // The flow's input VCs hold one packet at a time: 17 flits at most.
      EXPECT_EQ(s["vc_occupancy_flits"]["max"], 17) << name;
      int held = 0;
      for (const auto& row : rows(j["files"][".vcs.csv"])) {
        if (std::stod(row.at("mean_flits")) > 0) ++held;
        EXPECT_LE(std::stoi(row.at("max_flits")), 17) << name << " " << where(row);
      }
      // Injection at (0,0,0), +X at (1,0,0) and (2,0,0), +Y at (2,1,0): both VCs of each, as
      // the endpoint gives its packets the two VC sets in turn.
      EXPECT_EQ(held, 8) << name;
      runs.push_back(j);
    }
  }
  // A lone packet's times are the same in AT and LT with buffers: so is every VC's occupancy.
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0]["files"][".vcs.csv"], runs[1]["files"][".vcs.csv"]);
  EXPECT_EQ(runs[0]["files"][".links.csv"], runs[1]["files"][".links.csv"]);
}

// The same flow on a 4-ary 2-tree, from node 1 (leaf 0, host port 1) to node 14 (leaf 3, host
// port 2): up from its leaf to a top switch drawn per packet, down to leaf 3, out of host port 2.
TEST(NetworkStats, AFatTreeNamesItsSwitchesPortsAndHostsInEveryMode) {
  Config c = single_flow();
  c.topology.kind = TopologyKind::FatTree;
  c.topology.k = 4;
  c.topology.levels = 2;
  c.traffic.probe_src = {1};
  c.traffic.probe_dst = {14};
  for (const Config& mode : test::every_mode(c)) {
    const auto j = run(mode);
    const std::string name = mode_name(mode);
    const auto& s = j["results"]["network_stats"];
    // Up, down and out of the host port; the links: the leaves' up ports, the tops' down ports.
    expect_flow_totals(j["results"], 2, 4 * 4 + 4 * 4, 3, name);
    std::map<std::string, int> packets;  // by router and port
    int host_ports = 0;
    for (const auto& row : rows(j["files"][".links.csv"])) {
      const std::string port = row.at("port");
      host_ports += port.rfind("host ", 0) == 0;
      const int n = std::stoi(row.at("packets"));
      // The up ports taken are drawn per packet: counted together.
      if (n > 0) packets[row.at("router") + " " + (port.rfind("up ", 0) == 0 ? "up" : port)] += n;
      if (row.at("router") == "3" && port.rfind("host ", 0) == 0) {
        EXPECT_EQ(n, port == "host 2" ? 8 : 0) << name << " leaf 3 " << port;
      }
    }
    EXPECT_EQ(host_ports, 16) << name;  // four leaves of four hosts, none above them
    // Leaf 0's up ports, then a top switch's (routers 4 to 7) down port 3, then leaf 3's host
    // port: nothing else carried anything.
    int up = 0, down = 0, host = 0;
    for (const auto& [where, n] : packets) {
      if (where == "0 up") {
        up += n;
      } else if (where == "3 host 2") {
        host += n;
      } else if (where.size() == 8 && where[0] >= '4' && where[0] <= '7' &&
                 where.substr(1) == " down 3") {
        down += n;
      } else {
        ADD_FAILURE() << name << ": " << n << " packets at " << where;
      }
    }
    EXPECT_EQ(up, 8) << name;
    EXPECT_EQ(down, 8) << name;
    EXPECT_EQ(host, 8) << name;
    EXPECT_EQ(s["busiest_link"]["router"].get<std::string>().rfind("switch ", 0), 0u) << name;
  }
}

// Light uniform load: the same packets on the same deterministic paths, so each link carries the
// same flits in the three modes, but for packets whose start moves across the window's edges.
TEST(NetworkStats, LinkUtilisationAgreesAcrossModesAtLightLoad) {
  Config c;
  c.topology.dims = {4, 4};
  c.traffic.rate = 0.05;
  c.sim.warmup_cycles = 1000;
  c.sim.measure_cycles = 10000;
  c.stats.network = true;
  const auto at = run(in_mode(c, SimMode::At));
  const auto lt = run(in_mode(c, SimMode::Lt));
  const auto ltb = run(lt_with_buffers(c));
  const auto links_at = rows(at["files"][".links.csv"]);
  std::uint64_t total = 0;
  for (const auto& other : {lt, ltb}) {
    const auto links = rows(other["files"][".links.csv"]);
    ASSERT_EQ(links.size(), links_at.size());
    for (std::size_t i = 0; i < links.size(); ++i) {
      // Within two 17-flit packets per link (at most one at each edge of the window).
      EXPECT_NEAR(std::stod(links[i].at("flits")), std::stod(links_at[i].at("flits")), 34)
          << where(links[i]);
    }
    const double a = at["results"]["network_stats"]["link_utilisation"]["mean"].get<double>();
    const double b = other["results"]["network_stats"]["link_utilisation"]["mean"].get<double>();
    EXPECT_NEAR(b / a, 1.0, 0.01);
  }
  for (const auto& row : links_at) total += std::stoull(row.at("flits"));
  EXPECT_GT(total, 10000u);
  // Flits per link and cycle, over the links: the offered load times mean hops over 4 links a
  // node (a node creates rate x hops flit-hops per cycle, shared by its 4 outgoing links).
  const auto& r = at["results"];
  const double expected =
      r["offered_flits_per_node_cycle"].get<double>() * r["mean_hops"].get<double>() / 4.0;
  EXPECT_NEAR(r["network_stats"]["link_flits_per_cycle"]["mean"].get<double>() / expected, 1.0,
              0.03);
}

TEST(NetworkStats, OffLeavesTheResultsAsTheyWere) {
  Config c = single_flow();
  c.stats.network = false;
  const auto j = run(in_mode(c, SimMode::At));
  EXPECT_FALSE(j["results"].contains("network_stats"));
  EXPECT_FALSE(j["results"]["config"].contains("stats"));
  EXPECT_TRUE(j["files"].empty());
}

}  // namespace
}  // namespace angara
