#pragma once
// SystemC elaborates once per process, so a test that simulates runs the simulation in a forked
// child (platform/experiments/child_run.h): the child returns JSON through a pipe; an exception
// in the child comes back as IsolatedError with the child's message.

#include <functional>

#include <nlohmann/json.hpp>

#include "platform/experiments/child_run.h"

namespace angara::test {

using IsolatedError = ChildError;

nlohmann::json run_isolated(const std::function<nlohmann::json()>& body);

}  // namespace angara::test
