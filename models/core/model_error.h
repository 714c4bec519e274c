#pragma once
// Failures inside the model (conservation broken, a deadlock, a collective's arithmetic wrong): not
// the user's config. Each is reported under a message id ("/angara/deadlock", ...) to the hook a
// SystemC platform installs (platform/machine: SystemC's report handler, so that a host's report
// settings apply), then thrown as a ModelError: the model cannot go on from where it failed.

#include <array>
#include <stdexcept>
#include <string>

namespace angara {

class ModelError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A failure every rank of a run split over MPI ranks finds at the same point (the watchdog, the
// ledger's count over all ranks): each throws it, and rank 0 alone reports it.
class SharedModelError : public ModelError {
 public:
  using ModelError::ModelError;
};

// The message ids, one per kind of failure.
namespace report_id {
inline constexpr const char* kConservation = "/angara/conservation";  // the packet ledger
inline constexpr const char* kDeadlock = "/angara/deadlock";          // the watchdog
inline constexpr const char* kCollective = "/angara/collective";      // the subnet and its results
inline constexpr const char* kNode = "/angara/node";                  // CPUs, PCIe, message library
inline constexpr const char* kApplication = "/angara/application";    // applications' results
inline constexpr const char* kRtl = "/angara/rtl";              // an RTL block against the model
inline constexpr const char* kUserPort = "/angara/user_port";   // an embedding user's port
inline constexpr const char* kPartition = "/angara/partition";  // a partition's run
inline constexpr const char* kLookahead = "/angara/lookahead";  // a cut link's record too late
// A TLM protocol broken on the model's own sockets (reported only, as SC_REPORT_ERROR).
inline constexpr const char* kProtocol = "/angara/protocol";
inline constexpr std::array<const char*, 9> kAll{kConservation, kDeadlock,    kCollective,
                                                 kNode,         kApplication, kRtl,
                                                 kUserPort,     kPartition,   kLookahead};
}  // namespace report_id

// Where failures are reported before they are thrown; none: thrown only.
using ModelErrorHook = void (*)(const char* id, const std::string& message);
void set_model_error_hook(ModelErrorHook hook);

// Reports `message` under `id` to the hook, then throws ModelError(message).
[[noreturn]] void model_error(const char* id, const std::string& message);
// The same for a failure all ranks found together: throws SharedModelError(message).
[[noreturn]] void shared_model_error(const char* id, const std::string& message);

}  // namespace angara
