#include "collectives/rtl/rtl_reducer.h"

#include <algorithm>
#include <iterator>

#include <fmt/format.h>

#include "models/core/config_error.h"
#include "models/core/model_error.h"
#include "models/core/packet_ledger.h"

namespace angara {
namespace {

Flit to_flit(const Wide<128>& v) {
  const auto word = [&](int w) {
    return static_cast<std::uint64_t>(v[2 * w]) | static_cast<std::uint64_t>(v[2 * w + 1]) << 32;
  };
  return {word(0), word(1)};
}

Wide<128> to_wide(const Flit& f) {
  return {static_cast<std::uint32_t>(f.lo), static_cast<std::uint32_t>(f.lo >> 32),
          static_cast<std::uint32_t>(f.hi), static_cast<std::uint32_t>(f.hi >> 32)};
}

}  // namespace

RtlReducer::RtlReducer(const sc_core::sc_module_name& name, std::string where,
                       const CollectiveParams& params, const FabricClock& clock,
                       RtlReducerStats& stats, std::uint32_t flop_seed, bool drives,
                       RtlRecording* recording)
    : sc_core::sc_module(name),
      m_where(std::move(where)),
      m_drives(drives),
      m_clock(clock),
      m_stats(stats),
      m_rtl(make_reducer_rtl(std::string(this->name()) + ".rtl", m_pins, flop_seed)),
      m_recording(recording),
      m_gate(clock, GatedClock::Sample::BeforeRouter, m_pins, *m_rtl) {
  params.check_rtl_reducer();
  m_head_cycles = static_cast<std::uint32_t>(params.reducer_cycles);
  m_flit_cycles = static_cast<std::uint32_t>(params.reducer_flit_cycles);
  m_result_cycles = static_cast<Cycle>(params.reducer_result_cycles);
  if (m_recording) {
    m_recording->replay = fmt::format(
        "# angara-tlm Reducer replay (docs/RTL.md): {}\n"
        "# cfg_head_cycles cfg_flit_cycles\n{} {}\n"
        "# cycle in_valid in_tree in_reduce in_op in_flits in_expected in_data in_ready "
        "res_valid res_tree res_reduce res_op res_flits res_count res_flit_valid "
        "res_flit_index res_flit err_mismatch\n",
        m_where, m_head_cycles, m_flit_cycles);
  }
  SC_METHOD(tick);  // runs at 0 to reset the RTL, then only while it has work
}

RtlReducer::~RtlReducer() = default;

Reducer::Outcome RtlReducer::add(Packet* packet, const TreeRow& row, Cycle at, Cycle start,
                                 Cycle end) {
  const auto& h = packet->header;
  Contribution k{at,
                 start,
                 end,
                 h.tree_id,
                 h.reduce_id,
                 h.op,
                 static_cast<std::uint8_t>(h.data_flits),
                 static_cast<std::uint8_t>((row.pe ? 1 : 0) + row.dir_sum),
                 packet->data};  // copied before the model folds it in
  m_inputs.push_back(k);
  Reducer::Outcome outcome = m_model.add(packet, row, at);
  if (outcome.result) {
    m_handoffs.push_back({end + m_result_cycles, outcome.result, outcome.count});
    if (m_drives) {  // it leaves when the RTL hands it off
      ++m_held[h.tree_id];
      outcome.result = nullptr;
    }
  }
  if (idle(m_clock.now())) m_progress_at = at;
  m_busy_until = std::max(m_busy_until, end);
  m_gate.wake();
  return outcome;
}

void RtlReducer::start_of_simulation() {
  if (!m_recording) return;
  m_waveform = trace_reducer_rtl(*m_rtl, m_recording->waveform.string());
  m_recording->vcd = m_waveform.get();
}

void RtlReducer::record(Cycle c) {
  const ReducerPins& p = m_pins;
  fmt::format_to(std::back_inserter(m_recording->replay),
                 "{} {:d} {} {} {} {} {} {} {:d} {:d} {} {} {} {} {} {:d} {} {} {:d}\n", c,
                 p.in_valid, p.in_tree, p.in_reduce, p.in_op, p.in_flits, p.in_expected,
                 to_hex(p.in_data), p.in_ready, p.res_valid, p.res_tree, p.res_reduce, p.res_op,
                 p.res_flits, p.res_count, p.res_flit_valid, p.res_flit_index, to_hex(p.res_flit),
                 p.err_mismatch);
}

// At each sample point the check of the RTL's outputs and the inputs for the next edge.
void RtlReducer::tick() {
  m_gate.tick(
      [&] {
        m_pins.cfg_head_cycles = m_head_cycles;
        m_pins.cfg_flit_cycles = m_flit_cycles;
      },
      [&](Cycle c) {
        if (m_recording) record(c);
        check_outputs(c);
        drive_inputs(c);
        if (idle(c)) return false;
        if (m_drives) check_progress(c);
        return true;
      });
}

bool RtlReducer::idle(Cycle c) const {
  return m_inputs.empty() && m_handoffs.empty() && (m_drives || c >= m_busy_until);
}

// Driving, an RTL that stops taking beats or handing results off would hold the run forever.
void RtlReducer::check_progress(Cycle c) const {
  const Cycle since =
      m_inputs.empty() ? m_progress_at : std::max(m_progress_at, m_inputs.front().at);
  if (c < since + kMaxStall) return;
  if (!m_inputs.empty()) {
    const Contribution& k = m_inputs.front();
    const std::string beat = m_beat == 0 ? "head" : fmt::format("data flit {}", m_beat - 1);
    mismatch(c, "in_ready",
             fmt::format("1 within {} cycles (tree {} reduce {} offers its {} since cycle {})",
                         kMaxStall, k.tree, k.reduce, beat, since),
             "0");
  }
  const auto& h = m_handoffs.front().result->header;
  mismatch(c, "res_valid",
           fmt::format("1 within {} cycles (tree {} reduce {} is complete; nothing taken or "
                       "handed off since cycle {})",
                       kMaxStall, h.tree_id, h.reduce_id, since),
           "0");
}

void RtlReducer::check_outputs(Cycle c) {
  ++m_stats.cycles;
  if (m_pins.err_mismatch) report_mismatch(c);
  if (m_pins.res_flit_valid) {
    const std::uint32_t f = m_pins.res_flit_index;
    if (f >= kMaxDataFlits) mismatch(c, "res_flit_index", "0..15", fmt::format("{}", f));
    m_result_flits |= 1U << f;
    check_result_flit(c, f, to_flit(m_pins.res_flit));
  }
  const bool valid = m_pins.res_valid;
  const bool due = m_drives ? valid && !m_handoffs.empty()
                            : !m_handoffs.empty() && m_handoffs.front().cycle == c;
  if (valid != due) {
    if (due) {
      const auto& h = m_handoffs.front().result->header;
      mismatch(c, "res_valid",
               fmt::format("1 (tree {} reduce {} hands off)", h.tree_id, h.reduce_id), "0");
    }
    mismatch(c, "res_valid",
             m_handoffs.empty()
                 ? std::string("0 (no reduce complete)")
                 : fmt::format("0 (next hand-off at cycle {})", m_handoffs.front().cycle),
             fmt::format("1 (tree {} reduce {})", m_pins.res_tree, m_pins.res_reduce));
  }
  if (!due) return;
  const Handoff handoff = m_handoffs.front();
  check_handoff(c, handoff);
  m_handoffs.pop_front();
  if (!m_drives) return;
  m_progress_at = c;
  --m_held[handoff.result->header.tree_id];
  m_hand_off(handoff.result, c);
}

void RtlReducer::check_handoff(Cycle c, const Handoff& handoff) {
  const auto& h = handoff.result->header;
  const auto field = [&](const char* signal, std::uint32_t model, std::uint32_t rtl) {
    if (rtl != model) mismatch(c, signal, fmt::format("{}", model), fmt::format("{}", rtl));
  };
  field("res_tree", h.tree_id, m_pins.res_tree);
  field("res_reduce", h.reduce_id, m_pins.res_reduce);
  field("res_op", h.op, m_pins.res_op);
  field("res_flits", static_cast<std::uint32_t>(h.data_flits), m_pins.res_flits);
  field("res_count", static_cast<std::uint32_t>(handoff.count), m_pins.res_count);
  const std::uint32_t all = h.data_flits >= 32 ? ~0U : (1U << h.data_flits) - 1;
  if (m_result_flits != all) {
    mismatch(c, "res_flit_valid", fmt::format("flits 0..{} streamed", h.data_flits - 1),
             fmt::format("flit mask {:#x}", m_result_flits));
  }
  m_stats.data_words += static_cast<std::uint64_t>(h.data_flits) * kWordsPerFlit;
  m_result_flits = 0;
  const std::uint32_t issued = m_pins.issued[h.tree_id];
  if (issued != ++m_issued[h.tree_id]) {
    mismatch(c, fmt::format("issued[{}]", h.tree_id), fmt::format("{}", m_issued[h.tree_id]),
             fmt::format("{}", issued));
  }
  ++m_stats.results;
}

// A result flit is checked in the cycle it is on the port, against the next result the model
// hands off (the RTL streams a result's flits before its hand-off, in order).
void RtlReducer::check_result_flit(Cycle c, std::uint32_t f, const Flit& rtl_flit) {
  if (m_handoffs.empty()) mismatch(c, "res_flit_valid", "0 (no reduce complete)", "1");
  const Packet& result = *m_handoffs.front().result;
  const auto& h = result.header;
  if (f >= h.data_flits) {
    mismatch(c, "res_flit_index",
             fmt::format("0..{} (tree {} reduce {}, {} flits)", h.data_flits - 1, h.tree_id,
                         h.reduce_id, h.data_flits),
             fmt::format("{}", f));
  }
  for (int w = 0; w < kWordsPerFlit; ++w) {
    const auto model = static_cast<std::uint64_t>(word(result.data[f], w));
    const auto rtl = static_cast<std::uint64_t>(word(rtl_flit, w));
    if (model != rtl) {
      mismatch(c,
               fmt::format("res_flit (flit {} word {}, tree {} reduce {} {})", f, w, h.tree_id,
                           h.reduce_id, reduction_name(ReduceOp::decode(h.op).reduction)),
               fmt::format("{:#018x} ({})", model, static_cast<std::int64_t>(model)),
               fmt::format("{:#018x} ({})", rtl, static_cast<std::int64_t>(rtl)));
    }
  }
}

// The RTL says the contribution it took last disagrees with its slot's earlier ones on op or
// size; the model took them as agreeing (it would have failed the run itself).
void RtlReducer::report_mismatch(Cycle c) const {
  const Contribution& k = m_taken;
  const ReduceOp op = ReduceOp::decode(k.op);
  mismatch(c, "err_mismatch",
           fmt::format("0 (tree {} reduce {}: {} {} of {} flits, as the reduce's earlier "
                       "contributions)",
                       k.tree, k.reduce, reduction_name(op.reduction),
                       op.all ? "allreduce" : "reduce", k.flits),
           "1 (its slot's op or size differs)");
}

void RtlReducer::drive_inputs(Cycle c) {
  // The model takes the next head now, while the RTL still takes this contribution's data.
  if (!m_drives && m_beat > 0 && m_inputs.size() > 1 && m_inputs[1].start <= c) {
    const Contribution& k = m_inputs.front();
    const Contribution& next = m_inputs[1];
    mismatch(c, "in_ready",
             fmt::format("1 (takes the head of tree {} reduce {})", next.tree, next.reduce),
             fmt::format("0 (still on data flit {} of tree {} reduce {}, {} flits)", m_beat - 1,
                         k.tree, k.reduce, k.flits));
  }
  bool valid = false;
  if (!m_inputs.empty() && (m_beat > 0 || m_inputs.front().at <= c)) {
    const Contribution& k = m_inputs.front();
    valid = true;
    if (m_beat == 0) {
      m_pins.in_tree = k.tree;
      m_pins.in_reduce = k.reduce;
      m_pins.in_op = k.op;
      m_pins.in_flits = k.flits;
      m_pins.in_expected = k.expected;
    } else {
      m_pins.in_data = to_wide(k.data[static_cast<std::size_t>(m_beat - 1)]);
    }
    const bool ready = m_pins.in_ready;
    if (!m_drives && m_beat == 0 && ready != (c == k.start)) {
      const std::string what = fmt::format(
          "the head of tree {} reduce {}, at the input since cycle {}", k.tree, k.reduce, k.at);
      mismatch(c, "in_ready",
               ready ? fmt::format("0 ({} is taken at cycle {})", what, k.start)
                     : fmt::format("1 (takes {})", what),
               ready ? "1" : "0");
    }
    if (ready) {
      m_progress_at = c;
      if (m_beat == 0) {
        ++m_stats.heads;
        m_taken = k;
      }
      if (++m_beat > k.flits) {
        m_inputs.pop_front();
        m_beat = 0;
      }
    }
  }
  m_pins.in_valid = valid;
}

void RtlReducer::mismatch(Cycle c, const std::string& signal, const std::string& model,
                          const std::string& rtl) const {
  const auto t = sc_core::sc_time::from_value(c * m_clock.period().value());
  const char* hint = m_recording ? "" : kRecordingHint;
  model_error(report_id::kRtl,
              fmt::format("{} Reducer RTL: {} at cycle {} ({}): model {}, RTL {}{}", m_where,
                          signal, c, t.to_string(), model, rtl, hint));
}

}  // namespace angara
