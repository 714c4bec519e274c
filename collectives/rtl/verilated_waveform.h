#pragma once
// A verilated block behind its pins (VerilatedBlock, the base of the blocks' bindings) and
// Verilator's own trace of it: a VCD of every signal inside the block on SystemC's time base,
// from the start of simulation. A block verilated without --trace (VM_TRACE 0) has none.

#include <memory>
#include <string>
#include <vector>

#include <verilated.h>
#include <systemc>
#if VM_TRACE
#include <verilated_vcd_c.h>
#endif

#include "collectives/rtl/rtl_pins.h"
#include "collectives/rtl/rtl_recording.h"

namespace angara {

#if VM_TRACE
// One VCD file of one or more blocks. A block reports each change before it makes it; the file
// writes the blocks' state at a time once a change at a later time comes (or at flush), so the
// changes of all its blocks must come in time order.
class VerilatedWaveform final : public RtlWaveform {
 public:
  explicit VerilatedWaveform() {
    const sc_core::sc_time second{1, sc_core::SC_SEC};
    m_vcd.set_time_unit(
        sc_core::sc_time{1.0 / second.to_default_time_units(), sc_core::SC_SEC}.to_string());
    m_vcd.set_time_resolution(sc_core::sc_get_time_resolution().to_string());
  }
  ~VerilatedWaveform() override { flush(); }
  VerilatedVcdC& vcd() { return m_vcd; }
  void changing(std::uint64_t at) {
    if (m_changed && at != m_time) dump();
    m_time = at;
    m_changed = true;
  }
  void flush() override {
    if (m_changed) dump();
    m_vcd.flush();
  }

 private:
  void dump() {
    if (m_dumped && m_time <= m_dumped_at) return;  // Verilator refuses a time it has written
    m_vcd.dump(m_time);
    m_dumped = true;
    m_dumped_at = m_time;
    m_changed = false;
  }

  VerilatedVcdC m_vcd;
  std::uint64_t m_time = 0, m_dumped_at = 0;  // SystemC time units
  bool m_changed = false, m_dumped = false;
};
#else
class VerilatedWaveform;
#endif

// The verilated model V behind pins: drive() copies the pins' inputs into it, read() its outputs
// into the pins. Its flops start from random values drawn from `flop_seed` (rtl_seed.h).
template <typename V>
class VerilatedBlock : public RtlModel {
 public:
  VerilatedBlock(const std::string& name, std::uint32_t flop_seed)
      : m_model((seed(flop_seed), name.c_str())) {}

  void eval(std::uint64_t at) final {
#if VM_TRACE
    if (m_waveform) m_waveform->changing(at);
#endif
    drive(m_model);
    m_model.eval();
    read(m_model);
  }

#if VM_TRACE
  void trace_into(VerilatedWaveform& waveform) {
    m_model.trace(&waveform.vcd(), 99);
    m_waveform = &waveform;
  }
#endif

 protected:
  virtual void drive(V& model) = 0;
  virtual void read(const V& model) = 0;

  // A port of `Bits` bits from a value: the bits above them cleared, as Verilator's C++ ports
  // require.
  template <int Bits, typename Port, typename Value>
  static void in(Port& port, Value value) {
    static_assert(Bits <= 32);
    port = static_cast<Port>(static_cast<std::uint32_t>(value) &
                             (Bits == 32 ? ~0U : (1U << Bits) - 1U));
  }
  template <typename Port, std::size_t Words>
  static void in(Port& port, const std::array<std::uint32_t, Words>& value) {
    for (std::size_t w = 0; w < Words; ++w) port[w] = value[w];
  }
  template <typename Port, std::size_t Words>
  static void out(const Port& port, std::array<std::uint32_t, Words>& value) {
    for (std::size_t w = 0; w < Words; ++w) value[w] = port[w];
  }

 private:
  static int seed(std::uint32_t flop_seed) {
    Verilated::randReset(2);  // random, not zeros: rtl_seed.h
    Verilated::randSeed(static_cast<int>(flop_seed));
    return 0;
  }

  V m_model;
  VerilatedWaveform* m_waveform = nullptr;
};

// Every block of `blocks` (VerilatedBlock<V>s) into one file from now on. Must be called before
// the blocks are first evaluated (start_of_simulation).
template <typename V>
std::unique_ptr<RtlWaveform> trace_verilated([[maybe_unused]] const std::vector<RtlModel*>& blocks,
                                             [[maybe_unused]] const std::string& file) {
#if VM_TRACE
  Verilated::traceEverOn(true);
  auto waveform = std::make_unique<VerilatedWaveform>();
  for (RtlModel* block : blocks) static_cast<VerilatedBlock<V>&>(*block).trace_into(*waveform);
  waveform->vcd().open(file.c_str());
  return waveform;
#else
  return nullptr;
#endif
}

}  // namespace angara
