#!/usr/bin/env bash
# The Debian package (cpack -G DEB in the build directory) installed on this machine with dpkg:
# the tools and their man pages, the Python module, the docs and the example configs, and an
# example run from the installed config; removed again at the end. Needs root (CI is): skipped
# (77) otherwise, or where the package is installed already by someone else.
# usage: deb_test.sh BUILD_DIR VERSION
set -u
build=$1
version=$2
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../support/checks.sh"
[ "$(id -u)" -eq 0 ] && command -v dpkg > /dev/null || { echo "skipped: needs root and dpkg"; exit 77; }
if dpkg-query -W -f='${Status}' angara-tlm 2> /dev/null | grep -q "install ok installed"; then
  echo "skipped: angara-tlm is installed on this machine already; not touching it"
  exit 77
fi

if (cd "$build" && cpack -G DEB -B "$work/pkg") > "$work/cpack.log" 2>&1; then
  ok
else
  fail "cpack -G DEB failed: $(tail -5 "$work/cpack.log")"
fi
deb=$(ls "$work"/pkg/angara-tlm_"$version"*.deb 2> /dev/null | head -1)
check "no angara-tlm_$version*.deb made: $(ls "$work/pkg")" [ -n "$deb" ]
depends=$(dpkg-deb -f "$deb" Depends)
for dependency in libsystemc libfmt libboost-program-options libtomlplusplus python3; do
  echo "$depends" | grep -q "$dependency" && ok || fail "Depends lacks $dependency: $depends"
done
trap 'dpkg -r angara-tlm > /dev/null 2>&1; rm -rf "$work"' EXIT
if dpkg -i "$deb" > "$work/dpkg.log" 2>&1; then
  ok
else
  fail "dpkg -i failed: $(tail -5 "$work/dpkg.log")"
fi
/usr/bin/angara-sim --version | grep -q "^angara-sim $version " && ok || fail "angara-sim --version"
for file in /usr/bin/angara-sweep /usr/bin/angara-plot-links /usr/bin/angara-plot-intervals \
            /usr/share/man/man1/angara-sim.1 \
            /usr/share/man/man1/angara-sweep.1 /usr/share/doc/angara-tlm/README.md \
            /usr/share/doc/angara-tlm/docs/PYTHON.md /usr/share/angara-tlm/configs/default.toml \
            /usr/include/angara-tlm/platform/machine/interconnect.h; do
  [ -e "$file" ] && ok || fail "not installed: $file"
done
for file in cmake/angara-tlm/angara-tlm-config.cmake pkgconfig/angara-tlm.pc \
            python3/dist-packages/angara_tlm/__init__.py; do
  dpkg -L angara-tlm | grep -q "^/usr/lib/.*$file$" && ok || fail "not installed: $file"
done
grep -q "^\.SH RUN" /usr/share/man/man1/angara-sim.1 && ok || fail "the man page has no run section"
cd "$work" || exit 1
/usr/bin/angara-sim run /usr/share/angara-tlm/configs/torus_8x8_dateline.toml \
  --set traffic.rate=0.1 --mode lt -q --out "$work/r.json" > "$work/run.out" 2>&1
check "the example from the installed config failed: $(cat "$work/run.out")" [ $? -eq 0 ]
/usr/bin/python3 -c '
import angara_tlm as at, sys
r = at.run("/usr/share/angara-tlm/configs/torus_8x8_dateline.toml", set={"traffic.rate": 0.1},
           mode="lt")
sys.exit(0 if r["nodes"] == 64 and str(at.tools()) == "/usr/bin" else 1)
' > "$work/python.log" 2>&1
check "the installed Python module: $(cat "$work/python.log")" [ $? -eq 0 ]
dpkg -r angara-tlm > "$work/remove.log" 2>&1
check "dpkg -r failed: $(tail -3 "$work/remove.log")" [ $? -eq 0 ]
check "angara-sim is left after dpkg -r" [ ! -e /usr/bin/angara-sim ]
summary
