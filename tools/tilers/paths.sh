# Sourced by tools/tilers' scripts: the repository root becomes the working directory, and the
# places they share are named (HERE: these scripts; T: what build.sh builds, under the target dir).
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
ROOT=$PWD
HERE=$ROOT/tools/tilers
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}
T=$TARGET/tilers
