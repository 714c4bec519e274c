#include "collectives/rtl/rtl_vcup.h"

#include <fmt/format.h>

#include <algorithm>

#include "collectives/rtl/gated_clock.h"
#include "models/core/config_error.h"
#include "models/core/model_error.h"
#include "models/core/packet_ledger.h"
#include "models/router/router_trace.h"

namespace angara {
namespace {

constexpr int kRowBits = 14;  // member, is_root, pe, to_root (3), dirs (8)
constexpr std::uint32_t kTargetPe = 8, kTargetPegroup = 9;

// The node's row of one tree as the RTL's table holds it.
std::uint32_t row_bits(const TreeSet& trees, NodeId node, int tree) {
  const Tree* t = trees[static_cast<std::size_t>(tree)];
  if (!t || node >= t->rows.size() || !t->rows[node].member) return 0;
  const TreeRow& r = t->rows[node];
  const std::uint32_t up = r.to_root ? static_cast<std::uint32_t>(r.to_root->index()) : 0;
  return 1U | (r.is_root ? 2U : 0U) | (r.pe ? 4U : 0U) | (up << 3) |
         (static_cast<std::uint32_t>(r.dirs) << 6);
}

// The node's 16 rows as the RTL's cfg_table holds them.
Wide<224> table_bits(const TreeSet& trees, NodeId node) {
  Wide<224> table{};
  for (int t = 0; t < kMaxTrees; ++t) {
    const std::uint64_t row = row_bits(trees, node, t);
    const int bit = kRowBits * t, w = bit / 32, shift = bit % 32;
    table[static_cast<std::size_t>(w)] |= static_cast<std::uint32_t>(row << shift);
    if (shift + kRowBits > 32) {
      table[static_cast<std::size_t>(w + 1)] |= static_cast<std::uint32_t>(row >> (32 - shift));
    }
  }
  return table;
}

}  // namespace

// One port's VCUp: the packets the model holds in it, from announcement until their space is
// free, and its RTL beside them.
class RtlVcUp::Lane : public sc_core::sc_module {
 public:
  // `table`: the node's rows as cfg_table holds them. `router`: driving, the router's wake-up
  // and credit return (set before the run); null: checking. `replay`: the replay file to add its
  // lines to, or null.
  Lane(const sc_core::sc_module_name& name, std::string where, PortId port, const RouterCore& core,
       const Wide<224>& table, const FabricClock& clock, RtlVcUpStats& stats,
       std::uint32_t flop_seed, const VcUpDriver::Router* router, std::string* replay);
  SC_HAS_PROCESS(Lane);

  void arrival(const Packet& packet);
  void grant(const Grant& grant);
  std::uint32_t request(const Packet& packet, std::uint32_t outs, Cycle now);
  RtlModel& rtl() { return *m_rtl; }

 private:
  struct Held {
    Cycle head = 0, tail = 0, ready = 0;  // in the buffer; whole; analysed
    std::uint32_t id = 0, src = 0;
    PacketKind kind = PacketKind::Write;
    std::uint8_t tree = 0;
    int flits = 0;
    Cycle input_free = 0;  // its last copy's tail is out: it may ask for the next
    Cycle freed = kNever;  // its last copy's tail is out: its space is free
    bool copies_to_go() const { return freed == kNever; }
  };
  struct Issued {  // a copy the router granted, in its cycle
    Cycle start = 0, tail_out = 0;
    PortId out = 0;
    bool last = false;
  };

  void tick();
  // The replay file's line of cycle c: the inputs its edge took, the outputs after it.
  void record(Cycle c);
  // Driving, before the router acts in cycle c: the RTL's request and free.
  void early(Cycle c);
  void sample(Cycle c);
  void check_outputs(Cycle c, std::size_t in);
  // The oldest packet with copies still to issue (the router's next), or null.
  Held* issuing();
  // The RTL frees the oldest packet's space in cycle c.
  void free(Cycle c);
  void check_grant(Cycle c, const Issued& g);
  void drive_beats(Cycle c);
  std::uint32_t target(PortId out) const;
  std::string target_name(std::uint32_t bits) const;
  [[noreturn]] void mismatch(Cycle c, const std::string& signal, const std::string& model,
                             const std::string& rtl) const;

  std::string m_where;
  PortId m_port;
  const RouterCore& m_core;
  const VcUpDriver::Router* m_router;
  std::string* m_replay;
  const FabricClock& m_clock;
  RtlVcUpStats& m_stats;
  VcUpPins m_pins;
  std::unique_ptr<RtlModel> m_rtl;
  RingQueue<Held> m_held;      // in arrival order, until their space is free
  RingQueue<Issued> m_issued;  // granted, not yet passed to the RTL
  Cycle m_last_free = 0;       // a free in cycle c shows until the edge after it
  // Driving: the RTL's request in cycle m_asked_at (a bit per output port), and the last cycle
  // it asked, freed, was granted or took a beat.
  std::uint32_t m_asked = 0;
  Cycle m_asked_at = kNever, m_progress_at = 0;
  Wide<224> m_table;
  GatedClock m_gate;  // the RTL's clock, run while the VC holds packets
};

RtlVcUp::Lane::Lane(const sc_core::sc_module_name& name, std::string where, PortId port,
                    const RouterCore& core, const Wide<224>& table, const FabricClock& clock,
                    RtlVcUpStats& stats, std::uint32_t flop_seed, const VcUpDriver::Router* router,
                    std::string* replay)
    : sc_core::sc_module(name),
      m_where(std::move(where)),
      m_port(port),
      m_core(core),
      m_router(router),
      m_replay(replay),
      m_clock(clock),
      m_stats(stats),
      m_rtl(make_vcup_rtl(std::string(this->name()) + ".rtl", m_pins, flop_seed)),
      m_table(table),
      // The lanes of a traced node share a waveform file: their edges in time order.
      m_gate(clock, router ? GatedClock::Sample::Both : GatedClock::Sample::AfterRouter, m_pins,
             *m_rtl, replay != nullptr) {
  SC_METHOD(tick);  // runs at 0 to reset the RTL, then only while the VC holds packets
}

void RtlVcUp::Lane::arrival(const Packet& p) {
  const Cycle now = m_clock.now();
  Held h;
  h.head = p.head_at;
  h.tail = p.tail_at;
  h.ready = m_core.ready_at(m_port, p, {});  // reads no route for a collective packet
  h.id = static_cast<std::uint32_t>(trace_id(p));
  h.src = p.header.src;
  h.kind = p.header.kind;
  h.tree = p.header.tree_id;
  h.flits = p.wire_flits();
  // The head flit is written in cycle head_at - 1 (it is in the buffer from head_at); the
  // transactor drives that cycle's inputs after the router acts in it.
  if (h.head == 0 || h.head - 1 < now) {
    mismatch(now, "in_head",
             fmt::format("1 (packet {:#x}: head in the buffer at cycle {})", h.id, h.head),
             "not driven (announced too late)");
  }
  m_held.push_back(h);
  m_gate.wake();
}

void RtlVcUp::Lane::grant(const Grant& g) {
  m_issued.push_back({g.start, g.tail_out, g.out_port, g.frees_input});
}

// At each sample point the check of the RTL's outputs and the inputs for the next edge.
void RtlVcUp::Lane::tick() {
  const CollectiveParams& coll = m_core.shared().coll;
  m_gate.tick(
      [&] {
        m_pins.cfg_table_cycles = static_cast<std::uint32_t>(coll.table_cycles);
        m_pins.cfg_analysis_cycles = static_cast<std::uint32_t>(coll.analysis_cycles);
        m_pins.cfg_buffer_flits = static_cast<std::uint32_t>(coll.buffer_flits);
        m_pins.cfg_node = m_core.id();
        m_pins.cfg_table = m_table;
      },
      [&](Cycle c) {
        sample(c);
        return !m_held.empty() || !m_issued.empty() || m_last_free >= c;
      },
      [&](Cycle c) { early(c); });
}

void RtlVcUp::Lane::early(Cycle c) {
  if (m_pins.free_valid) free(c);
  m_asked = 0;
  if (!m_pins.req_valid) return;
  const Held* h = issuing();
  if (!h || h->tail > c) {
    mismatch(
        c, "req_valid",
        h ? fmt::format("0 (packet {:#x}: its tail is in the buffer at cycle {})", h->id, h->tail)
          : std::string("0 (no packet with copies to issue)"),
        "1");
  }
  const std::uint32_t dirs = m_pins.req_dirs;
  m_asked = dirs & ((1U << m_core.first_local()) - 1);
  if (m_asked != dirs) {
    mismatch(c, "req_dirs", fmt::format("directions below {}", m_core.first_local()),
             fmt::format("{:#x}", dirs));
  }
  if (m_pins.req_pe) m_asked |= 1U << m_core.first_local();
  if (m_pins.req_pegroup) m_asked |= 1U << m_core.pegroup_port();
  m_asked_at = c;
  m_progress_at = c;
  m_router->wake(c);
}

std::uint32_t RtlVcUp::Lane::request(const Packet& packet, std::uint32_t outs, Cycle now) {
  if (m_asked_at != now || m_asked == 0) return 0;
  const Held* h = issuing();
  const auto id = static_cast<std::uint32_t>(trace_id(packet));
  if (!h || h->id != id) {
    mismatch(now, "head_id", fmt::format("{:#x} (the router's next packet)", id),
             h ? fmt::format("{:#x}", h->id) : std::string("none"));
  }
  if (m_asked != outs) {
    const auto targets = [&](std::uint32_t ports) {
      std::uint32_t bits = 0;
      for (PortId p = 0; p < m_core.port_count(); ++p) {
        if (ports >> p & 1U) bits |= 1U << target(p);
      }
      return target_name(bits);
    };
    mismatch(now, "req_dirs/req_pe/req_pegroup",
             fmt::format("{} (packet {:#x}'s destinations still to serve)", targets(outs), id),
             targets(m_asked));
  }
  return m_asked;
}

RtlVcUp::Lane::Held* RtlVcUp::Lane::issuing() {
  for (std::size_t i = 0; i < m_held.size(); ++i) {
    if (m_held[i].copies_to_go()) return &m_held[i];
  }
  return nullptr;
}

void RtlVcUp::Lane::free(Cycle c) {
  if (m_held.empty()) mismatch(c, "free_valid", "0 (no packet held)", "1");
  const Held& h = m_held.front();
  // Driving, the RTL may free a packet's space once its last copy's tail is out.
  if (m_router && (h.copies_to_go() || h.freed > c)) {
    mismatch(c, "free_valid",
             h.copies_to_go()
                 ? fmt::format("0 (packet {:#x} has copies to issue)", h.id)
                 : fmt::format("0 (packet {:#x}: its last copy is out at cycle {})", h.id, h.freed),
             "1");
  }
  if (m_pins.free_flits != static_cast<std::uint32_t>(h.flits)) {
    mismatch(c, "free_flits", fmt::format("{}", h.flits), fmt::format("{}", m_pins.free_flits));
  }
  if (m_router) {
    m_router->free(m_port, h.flits, c + m_core.timing(m_port).latency);
    m_progress_at = c;
  }
  m_last_free = c;
  ++m_stats.frees;
  m_held.pop_front();
}

void RtlVcUp::Lane::record(Cycle c) {
  const VcUpPins& p = m_pins;
  fmt::format_to(std::back_inserter(*m_replay),
                 "{} {} {:d} {:d} {} {} {} {} {:x} {:d} {} {} {:d} {} {:d} {:d} {:d} {} {} {} {:x} "
                 "{} {:x} {:d} {:d} {:d} {:d}\n",
                 c, m_port, p.in_head, p.in_tail, p.in_kind, p.in_tree, p.in_flits, p.in_src,
                 p.in_id, p.grant_valid, p.grant_target, p.grant_cycles, p.req_valid, p.req_dirs,
                 p.req_pe, p.req_pegroup, p.free_valid, p.free_flits, p.occupancy, p.head_stage,
                 p.head_id, p.last_stage, p.last_id, p.err_overflow, p.err_beat, p.err_packet,
                 p.err_grant);
}

void RtlVcUp::Lane::sample(Cycle c) {
  if (m_replay) record(c);
  ++m_stats.cycles;
  for (auto [signal, value] :
       {std::pair{"err_overflow", &m_pins.err_overflow}, std::pair{"err_beat", &m_pins.err_beat},
        std::pair{"err_packet", &m_pins.err_packet}, std::pair{"err_grant", &m_pins.err_grant}}) {
    if (*value) mismatch(c, signal, "0", "1");
  }
  if (!m_router) {
    // The space of a packet whose last copy has left is free from this cycle.
    const bool frees = !m_held.empty() && m_held.front().freed == c;
    if (m_pins.free_valid != frees) {
      mismatch(c, "free_valid",
               frees ? fmt::format("1 (packet {:#x} out)", m_held.front().id) : std::string("0"),
               frees ? "0" : fmt::format("1 ({} flits)", m_pins.free_flits));
    }
    if (frees) free(c);
  }
  // What the buffer holds now: the packets whose head is in.
  std::size_t in = 0;
  while (in < m_held.size() && m_held[in].head <= c) ++in;
  check_outputs(c, in);
  bool granted = false;
  while (!m_issued.empty() && m_issued.front().start <= c) {
    if (granted) mismatch(c, "grant_valid", "two copies in one cycle", "one input");
    check_grant(c, m_issued.front());
    m_issued.pop_front();
    granted = true;
  }
  m_pins.grant_valid = granted;
  drive_beats(c);
  if (m_router && !m_held.empty() && c > std::max(m_progress_at, m_held.front().tail) + kMaxStall) {
    const Held& h = m_held.front();
    mismatch(c, "req_valid/free_valid",
             fmt::format("1 within {} cycles (packet {:#x}, wholly in since cycle {}; nothing "
                         "asked, granted or freed since cycle {})",
                         kMaxStall, h.id, h.tail, m_progress_at),
             "0");
  }
}

// The outputs that show the buffer, `in` of whose packets have their head in: occupancy and
// ids; checking, also each packet's stage and the request.
void RtlVcUp::Lane::check_outputs(Cycle c, std::size_t in) {
  std::uint32_t occupancy = 0;
  for (std::size_t i = 0; i < in; ++i) occupancy += m_held[i].flits;
  const auto check = [&](const char* signal, std::uint32_t model, std::uint32_t rtl) {
    if (rtl != model) mismatch(c, signal, fmt::format("{}", model), fmt::format("{}", rtl));
  };
  const auto stage = [&](const Held& h) {
    const Cycle table = m_core.shared().coll.table_cycles;
    const VcStage s = c < h.tail           ? VcStage::Storing
                      : c < h.tail + table ? VcStage::Table
                      : c < h.ready        ? VcStage::Analysis
                                           : VcStage::Issuing;
    return static_cast<std::uint32_t>(s);
  };
  const auto check_stage = [&](const char* signal, std::uint32_t model, std::uint32_t rtl) {
    static constexpr const char* kNames[] = {"none", "storing", "table read", "head analysis",
                                             "issuing"};
    const auto name = [](std::uint32_t s) { return s < 5 ? kNames[s] : "?"; };
    if (rtl != model) {
      mismatch(c, signal, fmt::format("{} ({})", model, name(model)),
               fmt::format("{} ({})", rtl, name(rtl)));
    }
  };
  check("occupancy", occupancy, m_pins.occupancy);
  check("head_id", in ? m_held.front().id : 0, m_pins.head_id);
  check("last_id", in ? m_held[in - 1].id : 0, m_pins.last_id);
  if (m_router) return;  // driving, the stages and the request are the RTL's own timing
  check_stage("head_stage", in ? stage(m_held.front()) : 0, m_pins.head_stage);
  check_stage("last_stage", in ? stage(m_held[in - 1]) : 0, m_pins.last_stage);
  // The oldest packet asks for a copy once analysed, one copy at a time, until its last.
  const bool asks = in && m_held.front().ready <= c && m_held.front().freed == kNever &&
                    m_held.front().input_free <= c;
  if (m_pins.req_valid != asks) {
    mismatch(c, "req_valid",
             asks ? fmt::format("1 (packet {:#x} analysed at cycle {})", m_held.front().id,
                                m_held.front().ready)
                  : std::string("0"),
             m_pins.req_valid ? "1" : "0");
  }
}

// The router granted a copy in this cycle: the RTL must have asked for it, and its destinations
// still to serve must be the model's: this one and, unless it is the last copy, more.
void RtlVcUp::Lane::check_grant(Cycle c, const Issued& g) {
  Held* next = issuing();
  if (g.start != c || !next || next->head > c) {
    mismatch(c, "grant_valid", fmt::format("a copy granted at cycle {}", g.start),
             "no packet to take it from");
  }
  Held& h = *next;
  const std::uint32_t asked = m_pins.req_dirs | (m_pins.req_pe ? 1U << kTargetPe : 0) |
                              (m_pins.req_pegroup ? 1U << kTargetPegroup : 0);
  const std::uint32_t t = target(g.out);
  const std::uint32_t bit = 1U << t;
  if (!(asked & bit) || (g.last && asked != bit) || (!g.last && asked == bit)) {
    mismatch(c, "req_dirs/req_pe/req_pegroup",
             fmt::format("{} ({} copy of packet {:#x})",
                         g.last ? target_name(bit) : target_name(bit) + " and more",
                         g.last ? "the last" : "a", h.id),
             target_name(asked));
  }
  const Cycle length = g.tail_out - g.start;
  if (length == 0 || length > 0xFFFF) {
    mismatch(c, "grant_cycles", fmt::format("{}", length), "1..65535 held");
  }
  m_pins.grant_target = t;
  m_pins.grant_cycles = static_cast<std::uint32_t>(length);
  h.input_free = g.tail_out;
  if (g.last) h.freed = g.tail_out;
  m_progress_at = c;
  ++m_stats.copies;
}

void RtlVcUp::Lane::drive_beats(Cycle c) {
  bool head = false, tail = false;
  for (std::size_t i = 0; i < m_held.size(); ++i) {
    const Held& h = m_held[i];
    if (h.head - 1 == c) {
      head = true;
      m_progress_at = c;
      m_pins.in_kind = static_cast<std::uint32_t>(h.kind);
      m_pins.in_tree = h.tree;
      m_pins.in_flits = static_cast<std::uint32_t>(h.flits);
      m_pins.in_src = h.src;
      m_pins.in_id = h.id;
      ++m_stats.packets;
      if (i > 0) ++m_stats.queued;
    }
    if (h.tail - 1 == c) tail = true;
  }
  m_pins.in_head = head;
  m_pins.in_tail = tail;
}

std::uint32_t RtlVcUp::Lane::target(PortId out) const {
  if (out == m_core.first_local()) return kTargetPe;
  return out == m_core.pegroup_port() ? kTargetPegroup : out;
}

std::string RtlVcUp::Lane::target_name(std::uint32_t bits) const {
  std::string s;
  for (std::uint32_t t = 0; t < 10; ++t) {
    if (!(bits >> t & 1U)) continue;
    if (!s.empty()) s += ",";
    s += t == kTargetPe        ? "pe"
         : t == kTargetPegroup ? "pegroup"
                               : Direction::from_index(static_cast<int>(t)).name();
  }
  return s.empty() ? "none" : s;
}

void RtlVcUp::Lane::mismatch(Cycle c, const std::string& signal, const std::string& model,
                             const std::string& rtl) const {
  const auto t = sc_core::sc_time::from_value(c * m_clock.period().value());
  model_error(report_id::kRtl,
              fmt::format("{} RTL: {} at cycle {} ({}): model {}, RTL {}{}", m_where, signal, c,
                          t.to_string(), model, rtl, m_replay ? "" : kRecordingHint));
}

RtlVcUp::RtlVcUp(const sc_core::sc_module_name& name, std::string where, const RouterCore& core,
                 const TreeSet& trees, const FabricClock& clock, RtlVcUpStats& stats,
                 std::uint32_t flop_seed, bool drives, RtlRecording* recording)
    : sc_core::sc_module(name), m_core(core), m_recording(recording) {
  const CollectiveParams& coll = core.shared().coll;
  coll.check_rtl_vcup();
  if (core.id() > 0xFFFF) {
    throw ConfigError("topology.dims", fmt::format("node {}", core.id()),
                      "with the RTL VCUp node ids must fit the header's 16 bits");
  }
  const Wide<224> table = table_bits(trees, core.id());
  if (m_recording) {
    m_recording->replay = fmt::format(
        "# angara-tlm VCUp replay (docs/RTL.md): {}, ports 0..{}\n"
        "# cfg_table_cycles cfg_analysis_cycles cfg_buffer_flits cfg_node cfg_table\n"
        "{} {} {} {} {}\n"
        "# cycle port in_head in_tail in_kind in_tree in_flits in_src in_id grant_valid "
        "grant_target grant_cycles req_valid req_dirs req_pe req_pegroup free_valid free_flits "
        "occupancy head_stage head_id last_stage last_id err_overflow err_beat err_packet "
        "err_grant\n",
        where, core.first_local() - 1, coll.table_cycles, coll.analysis_cycles, coll.buffer_flits,
        core.id(), to_hex(table));
  }
  for (PortId p = 0; p < core.first_local(); ++p) {
    const std::string port = Direction::from_index(p).name();
    m_lanes.push_back(std::make_unique<Lane>(
        fmt::format("vcup_{}", p).c_str(), fmt::format("{} VCUp {}", where, port), p, core, table,
        clock, stats, flop_seed + 2U * p,  // odd, each its own
        drives ? &m_router : nullptr, m_recording ? &m_recording->replay : nullptr));
  }
}

RtlVcUp::~RtlVcUp() = default;

void RtlVcUp::start_of_simulation() {
  if (!m_recording) return;
  std::vector<RtlModel*> rtls;
  for (const auto& lane : m_lanes) rtls.push_back(&lane->rtl());
  m_waveform = trace_vcup_rtl(rtls, m_recording->waveform.string());
  m_recording->vcd = m_waveform.get();
}

void RtlVcUp::arrival(PortId port, const Packet& packet) {
  if (port < m_lanes.size() && packet.header.vc == m_core.vc_up()) m_lanes[port]->arrival(packet);
}

void RtlVcUp::grant(const Grant& g) {
  if (g.in_port < m_lanes.size() && g.in_vc == m_core.vc_up()) m_lanes[g.in_port]->grant(g);
}

std::uint32_t RtlVcUp::request(PortId port, const Packet& packet, std::uint32_t outs, Cycle now) {
  return m_lanes[port]->request(packet, outs, now);
}

}  // namespace angara
