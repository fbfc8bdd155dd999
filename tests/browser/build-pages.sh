#!/usr/bin/env bash
# Builds the pages the browser tests load, into OUTDIR, with the tool (`tilegraph plan FILE
# --format html`):
#  - fixture-*.html: tests/browser/fixtures/*.data.json (hand-written plans: explain sentences,
#    mips and layers, hostile names) put into a page the tool wrote, in place of its data
#    (make-page.js);
#  - plan-*.html: the example graphs, the fixture graphs (fixtures/*.graph.json: hostile names,
#    subresources, restructuring) and a generated 500-pass graph, planned by the tool;
#  - plan-tile-*.html: a few example graphs planned for every tile profile (`--tile`).
# usage: tests/browser/build-pages.sh OUTDIR [TILEGRAPH_BINARY]   (default: target/release/tilegraph)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:?usage: build-pages.sh OUTDIR [TILEGRAPH_BINARY]}
bin=${2:-${TILEGRAPH:-$root/target/release/tilegraph}}
mkdir -p "$out"
if [ ! -x "$bin" ]; then
  echo "build-pages: no tilegraph binary at $bin (cargo build --release --bin tilegraph)" >&2
  exit 1
fi
# The page the fixtures' data goes into: any the tool writes (no .html suffix: not a test page).
"$bin" plan "$root/examples/graphs/deferred.json" --format html > "$out/viewer.page"
for f in "$here"/fixtures/*.data.json; do
  n=$(basename "$f" .data.json)
  node "$here/make-page.js" "$out/viewer.page" "$f" > "$out/fixture-$n.html"
done
node "$here/gen-graph.js" --passes 500 > "$out/big500.graph.json"
for g in "$root"/examples/graphs/*.json "$here"/fixtures/*.graph.json "$out/big500.graph.json"; do
  n=$(basename "$g" .json)
  n=${n%.graph}
  "$bin" plan "$g" --format html > "$out/plan-$n.html" ||
    { echo "build-pages: tilegraph plan $g --format html failed" >&2; exit 1; }
done
# The tile budgets' profile picker: a few graphs planned for every profile.
tiles=""
for p in mali-g71 mali-g52 mali-g610 mali-g720 adreno-630 adreno-660 adreno-740 apple-a8 apple-a11 powervr; do
  tiles="$tiles --tile $p"
done
for n in bevy_core3d deferred stereo forward_msaa; do
  # shellcheck disable=SC2086
  "$bin" plan "$root/examples/graphs/$n.json" --format html $tiles > "$out/plan-tile-$n.html" ||
    { echo "build-pages: tilegraph plan $n --tile ... failed" >&2; exit 1; }
done
echo "build-pages: pages in $out"
