#!/usr/bin/env bash
# What tilers' drivers do with the plan: every example graph and gallery example, one frame,
# through Mesa 25's turnip (Adreno 6xx and 7xx) on the freedreno drm shim and panvk (Mali Valhall)
# on the panfrost drm shim, and what each driver's command stream does to each attachment (tile
# loads, clears, stores, resolves; Mali: preloads, clears, write-backs and the tile size) compared
# with the plan's ops.
#
#   bash tools/tilers/check.sh            the whole matrix and the negative controls
#   TILERS_CHIPS="740" TILERS_CASES="graph:post_chain example:deferred" bash tools/tilers/check.sh   (a part)
#   TILERS_MALI=0 / TILERS_ADRENO=0       leave one driver out
#   TILERS_REPLAY=0                       leave out `tilegraph replay` of the committed traces on turnip
#
# tools/tilers/build.sh builds the drivers, shims and decoders from Debian 13's sources (cached in
# $TARGET/tilers). Adreno: for chips 630, 650, 660, 730, 740 and 750, planned and naive, tiled
# (TU_DEBUG=gmem) and left to the driver, turnip writes each submit's command stream (FD_RD_DUMP),
# cffdump decodes it with events.lua and compare.py compares per render pass and attachment. Nothing
# executes on the shims: the frame is recorded and submitted, the images are not rendered.
#
# Exit status: non-zero on any disagreement, or when a negative control (the driver told to load
# where the plan says DontCare) is not caught.
set -euo pipefail
# shellcheck source=tools/tilers/paths.sh
. "$(dirname "$0")/paths.sh"
CHIPS=${TILERS_CHIPS:-"630 650 660 730 740 750"}
SIZE=${TILERS_SIZE:-1280x720}
JOBS=${TILERS_JOBS:-2}

echo "== turnip, panvk, their drm shims and decoders (Debian 13's mesa 25.0.7)"
start=$(date +%s)
paths=$(bash "$HERE/build.sh")
eval "$paths"
echo "(ready in $(( $(date +%s) - start )) s)"
# cffdump looks its register database up where the source was when it was built.
export RNN_PATH=$MESA_SRC/src/freedreno/registers
export LD_LIBRARY_PATH=$LIBDRM_LIB${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
ICD=$T/freedreno_icd.json
printf '{"file_format_version": "1.0.0", "ICD": {"library_path": "%s", "api_version": "1.4.303"}}\n' "$TURNIP" >"$ICD"
PAN_ICD=$T/panfrost_icd.json
printf '{"file_format_version": "1.0.0", "ICD": {"library_path": "%s", "api_version": "1.4.303"}}\n' "$PANVK" >"$PAN_ICD"

echo "== the tool and the gallery"
EXAMPLES="deferred post forward cubemap stereo"
# shellcheck disable=SC2046
cargo build --release --bin tilegraph $(printf -- '--example %s ' $EXAMPLES) 2>&1 | grep -v '^\s*\(Compiling\|Finished\)' || true

OUT=$T/runs
rm -rf "$OUT"
mkdir -p "$OUT"

# The command of one case: kind (graph|example), name, mode (planned|naive|dont-care), base path.
frame_cmd() {
    local kind=$1 what=$2 mode=$3 base=$4
    if [ "$kind" = graph ]; then
        CMD=("$TARGET/release/tilegraph" run "examples/graphs/$what.json" --backend vulkan
            --size "$SIZE" --recorded-json "$base.json")
        if [ "$mode" = dont-care ]; then CMD+=(--mode planned --dont-care); else CMD+=(--mode "$mode"); fi
    else
        CMD=("$TARGET/release/examples/$what" --headless --backend vulkan --mode "${mode/dont-care/planned}"
            --frames 1 --size "$SIZE" --output "$base.png" --recorded-json "$base.json")
    fi
}

failed() {
    local name=$1 base=$2 why=$3
    { echo "### $name"; echo "  $why"; tail -5 "$base.log" | sed 's/^/  /'; } >"$base.txt"
    echo '{"label": "'"$name"'", "attachments": 0, "disagreements": 1, "failed": true}' >"$base.summary"
}

# One Adreno case: chip, tiling (gmem|auto), mode, kind, name; a sixth argument, VAR=VALUE, is set
# for the driver (the negative control). Writes $OUT/KIND-NAME.MODE.TILING.aCHIP.{log,json,events,txt,summary}.
run_adreno() {
    local chip=$1 tiling=$2 mode=$3 kind=$4 what=$5 extra=${6:-}
    local name="$kind-$what.$mode.$tiling.a$chip${extra:+.neg}"
    local base=$OUT/$name debug="" dump="tilers-$$-$name"
    [ "$tiling" = gmem ] && debug=gmem
    frame_cmd "$kind" "$what" "$mode" "$base"
    rm -f /tmp/"$dump"_*.rd
    if ! env VK_DRIVER_FILES="$ICD" VK_ICD_FILENAMES="$ICD" LD_PRELOAD="$FD_SHIM" FD_GPU_ID="$chip" \
        FD_RD_DUMP=enable FD_RD_DUMP_TESTNAME="$dump" TU_DEBUG="$debug" \
        MESA_SHADER_CACHE_DIR="$T/shader-cache" ${extra:+"$extra"} "${CMD[@]}" >"$base.log" 2>&1; then
        failed "$name" "$base" "FAILED to run: ${CMD[*]}"
    elif ! grep -q "Turnip Adreno (TM) $chip" "$base.log"; then
        failed "$name" "$base" "not on turnip"
    else
        # One file per submit, each a gzip member: together one stream in submit order.
        # shellcheck disable=SC2046
        cat $(ls /tmp/"$dump"_*.rd | sort) >"$base.rd.gz"
        "$CFFDUMP" --once --script "$HERE/events.lua" "$base.rd.gz" >"$base.events" 2>"$base.cffdump.log" || true
        python3 "$HERE/compare.py" --recorded "$base.json" --events "$base.events" --label "$name" \
            --summary "$base.summary" >"$base.txt" || true
    fi
    rm -f /tmp/"$dump"_*.rd "$base.rd.gz" "$base.png"
}
export -f run_adreno frame_cmd failed
export OUT TARGET T ICD PAN_ICD FD_SHIM PAN_SHIM CFFDUMP HERE SIZE

# Cases: graph:NAME (examples/graphs/NAME.json) and example:NAME (a gallery example).
all_cases="$(cd examples/graphs && ls ./*.json | sed 's|^\./|graph:|; s|\.json$||' | tr '\n' ' ')"
all_cases="$all_cases $(printf 'example:%s ' $EXAMPLES)"
selected=${TILERS_CASES:-$all_cases}

# "N D" over the .summary files matching a glob, negative controls left out.
totals() {
    python3 - "$@" <<'PY'
import glob, json, sys
rows = [json.loads(l) for pat in sys.argv[1:] for f in sorted(glob.glob(pat))
        if not f.endswith(".neg.summary") for l in open(f)]
print(sum(r["attachments"] for r in rows), sum(r["disagreements"] for r in rows))
PY
}
status=0

if [ "${TILERS_ADRENO:-1}" = 1 ]; then
    cases=()
    for c in $selected; do
        kind=${c%%:*} what=${c#*:}
        for chip in $CHIPS; do
            for mode in planned naive; do
                for tiling in gmem auto; do
                    cases+=("$chip $tiling $mode $kind $what")
                done
            done
            # The graphs once more with DontCare handed over (the gallery hands it over by default).
            [ "$kind" = graph ] && cases+=("$chip gmem dont-care $kind $what")
        done
    done
    echo "== ${#cases[@]} frames on turnip 25.0 ($SIZE; chips $CHIPS; $JOBS at a time)"
    start=$(date +%s)
    printf '%s\n' "${cases[@]}" | xargs -P "$JOBS" -L 1 bash -c 'run_adreno "$@"' _
    for c in $selected; do
        for chip in $CHIPS; do
            for run in planned.gmem planned.auto naive.gmem naive.auto dont-care.gmem; do
                f="$OUT/${c%%:*}-${c#*:}.$run.a$chip.txt"
                [ -f "$f" ] && cat "$f"
            done
        done
    done
    echo "(the frames took $(( $(date +%s) - start )) s)"

    echo "== the Adreno tile report (DESIGN 2.7) next to what turnip did"
    python3 "$HERE/model.py" --summary "$OUT" || true

    echo "== negative control: turnip told to load where the plan says DontCare (driconf vk_dont_care_as_load)"
    neg_chip=${CHIPS##* }
    run_adreno "$neg_chip" gmem dont-care graph post_chain vk_dont_care_as_load=true
    cat "$OUT/graph-post_chain.dont-care.gmem.a$neg_chip.neg.txt"
    neg=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["disagreements"])' "$OUT/graph-post_chain.dont-care.gmem.a$neg_chip.neg.summary")
    if [ "$neg" = 0 ]; then
        echo "turnip negative control NOT caught: the driver loaded where the plan says DontCare and no disagreement was found" >&2
        status=1
    else
        echo "turnip negative control caught: $neg disagreement(s) where the driver loads on DontCare"
    fi
    for chip in $CHIPS; do
        read -r n d <<<"$(totals "$OUT/*.a$chip.summary")"
        echo "turnip 25.0 adreno-$chip: $n attachments, $d disagreements"
    done
fi

if [ "${TILERS_REPLAY:-1}" = 1 ]; then
    # `tilegraph replay` on turnip: what the driver emits for a trace as recorded and replanned.
    # shellcheck source=tools/tilers/replay.sh
    . "$HERE/replay.sh"
fi

if [ "${TILERS_MALI:-1}" = 1 ]; then
    # panvk on the panfrost shim: its own section (uses OUT, selected, frame_cmd, failed, totals).
    # shellcheck source=tools/tilers/mali.sh
    . "$HERE/mali.sh"
fi

read -r n_attachments total <<<"$(totals "$OUT/*.summary")"
[ "$total" = 0 ] || status=1
echo "$n_attachments attachments, $total disagreements"
exit $status
