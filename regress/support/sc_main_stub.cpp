// libsystemc refers to sc_main; test binaries start in GoogleTest's main, so this never runs.
extern "C" int sc_main(int /*argc*/, char** /*argv*/) {
  return 0;
}
