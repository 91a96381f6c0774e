#!/bin/sh
# Record the events PAPI would offer on a CPU model, from libpfm4's event table
# for that model, on any x86 Linux machine (no counters needed).
#
# Usage: tests/data/papi/record.sh PMU [OUT]
#   PMU: libpfm4's PMU name (skl, icl, spr, amd64_fam17h_zen2, amd64_fam19h_zen4).
#   OUT: default tests/data/papi/PMU.txt
#
# LIBPFM_FORCE_PMU=PMU makes libpfm4 use that table whatever the CPU is; PAPI
# then lists it as its perf_event component's events and loads the presets of
# papi_events.csv for that PMU. What is kept, to stay small:
#   - the hardware-information lines of papi_native_avail ("Key : value");
#   - the component lines and the event-name and umask lines, trimmed of the
#     table padding ("| EVENT", "|     :UMASK"); descriptions and modifiers
#     (":u=0", ":period=0", ...) are dropped;
#   - the available presets from papi_avail -a ("PAPI_X  code  Deriv  text").
set -eu

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	echo "usage: $0 PMU [OUT]" >&2
	exit 2
fi
pmu=$1
out=${2:-$(dirname "$0")/$pmu.txt}

for tool in papi_native_avail papi_avail; do
	command -v "$tool" >/dev/null || { echo "$0: $tool not found (Debian: papi-tools)" >&2; exit 1; }
done

tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

native=$(LIBPFM_FORCE_PMU=$pmu papi_native_avail)
presets=$(LIBPFM_FORCE_PMU=$pmu papi_avail -a)

# An unknown PMU name gives an empty table, not an error.
if ! printf '%s\n' "$native" | grep -q '^| [^ ]'; then
	echo "$0: libpfm4 has no events for PMU '$pmu' (LIBPFM_FORCE_PMU ignored or unknown)" >&2
	exit 1
fi

version() {
	dpkg-query -W -f='${Version}' "$1" 2>/dev/null || echo unknown
}
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
if [ -e /sys/bus/event_source/devices/cpu ] || [ -e /sys/bus/event_source/devices/cpu_core ]; then
	pmu_here="a core PMU"
else
	pmu_here="no core PMU (software perf events only)"
fi
watchdog=$(cat /proc/sys/kernel/nmi_watchdog 2>/dev/null || echo unknown)

{
	echo "# PAPI's view of libpfm4's event table for PMU '$pmu', recorded $(date -u +%Y-%m-%d)"
	echo "# by tests/data/papi/record.sh $pmu, which runs"
	echo "#   LIBPFM_FORCE_PMU=$pmu papi_native_avail   (event and umask lines kept)"
	echo "#   LIBPFM_FORCE_PMU=$pmu papi_avail -a       (available preset lines kept)"
	echo "# on: ${cpu:-unknown CPU}, Linux $(uname -r), $pmu_here,"
	echo "#   nmi_watchdog=$watchdog, PAPI $(version libpapi7.0), libpfm4 $(version libpfm4)."
	echo "# This is libpfm4's table for that CPU model, not a listing taken on such a"
	echo "# machine. The hardware lines describe the recording machine, except"
	echo "# 'Number Hardware Counters': libpfm4's general-purpose plus fixed counters"
	echo "# for PMU '$pmu' (PAPI takes one off when the NMI watchdog is on)."
	printf '%s\n' "$native" | awk '
		/^ *Native Events in Component:/ { seen_events = 1; sub(/^ +/, ""); print; next }
		/^Total events reported:/ { print; next }
		/^\| [^ ]/ { n = $0; sub(/[ |]+$/, "", n); print n; next }
		/^\|     :[^ =|]+ / { n = $0; sub(/[ |]+$/, "", n); print n; next }
		/^\|/ { next }
		/^[A-Za-z][A-Za-z ()]*: / { if (!seen_events) print }
	'
	printf '%s\n' "$presets" | awk '
		/PAPI Preset Events/ { sub(/^ +/, ""); print; next }
		/^ +Name +Code +Deriv/ { if (!hdr++) print; next }
		/^PAPI_/ { n = $0; sub(/ +$/, "", n); print n }
	'
} >"$tmp"
chmod 644 "$tmp"
mv "$tmp" "$out"
trap - EXIT
echo "$0: wrote $out ($(wc -l <"$out") lines)"
