# Sourced by tools/tilers/check.sh: panvk 25 (Mali-G610, Valhall v10) on the panfrost noop drm shim.
#
# Every selected case, planned and naive (the graphs once more with DontCare handed over), one
# frame each. panvk runs with PANVK_DEBUG=interpret (patch 0002): pandecode's command-stream
# interpreter follows each submit statically and prints the framebuffer descriptor of every
# fragment job it reaches; mali.py reads the tile size, the tile-buffer allocation and what each
# render target and depth/stencil buffer is preloaded, cleared and written back with, and compares
# them per render pass and attachment with the plan's ops. Then the crate's Mali tile model against
# panvk's tile size on the same groups, and the negative control (patch 0003: panvk told to preload
# where the plan says DontCare). Uses check.sh's OUT, T, HERE, SIZE, JOBS, PAN_ICD, PAN_SHIM,
# LIBDRM_LIB, TARGET, selected, frame_cmd, failed, totals and status.

# One Mali case: mode, kind, name; a fourth argument, VAR=VALUE, is set for the driver (the
# negative control). Writes $OUT/KIND-NAME.MODE.mali-g610[.neg].{log,json,txt,summary}.
run_mali() {
    local mode=$1 kind=$2 what=$3 extra=${4:-}
    local name="$kind-$what.$mode.mali-g610${extra:+.neg}"
    local base=$OUT/$name
    if [ "$kind" = probe ]; then
        CMD=("$TARGET/release/tilegraph" run "$HERE/$what.json" --backend vulkan --size "$SIZE"
            --recorded-json "$base.json" --mode "$mode")
    else
        frame_cmd "$kind" "$what" "$mode" "$base"
    fi
    rm -f "$base".pd.ctx-*
    if ! env VK_DRIVER_FILES="$PAN_ICD" VK_ICD_FILENAMES="$PAN_ICD" LD_PRELOAD="$PAN_SHIM" \
        PAN_GPU_ID=0xa867 PANVK_DEBUG=interpret PANDECODE_DUMP_FILE="$base.pd" \
        MESA_SHADER_CACHE_DIR="$T/shader-cache" ${extra:+"$extra"} "${CMD[@]}" >"$base.log" 2>&1; then
        failed "$name" "$base" "FAILED to run: ${CMD[*]}"
    elif ! grep -q "Mali-G610" "$base.log"; then
        failed "$name" "$base" "not on panvk's Mali-G610"
    else
        # One dump a decode context (a device), in creation order.
        cat $(ls "$base".pd.ctx-* | sort) >"$base.dump"
        python3 "$HERE/mali.py" --recorded "$base.json" --dump "$base.dump" --label "$name" \
            --summary "$base.summary" >"$base.txt" || true
    fi
    rm -f "$base".pd.ctx-* "$base.dump" "$base.png"
}
export -f run_mali

mali_cases=()
for c in $selected; do
    kind=${c%%:*} what=${c#*:}
    mali_cases+=("planned $kind $what" "naive $kind $what")
    [ "$kind" = graph ] && mali_cases+=("dont-care $kind $what")
done
# Groups from 16 to 128 colour bytes a pixel, to hold the tile model against panvk past its budget
# (no example graph comes near it).
mali_cases+=("planned probe mali_budget")
echo "== ${#mali_cases[@]} frames on panvk 25.0 (Mali-G610 on the panfrost shim; $SIZE; $JOBS at a time)"
mali_start=$(date +%s)
printf '%s\n' "${mali_cases[@]}" | xargs -P "$JOBS" -L 1 bash -c 'run_mali "$@"' _
for c in $selected probe:mali_budget; do
    for mode in planned naive dont-care; do
        f="$OUT/${c%%:*}-${c#*:}.$mode.mali-g610.txt"
        [ -f "$f" ] && cat "$f"
    done
done
echo "(the frames took $(( $(date +%s) - mali_start )) s)"

echo "== the Mali tile model (DESIGN 2.7) next to panvk's tile size"
for c in $selected; do
    [ "${c%%:*}" = graph ] || continue
    "$TARGET/release/tilegraph" plan "examples/graphs/${c#*:}.json" --tile mali-g71 --tile mali-g52 \
        --tile mali-g610 --tile mali-g720 --format json >"$OUT/graph-${c#*:}.mali-plan.json" 2>/dev/null ||
        rm -f "$OUT/graph-${c#*:}.mali-plan.json"
done
"$TARGET/release/tilegraph" plan "$HERE/mali_budget.json" --tile mali-g71 --tile mali-g52 --tile mali-g610 \
    --tile mali-g720 --format json >"$OUT/probe-mali_budget.mali-plan.json"
python3 "$HERE/mali.py" model --runs "$OUT" || true

echo "== negative control: panvk told to preload where the plan says DontCare (PANVK_DONT_CARE_AS_LOAD, patch 0003)"
run_mali dont-care graph post_chain PANVK_DONT_CARE_AS_LOAD=true
cat "$OUT/graph-post_chain.dont-care.mali-g610.neg.txt"
mali_neg=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["disagreements"])' \
    "$OUT/graph-post_chain.dont-care.mali-g610.neg.summary" 2>/dev/null || echo 0)
if [ "$mali_neg" = 0 ]; then
    echo "panvk negative control NOT caught: the driver preloaded where the plan says DontCare and no disagreement was found" >&2
    status=1
else
    echo "panvk negative control caught: $mali_neg disagreement(s) where the driver preloads on DontCare"
fi
read -r n d <<<"$(totals "$OUT/*.mali-g610.summary")"
echo "panvk 25.0 mali-g610: $n attachments, $d disagreements"
echo "(Mali part: $(( $(date +%s) - mali_start )) s)"
