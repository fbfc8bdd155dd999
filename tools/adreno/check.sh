#!/usr/bin/env bash
# What a tiler's driver does with the plan: every example graph and gallery example, one frame,
# through Mesa's turnip (the Vulkan driver of Adreno 6xx GPUs) on the freedreno drm shim, and the
# tile loads, clears, stores and resolves of its command stream compared with the plan's ops.
#
#   bash tools/adreno/check.sh            the whole matrix and the negative control
#   ADRENO_CHIPS="630" ADRENO_CASES="graph:post_chain example:deferred" bash tools/adreno/check.sh   (a part)
#
# Builds turnip, the shim and cffdump from Debian 12's mesa source with the patches in
# tools/adreno/patches (the shim: binary syncobjs that submits signal, a dump of each submit's
# command stream in the msm "rd" format; cffdump: conditions on the render mode evaluated), in
# $TARGET/adreno, rebuilt only when Mesa's version, the patches or the build options change.
# Then, for chips 618, 630 and 660, planned and naive, tiled (TU_DEBUG=gmem) and left to the
# driver: runs the frame, decodes its stream (cffdump --once with events.lua) and compares per
# render pass and attachment (compare.py). Nothing executes on the shim: the frame is recorded and
# submitted, the images are not rendered.
#
# Exit status: non-zero on any disagreement, or when the negative control (the driver told to load
# where the plan says DontCare) is not caught.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
HERE=$ROOT/tools/adreno
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}
A=$TARGET/adreno
CHIPS=${ADRENO_CHIPS:-"618 630 660"}
SIZE=${ADRENO_SIZE:-1280x720}
JOBS=${ADRENO_JOBS:-2}
export DEBIAN_FRONTEND=noninteractive

# Meson, Mako and friends from Debian (a Python on PATH first may lack Mako).
export PATH=/usr/bin:/bin:$PATH

MESA_OPTIONS="-Dbuildtype=release -Dvulkan-drivers=freedreno -Dtools=drm-shim,freedreno
  -Dgallium-drivers= -Dplatforms= -Dglx=disabled -Degl=disabled -Dgles1=disabled -Dgles2=disabled
  -Dopengl=false -Dllvm=disabled -Dshared-glapi=disabled -Dvalgrind=disabled -Dlibunwind=disabled
  -Dvideo-codecs= -Dgbm=disabled -Dxlib-lease=disabled"
MESA_TARGETS="src/freedreno/vulkan/libvulkan_freedreno.so
  src/freedreno/drm-shim/libfreedreno_noop_drm_shim.so src/freedreno/decode/cffdump"
DEPS="dpkg-dev meson ninja-build python3-mako bison flex glslang-tools pkg-config libdrm-dev
  libexpat1-dev zlib1g-dev libzstd-dev libelf-dev liblua5.3-dev libarchive-dev libvulkan1 patch"

echo "== build dependencies"
missing=""
for p in $DEPS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
# Debian 12's mesa source: other deb-src entries (another suite's) do not bring it.
no_source() { ! apt-cache showsrc mesa 2>/dev/null | grep -q '^Version: 22\.3\.6'; }
if [ -n "$missing" ] || no_source; then
    SUDO=$([ "$(id -u)" = 0 ] && echo "" || echo sudo)
    $SUDO apt-get update -qq
    if no_source; then
        echo "adding deb-src entries for bookworm"
        printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm bookworm-updates\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' |
            $SUDO tee /etc/apt/sources.list.d/tilegraph-adreno-src.sources >/dev/null
        $SUDO apt-get update -qq
    fi
    # shellcheck disable=SC2086
    $SUDO apt-get install -y -qq --no-install-recommends $DEPS >/dev/null
fi

echo "== turnip, the freedreno shim and cffdump (Debian's mesa 22.3.6)"
version=$(apt-cache showsrc mesa | awk '/^Version: 22\.3\.6/ {print $2}' | sort -V | tail -1)
[ -n "$version" ] || { echo "no mesa 22.3.6 source package in apt (Debian 12 has it)" >&2; exit 1; }
stamp=$({ echo "$version"; echo "$MESA_OPTIONS"; echo "$MESA_TARGETS"; cat "$HERE"/patches/*.patch; } | sha256sum | cut -c1-16)
if [ "$(cat "$A/stamp" 2>/dev/null)" != "$stamp" ]; then
    start=$(date +%s)
    rm -rf "$A/src" "$A/build" "$A/stamp"
    mkdir -p "$A/src"
    (cd "$A/src" && apt-get source -qq "mesa=$version" 2>&1 | grep -v '^W: Download is performed unsandboxed' || true)
    src=$(echo "$A"/src/mesa-22.3.6)
    [ -d "$src" ] || { echo "apt-get source mesa=$version gave no $src" >&2; exit 1; }
    # Debian's own patches (a 1.0 source package: dpkg-source does not apply them), then ours.
    while read -r p; do
        case "$p" in ''|\#*) continue ;; esac
        patch -d "$src" -p1 -s <"$src/debian/patches/$p"
    done <"$src/debian/patches/series"
    for p in "$HERE"/patches/*.patch; do
        patch -d "$src" -p1 -s <"$p"
    done
    # shellcheck disable=SC2086
    meson setup "$A/build" "$src" $MESA_OPTIONS >"$A/meson.log" 2>&1 || { tail -30 "$A/meson.log" >&2; exit 1; }
    # shellcheck disable=SC2086
    ninja -C "$A/build" -j"${ADRENO_BUILD_JOBS:-2}" $MESA_TARGETS >"$A/ninja.log" 2>&1 || { tail -30 "$A/ninja.log" >&2; exit 1; }
    echo "$stamp" >"$A/stamp"
    echo "built in $(( $(date +%s) - start )) s"
else
    echo "reused $A/build (mesa $version, patches unchanged)"
fi
DRIVER=$A/build/src/freedreno/vulkan/libvulkan_freedreno.so
SHIM=$A/build/src/freedreno/drm-shim/libfreedreno_noop_drm_shim.so
CFFDUMP=$A/build/src/freedreno/decode/cffdump
# cffdump looks its register database up where the source was when it was built; the build is
# reused from wherever the target directory now is.
export RNN_PATH=$A/src/mesa-22.3.6/src/freedreno/registers
ICD=$A/freedreno_icd.json
printf '{"file_format_version": "1.0.0", "ICD": {"library_path": "%s", "api_version": "1.3.230"}}\n' "$DRIVER" >"$ICD"

echo "== the tool and the gallery"
EXAMPLES="deferred post forward cubemap stereo"
cargo build --release --bin tilegraph $(printf -- '--example %s ' $EXAMPLES) 2>&1 | grep -v '^\s*\(Compiling\|Finished\)' || true

OUT=$A/runs
rm -rf "$OUT"
mkdir -p "$OUT"

# One case: chip, tiling (gmem|auto), mode, kind (graph|example), name; a sixth argument is added
# to TU_DEBUG (the negative control). Writes $OUT/KIND-NAME.MODE.TILING.aCHIP.{log,json,events,txt}.
run_case() {
    # mode: planned, naive, or dont-care (planned, `--dont-care`: the plan hands over DontCare).
    local chip=$1 tiling=$2 mode=$3 kind=$4 what=$5 extra=${6:-}
    local name="$kind-$what.$mode.$tiling.a$chip${extra:+.neg}"
    local base=$OUT/$name
    local debug=""
    [ "$tiling" = gmem ] && debug=gmem
    [ -n "$extra" ] && debug="${debug:+$debug,}$extra"
    local cmd
    if [ "$kind" = graph ]; then
        cmd=("$TARGET/release/tilegraph" run "examples/graphs/$what.json" --backend vulkan
            --size "$SIZE" --recorded-json "$base.json")
        if [ "$mode" = dont-care ]; then cmd+=(--mode planned --dont-care); else cmd+=(--mode "$mode"); fi
    else
        cmd=("$TARGET/release/examples/$what" --headless --backend vulkan --mode "$mode" --frames 1
            --size "$SIZE" --output "$base.png" --recorded-json "$base.json")
    fi
    rm -f "$base.rd"
    if ! env VK_DRIVER_FILES="$ICD" VK_ICD_FILENAMES="$ICD" LD_PRELOAD="$SHIM" FD_GPU_ID="$chip" \
        FD_RD_FILE="$base.rd" TU_DEBUG="$debug" MESA_SHADER_CACHE_DIR="$A/shader-cache" \
        "${cmd[@]}" >"$base.log" 2>&1; then
        { echo "### $name"; echo "  FAILED to run: ${cmd[*]}"; tail -5 "$base.log" | sed 's/^/  /'; } >"$base.txt"
        echo '{"label": "'"$name"'", "attachments": 0, "disagreements": 1, "failed": true}' >"$base.summary"
        return 0
    fi
    if ! grep -q "Turnip Adreno (TM) $chip" "$base.log"; then
        { echo "### $name"; echo "  not on turnip:"; grep -m1 adapter "$base.log" | sed 's/^/  /'; } >"$base.txt"
        echo '{"label": "'"$name"'", "attachments": 0, "disagreements": 1, "failed": true}' >"$base.summary"
        return 0
    fi
    "$CFFDUMP" --once --script "$HERE/events.lua" "$base.rd" >"$base.events" 2>"$base.cffdump.log" || true
    python3 "$HERE/compare.py" --recorded "$base.json" --events "$base.events" --label "$name" \
        --summary "$base.summary" >"$base.txt" || true
    rm -f "$base.rd" "$base.png"
}
export -f run_case
export OUT TARGET ICD SHIM CFFDUMP HERE SIZE A

# Cases: graph:NAME (examples/graphs/NAME.json) and example:NAME (a gallery example).
all_cases="$(cd examples/graphs && ls ./*.json | sed 's|^\./|graph:|; s|\.json$||' | tr '\n' ' ')"
all_cases="$all_cases $(printf 'example:%s ' $EXAMPLES)"
selected=${ADRENO_CASES:-$all_cases}
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
echo "== ${#cases[@]} frames on turnip ($SIZE; chips $CHIPS; $JOBS at a time)"
start=$(date +%s)
printf '%s\n' "${cases[@]}" | xargs -P "$JOBS" -L 1 bash -c 'run_case "$@"' _
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

echo "== negative control: turnip told to load where the plan says DontCare (TU_DEBUG=dontcare_as_load)"
run_case 630 gmem dont-care graph post_chain dontcare_as_load
cat "$OUT/graph-post_chain.dont-care.gmem.a630.neg.txt"
neg=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["disagreements"])' "$OUT/graph-post_chain.dont-care.gmem.a630.neg.summary")

totals=$(python3 - "$OUT" <<'EOF'
import glob, json, sys
rows = [json.loads(l) for f in sorted(glob.glob(sys.argv[1] + "/*.summary"))
        if not f.endswith(".neg.summary") for l in open(f)]
n = sum(r["attachments"] for r in rows)
d = sum(r["disagreements"] for r in rows)
print(n, d)
EOF
)
read -r n_attachments total <<<"$totals"
status=0
if [ "$neg" = 0 ]; then
    echo "negative control NOT caught: the driver loaded where the plan says DontCare and no disagreement was found" >&2
    status=1
else
    echo "negative control caught: $neg disagreement(s) where the driver loads on DontCare"
fi
[ "$total" = 0 ] || status=1
echo "$n_attachments attachments, $total disagreements"
exit $status
