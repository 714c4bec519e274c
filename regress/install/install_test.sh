#!/usr/bin/env bash
# cmake --install into a fresh prefix, then a program outside the tree (user/) built against it
# with find_package(angara-tlm) and linked again by its pkg-config file, and run.
# usage: install_test.sh BUILD_DIR VERSION
set -u
build=$1
version=$2
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../support/checks.sh"
prefix=$work/prefix

if cmake --install "$build" --prefix "$prefix" > "$work/install.log" 2>&1; then
  ok
else
  fail "cmake --install failed: $(tail -5 "$work/install.log")"
fi
for file in bin/angara-sim bin/angara-sweep include/angara-tlm/platform/machine/system.h \
            include/angara-tlm/models/core/packet.h; do
  [ -e "$prefix/$file" ] && ok || fail "not installed: $file"
done
config=$(find "$prefix" -name angara-tlm-config.cmake)
pc=$(find "$prefix" -name angara-tlm.pc)
[ -n "$config" ] && ok || fail "no angara-tlm-config.cmake installed"
[ -n "$pc" ] && ok || fail "no angara-tlm.pc installed"
"$prefix/bin/angara-sim" --version | grep -q "^angara-sim $version " && ok \
  || fail "the installed angara-sim does not say version $version"

# find_package: the imported target brings include paths, SC_CPLUSPLUS and the libraries.
if cmake -S "$here/user" -B "$work/user" -DCMAKE_PREFIX_PATH="$prefix" \
     -DCMAKE_BUILD_TYPE=Release > "$work/configure.log" 2>&1 &&
   cmake --build "$work/user" > "$work/build.log" 2>&1; then
  ok
else
  fail "the user program did not build: $(tail -20 "$work/configure.log" "$work/build.log")"
fi
if "$work/user/user_main" > "$work/run.txt" 2>&1; then ok; else fail "user_main failed: $(cat "$work/run.txt")"; fi
grep -q "^angara-tlm $version: [1-9][0-9]* packets delivered" "$work/run.txt" && ok \
  || fail "user_main delivered nothing: $(cat "$work/run.txt")"

# Embedding: the user's own generators and receivers bound to the machine's user ports, in each
# mode; every message must arrive.
if cmake -S "$here/embed" -B "$work/embed" -DCMAKE_PREFIX_PATH="$prefix" \
     -DCMAKE_BUILD_TYPE=Release > "$work/embed-configure.log" 2>&1 &&
   cmake --build "$work/embed" > "$work/embed-build.log" 2>&1; then
  ok
else
  fail "the embedding program did not build: $(tail -20 "$work/embed-configure.log" "$work/embed-build.log")"
fi
for mode in at lt lt_buffers; do
  if "$work/embed/embed_main" $mode > "$work/embed-$mode.txt" 2>&1 &&
     grep -q "^embedded angara-tlm ($mode): \([1-9][0-9]*\) messages sent, \1 arrived" \
       "$work/embed-$mode.txt"; then
    ok
  else
    fail "embed_main $mode: $(cat "$work/embed-$mode.txt")"
  fi
done

# The Python module, installed beside the tools, finds them by itself.
if PYTHONPATH="$prefix/lib/python3/dist-packages" ANGARA_BIN= /usr/bin/python3 -c '
import angara_tlm as at, sys
r = at.run({"topology": {"dims": [4, 4]}}, mode="lt")
sys.exit(0 if r["nodes"] == 16 and str(at.tools()).startswith(sys.argv[1]) else 1)
' "$prefix" > "$work/python.log" 2>&1; then
  ok
else
  fail "the installed Python module: $(tail -5 "$work/python.log")"
fi

# pkg-config: its version, and its libraries link the same object in their order.
export PKG_CONFIG_PATH=$(dirname "$pc")
[ "$(pkg-config --modversion angara-tlm)" = "$version" ] && ok || fail "pkg-config version"
object=$(find "$work/user" -name 'user_main.cpp.o' | head -1)
if [ -n "$object" ] && c++ "$object" -o "$work/user_pc" $(pkg-config --libs angara-tlm) \
     > "$work/link.log" 2>&1 && "$work/user_pc" > /dev/null 2>&1; then
  ok
else
  fail "linking by pkg-config --libs failed: $(tail -5 "$work/link.log")"
fi

summary
