#!/usr/bin/env bash
# Builds what tools/tilers/check.sh runs: Mesa 25's turnip (Adreno 6xx/7xx) and panvk (Mali
# Valhall), the freedreno and panfrost noop drm shims, cffdump, and libdrm, from Debian 13's source
# packages, with meson from a Python venv. Everything lives under $TARGET/tilers and is rebuilt only
# when the source versions, the build options or the patches in tools/tilers/patches change (the
# stamp); a change of patches re-applies them to the kept source tree, so ninja rebuilds only what
# they touch.
#
#   bash tools/tilers/build.sh       prints the built paths as shell assignments on its last lines
set -euo pipefail
# shellcheck source=tools/tilers/paths.sh
. "$(dirname "$0")/paths.sh"
JOBS=${TILERS_BUILD_JOBS:-2}
MESA_VERSION=25.0.7
LIBDRM_VERSION=2.4.124
SUITE=trixie
export DEBIAN_FRONTEND=noninteractive
SUDO=$([ "$(id -u)" = 0 ] && echo "" || echo sudo)
mkdir -p "$T"

DEPS="dpkg-dev python3-venv bison flex byacc glslang-tools pkg-config libexpat1-dev zlib1g-dev
  libelf-dev liblua5.3-dev libarchive-dev libvulkan1 patch debian-archive-keyring"
MESA_OPTIONS="-Dbuildtype=release -Dvulkan-drivers=freedreno,panfrost -Dgallium-drivers= -Dplatforms=
  -Dglx=disabled -Degl=disabled -Dgbm=disabled -Dopengl=false -Dgles1=disabled -Dgles2=disabled
  -Dllvm=disabled -Dtools=freedreno,panfrost,drm-shim -Dfreedreno-kmds=msm -Dvalgrind=disabled
  -Dlibunwind=disabled -Dzstd=disabled -Dvideo-codecs= -Dxmlconfig=disabled"
MESA_TARGETS="src/freedreno/vulkan/libvulkan_freedreno.so src/panfrost/vulkan/libvulkan_panfrost.so
  src/freedreno/drm-shim/libfreedreno_noop_drm_shim.so src/panfrost/drm-shim/libpanfrost_noop_drm_shim.so
  src/freedreno/decode/cffdump"
LIBDRM_OPTIONS="-Dintel=disabled -Dradeon=disabled -Damdgpu=disabled -Dnouveau=disabled
  -Dvmwgfx=disabled -Domap=disabled -Dexynos=disabled -Dtegra=disabled -Dvc4=disabled
  -Detnaviv=disabled -Dfreedreno=enabled -Dfreedreno-kgsl=false -Dinstall-test-programs=false
  -Dudev=false -Dvalgrind=disabled -Dman-pages=disabled -Dcairo-tests=disabled -Dtests=false"
PY_TOOLS="meson==1.7.2 ninja==1.11.1.4 mako==1.3.10 pyyaml==6.0.2 ply==3.11 packaging==25.0 pycparser==2.22"

log() { echo "$@" >&2; }

# Debian 13's source entries, on the archive the machine's own apt sources name (deb822 or one-line).
apt_sources() {
    local uri keyring
    uri=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
        awk '/^URIs:/ {u=$2} /^Suites:/ && u !~ /security/ {print u; exit}')
    [ -n "$uri" ] || uri=$(grep -hsE '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list |
        grep -v security | awk '{for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) {print $i; exit}}')
    [ -n "$uri" ] || { log "no Debian archive in the machine's apt sources"; exit 1; }
    keyring=/usr/share/keyrings/debian-archive-keyring.gpg
    printf 'Types: deb-src\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: %s\n' "$uri" "$SUITE" "$keyring" |
        $SUDO tee /etc/apt/sources.list.d/tilegraph-tilers-src.sources >/dev/null
    log "deb-src $SUITE from $uri"
}

src_version() { apt-cache showsrc "$1" 2>/dev/null | awk -v v="^$2" '/^Version:/ && $2 ~ v {print $2}' | sort -V | tail -1; }

dependencies() {
    local missing="" p
    for p in $DEPS; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
    done
    if [ -n "$missing" ] || [ -z "$(src_version mesa "$MESA_VERSION")" ] || [ -z "$(src_version libdrm "$LIBDRM_VERSION")" ]; then
        [ -f /etc/apt/sources.list.d/tilegraph-tilers-src.sources ] || apt_sources
        $SUDO apt-get update -qq
        # shellcheck disable=SC2086
        [ -z "$missing" ] || $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
    fi
    if [ ! -x "$T/venv/bin/meson" ]; then
        python3 -m venv "$T/venv"
        # shellcheck disable=SC2086
        "$T/venv/bin/pip" install -q $PY_TOOLS
    fi
}

# Fetches and unpacks a Debian source package (its own patches applied by dpkg-source) into $T/src.
fetch_source() {
    local pkg=$1 want=$2 version dir
    version=$(src_version "$pkg" "$want")
    [ -n "$version" ] || { log "no $pkg $want source package in apt (Debian 13 has it)"; exit 1; }
    dir=$T/src/$pkg-$want
    if [ "$(cat "$dir/.tilers-version" 2>/dev/null)" != "$version" ]; then
        rm -rf "$dir" "$T/src/$pkg-$want.fetch"
        mkdir -p "$T/src/$pkg-$want.fetch"
        (cd "$T/src/$pkg-$want.fetch" && apt-get source -qq "$pkg=$version" 2>&1 |
            grep -v 'unsandboxed' >&2 || true)
        mv "$T/src/$pkg-$want.fetch/$pkg-$want" "$dir"
        rm -rf "$T/src/$pkg-$want.fetch"
        echo "$version" >"$dir/.tilers-version"
    fi
    echo "$dir"
}

libdrm() {
    local src stamp
    src=$(fetch_source libdrm "$LIBDRM_VERSION")
    stamp=$({ cat "$src/.tilers-version"; echo "$LIBDRM_OPTIONS"; } | sha256sum | cut -c1-16)
    [ "$(cat "$T/libdrm.stamp" 2>/dev/null)" = "$stamp" ] && return 0
    rm -rf "$T/libdrm-build" "$T/prefix"
    # shellcheck disable=SC2086
    "$T/venv/bin/meson" setup "$T/libdrm-build" "$src" --prefix="$T/prefix" --libdir=lib \
        -Dbuildtype=release $LIBDRM_OPTIONS >"$T/libdrm-meson.log" 2>&1 || { tail -30 "$T/libdrm-meson.log" >&2; exit 1; }
    "$T/venv/bin/ninja" -C "$T/libdrm-build" -j"$JOBS" install >"$T/libdrm-ninja.log" 2>&1 || { tail -30 "$T/libdrm-ninja.log" >&2; exit 1; }
    echo "$stamp" >"$T/libdrm.stamp"
}

# Our patches on the kept tree: the ones applied last time come off first (patch -R), so that
# only the files they touch change and ninja rebuilds only those.
patch_mesa() {
    local src=$1 p
    if [ -d "$T/applied" ]; then
        for p in $(ls -r "$T"/applied/*.patch 2>/dev/null); do
            patch -d "$src" -p1 -R -s <"$p" || { log "could not take $p off; unpacking again"; return 1; }
        done
    fi
    rm -rf "$T/applied"
    mkdir -p "$T/applied"
    for p in "$HERE"/patches/*.patch; do
        [ -e "$p" ] || continue
        patch -d "$src" -p1 -s <"$p"
        cp "$p" "$T/applied/"
    done
}

mesa() {
    local src stamp start
    src=$(fetch_source mesa "$MESA_VERSION")
    stamp=$({ cat "$src/.tilers-version" "$T/libdrm.stamp"; echo "$MESA_OPTIONS $MESA_TARGETS"; cat "$HERE"/patches/*.patch 2>/dev/null; } |
        sha256sum | cut -c1-16)
    if [ "$(cat "$T/mesa.stamp" 2>/dev/null)" = "$stamp" ]; then
        log "reused $T/mesa-build (mesa $(cat "$src/.tilers-version"), libdrm $LIBDRM_VERSION, patches unchanged)"
        echo "$src"
        return 0
    fi
    start=$(date +%s)
    rm -f "$T/mesa.stamp"
    if ! patch_mesa "$src"; then
        rm -rf "$src" "$T/applied"
        src=$(fetch_source mesa "$MESA_VERSION")
        patch_mesa "$src"
    fi
    if [ ! -f "$T/mesa-build/build.ninja" ]; then
        # shellcheck disable=SC2086
        PKG_CONFIG_PATH=$T/prefix/lib/pkgconfig "$T/venv/bin/meson" setup "$T/mesa-build" "$src" \
            $MESA_OPTIONS >"$T/mesa-meson.log" 2>&1 || { tail -40 "$T/mesa-meson.log" >&2; exit 1; }
    fi
    # shellcheck disable=SC2086
    PKG_CONFIG_PATH=$T/prefix/lib/pkgconfig "$T/venv/bin/ninja" -C "$T/mesa-build" -j"$JOBS" $MESA_TARGETS \
        >"$T/mesa-ninja.log" 2>&1 || { tail -40 "$T/mesa-ninja.log" >&2; exit 1; }
    echo "$stamp" >"$T/mesa.stamp"
    log "built mesa in $(( $(date +%s) - start )) s at -j$JOBS"
    echo "$src"
}

dependencies
export PATH=$T/venv/bin:$PATH
libdrm
MESA_SRC=$(mesa)
B=$T/mesa-build
cat <<PATHS
MESA_SRC=$MESA_SRC
TURNIP=$B/src/freedreno/vulkan/libvulkan_freedreno.so
PANVK=$B/src/panfrost/vulkan/libvulkan_panfrost.so
FD_SHIM=$B/src/freedreno/drm-shim/libfreedreno_noop_drm_shim.so
PAN_SHIM=$B/src/panfrost/drm-shim/libpanfrost_noop_drm_shim.so
CFFDUMP=$B/src/freedreno/decode/cffdump
LIBDRM_LIB=$T/prefix/lib
PATHS
