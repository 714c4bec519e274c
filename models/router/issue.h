#pragma once
// What passes between the router's hop rules (RouterCore::issue()) and a timing shell when a
// copy of a packet leaves through an output: the request the shell books, and the grant it
// carries out.

#include <concepts>

#include "models/core/packet.h"

namespace angara {

// A packet (or a copy of one) leaving through an output: the shell returns the input's credits
// upstream when `frees_input` and forwards the packet unless the output is the PEGroup's.
struct Grant {
  Packet* packet = nullptr;
  PortId in_port = 0;
  VcId in_vc = 0;
  bool frees_input = true;  // the last copy: the input buffer space is free at tail_out
  PortId out_port = 0;
  VcId out_vc = 0;
  Cycle start = 0;     // cycle the head starts on the output channel
  Cycle tail_out = 0;  // cycle the tail has left this router
};

// What a copy from input `in` asks of an output: `length` cycles on its channel and `input`
// cycles of the crossbar input from `earliest` on, and room for `need` free flits in VC `vc` of
// the buffer behind it, where it will hold `flits`. Its tail has left `tail` cycles after its
// start. All three are `length`, but an LT train moves at the pace of the credit loop: its tail
// leaves later, and its copies share the crossbar input at that pace.
struct OutputRequest {
  PortId in = 0;
  PortId out = 0;
  VcId vc = 0;
  int flits = 0;
  int need = 0;
  Cycle earliest = 0;
  Cycle length = 0;
  Cycle input = 0;
  Cycle tail = 0;
  int train = 1;  // the packets it stands for (Packet::train)
  // A train's: from one of its packets' arrival to the next's, on average (from its head's and
  // tail's; back to back: at most one packet's time).
  Cycle spacing = 0;
};

// A timing shell's part in RouterCore::issue(), a template parameter so that a loosely-timed hop
// pays no indirect call. `book(request)` reserves the output from the first cycle at or after
// `request.earliest` it can and returns that cycle; it may lengthen `request.tail` (an LT train,
// paced by the credit loop) (AT: allocation found the output free and the credits there now;
// LT: the first gap in its calendar at which the buffer behind has room).
// `hand_on(grant)` carries the grant out: forwards the copy or gives it to the PEGroup (AT:
// after allocation; LT: at once).
template <typename T>
concept BookingShell = requires(T& shell, OutputRequest& request) {
  { shell.book(request) } -> std::same_as<Cycle>;
};
template <typename T>
concept IssueShell = BookingShell<T> && requires(T& shell, const Grant& grant) {
  shell.hand_on(grant);
};

}  // namespace angara
