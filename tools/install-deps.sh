#!/bin/sh
# Installs the Debian packages that trax's tests ("test") or benchmarks
# ("bench") need, only when something is missing.
set -e
what=${1:-test}
need=""
have() { command -v "$1" >/dev/null 2>&1; }
have cmake || need="$need cmake"
have cc || need="$need gcc"
have c++ || need="$need g++"
have babeltrace2 || need="$need babeltrace2"
# Babeltrace 1: a second reader where Babeltrace 2.0 is wrong (view_kernel.sh)
have babeltrace || need="$need babeltrace"
# strace: index.sh watches trax view start its threads
have strace || need="$need strace"
have python3 || need="$need python3"
# pkg-config: reader_pkgconfig.sh builds a program against the installed trax-reader.pc
have pkg-config || need="$need pkg-config"
# libFuzzer targets (tools/fuzz.sh) need clang and its runtime libraries.
have clang || need="$need clang"
have clang-format || need="$need clang-format"
# The kernel domain's system call probes: compiled for BPF by clang, made a
# skeleton by bpftool (in /usr/sbin), loaded by libbpf (CMakeLists.txt).
have bpftool || [ -x /usr/sbin/bpftool ] || need="$need bpftool"
[ -e /usr/include/bpf/libbpf.h ] || need="$need libbpf-dev"
[ -n "$(ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a 2>/dev/null)" ] ||
	need="$need libclang-rt-14-dev"
if [ "$what" = bench ] || [ "$what" = test ]; then
	have lttng || need="$need lttng-tools"
	# kernel_analyses.sh: LTTng's own analyses read trax's kernel traces
	have lttng-cputop-mi || need="$need python3-lttnganalyses"
	echo "#include <lttng/tracepoint.h>" | cc -E -x c - >/dev/null 2>&1 || need="$need liblttng-ust-dev"
	# timeline.sh: a real browser (headless) loads the pages trax timeline writes
	have chromium || need="$need chromium"
	[ "$what" != bench ] || have trace-cmd || need="$need trace-cmd" # bench/kernel.sh
fi
[ -n "$need" ] || exit 0
if [ "$(id -u)" != 0 ]; then
	echo "install-deps: missing:$need (run as root, or install them)" >&2
	exit 1
fi
echo "install-deps: installing$need"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
apt-get install -y -q --no-install-recommends $need >/dev/null
