#pragma once
// Model failures (models/core/model_error.h) through SystemC's report handler: each is reported
// as an SC_ERROR under its message id, so that a host's settings for those ids apply (show, log,
// stop, abort, or throw the sc_report itself). Unless a host has set them first, an id's actions
// are only to log and cache the report: the model then throws its ModelError, and the CLI prints
// the message once, as the documented exit status 3.

namespace angara {

// Installs the hook and the ids' default actions; once per process, every System does it.
void report_model_errors_to_systemc();

}  // namespace angara
