# Sourced by the shell tests: a scratch directory removed on exit ($work), and the count of
# passed and failed checks (ok, fail MESSAGE, check MESSAGE COMMAND...; summary prints both and
# fails if any failed).
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0
ok() { passed=$((passed + 1)); }
fail() {
  echo "FAIL: $*"
  failed=$((failed + 1))
}
check() { # check DESCRIPTION COMMAND...: passes when the command succeeds
  local what=$1
  shift
  if "$@"; then ok; else fail "$what"; fi
}
summary() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}
