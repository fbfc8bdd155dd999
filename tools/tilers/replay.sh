# Sourced by tools/tilers/check.sh: `tilegraph replay` of the committed naive traces on turnip 25
# (a740, tiled: TU_DEBUG=gmem), as recorded and with the ops `tilegraph trace` proves
# (`--replan --no-compare`: nothing executes on the shim, so there are no images to compare).
# The GMEM loads, clears and writes (stores and resolves) turnip emitted in each, from its own
# command stream (FD_RD_DUMP, cffdump, replay_counts.py); the replanned stream's draw passes must
# have exactly as many fewer loads and writes as the replay says it changed (wgpu's clear-only
# zero-initialisation passes, which a clear in place of a load makes it drop, counted apart). Uses check.sh's OUT, T, TARGET,
# HERE, ICD, FD_SHIM, CFFDUMP and status.

# One replay on the shim: trace, label, replay arguments. Writes $OUT/replay-LABEL.{log,events,json}.
replay_on_turnip() {
    local trace=$1 label=$2 dump="tilers-$$-replay-$2"
    shift 2
    local base=$OUT/replay-$label
    rm -f /tmp/"$dump"_*.rd
    if ! env VK_DRIVER_FILES="$ICD" VK_ICD_FILENAMES="$ICD" LD_PRELOAD="$FD_SHIM" FD_GPU_ID=740 \
        FD_RD_DUMP=enable FD_RD_DUMP_TESTNAME="$dump" TU_DEBUG=gmem NODEVICE_SELECT=1 \
        MESA_SHADER_CACHE_DIR="$T/shader-cache" "${TILEGRAPH:-$TARGET/release/tilegraph}" replay \
        "$trace" --backend vulkan "$@" >"$base.log" 2>&1; then
        echo "replay of $trace on turnip FAILED:" >&2
        tail -5 "$base.log" >&2
        return 1
    fi
    # shellcheck disable=SC2046
    cat $(ls /tmp/"$dump"_*.rd | sort) >"$base.rd.gz"
    "$CFFDUMP" --once --script "$HERE/events.lua" "$base.rd.gz" >"$base.events" 2>/dev/null || true
    python3 "$HERE/replay_counts.py" "$base.events" >"$base.json"
    rm -f /tmp/"$dump"_*.rd "$base.rd.gz"
}

echo "== replays on turnip 25.0 (a740, tiled): the committed naive traces as recorded and replanned"
printf '  %-16s %-10s %7s %6s %6s %7s %7s %10s\n' trace replay passes tiled loads clears writes zero-init
for name in deferred-naive post-naive forward-naive; do
    trace=tool/tests/traces/$name
    replay_on_turnip "$trace" "$name.recorded" || { status=1; continue; }
    replay_on_turnip "$trace" "$name.replanned" --replan --no-compare || { status=1; continue; }
    # What the replay says it changed: "replanned: L loads, S stores, R resolves changed".
    changed=$(grep -o 'replanned: [0-9]* loads, [0-9]* stores, [0-9]* resolves changed' \
        "$OUT/replay-$name.replanned.log" | tr -dc '0-9 ' | xargs)
    python3 - "$OUT/replay-$name.recorded.json" "$OUT/replay-$name.replanned.json" "$name" $changed <<'PY' || status=1
import json, sys
rec, rep = (json.load(open(p)) for p in sys.argv[1:3])
name = sys.argv[3]
loads, stores, resolves = (int(v) for v in sys.argv[4:7])
for label, c in (("recorded", rec), ("replanned", rep)):
    print(f"  {name:<16} {label:<10} {c['passes']:>7} {c['tiled']:>6} {c['loads']:>6} {c['clears']:>6} {c['writes']:>7} {c['zero_init']:>10}")
# A load the plan drops becomes a clear; a store or resolve it drops is no write.
ok = (rec["loads"] - rep["loads"] == loads and rec["writes"] - rep["writes"] == stores + resolves)
print(f"replay on turnip 25.0 adreno-740: {name}: recorded {rec['loads']} loads {rec['writes']} writes,"
      f" replanned {rep['loads']} loads {rep['writes']} writes; the replay changed {loads} loads,"
      f" {stores} stores, {resolves} resolves: {'as emitted' if ok else 'NOT as emitted'}")
sys.exit(0 if ok else 1)
PY
done
