# Sourced by the shell tests: a scratch directory removed on exit ($work), and the count of
# passed and failed checks (ok, fail MESSAGE; summary prints both and fails if any failed).
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0
ok() { passed=$((passed + 1)); }
fail() {
  echo "FAIL: $*"
  failed=$((failed + 1))
}
summary() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}
