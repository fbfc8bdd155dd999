#!/usr/bin/env bash
# Builds the pages the browser tests load, into OUTDIR:
#  - fixture-*.html: tests/browser/fixtures/*.data.json wrapped by src/html.rs itself, compiled
#    standalone with rustc (hand-written plans: explain sentences, mips and layers, hostile names);
#  - plan-*.html: the example graphs, the fixture graphs (fixtures/*.graph.json: hostile names,
#    subresources, restructuring) and a generated 500-pass graph, planned by the tool: `tilegraph plan FILE --format html` where the tool has it,
#    else its `--format json` plan wrapped the same way as the fixtures;
#  - plan-tile-*.html: a few example graphs planned for every tile profile (`--tile`), where the
#    tool has it.
# usage: tests/browser/build-pages.sh OUTDIR [TILEGRAPH_BINARY]   (default: target/release/tilegraph)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:?usage: build-pages.sh OUTDIR [TILEGRAPH_BINARY]}
bin=${2:-${TILEGRAPH:-$root/target/release/tilegraph}}
mkdir -p "$out"
rustc --edition 2024 -O "$here/make_page.rs" -o "$out/make_page"
for f in "$here"/fixtures/*.data.json; do
  n=$(basename "$f" .data.json)
  "$out/make_page" "$f" > "$out/fixture-$n.html"
done
node "$here/gen-graph.js" --passes 500 > "$out/big500.graph.json"
if [ ! -x "$bin" ]; then
  echo "build-pages: no tilegraph binary at $bin; built the fixture pages only" >&2
  exit 0
fi
html=0
if "$bin" plan "$root/examples/graphs/deferred.json" --format html > /dev/null 2>&1; then html=1; fi
for g in "$root"/examples/graphs/*.json "$here"/fixtures/*.graph.json "$out/big500.graph.json"; do
  n=$(basename "$g" .json)
  n=${n%.graph}
  if [ $html = 1 ]; then
    "$bin" plan "$g" --format html > "$out/plan-$n.html" ||
      { echo "build-pages: tilegraph plan $g --format html failed" >&2; exit 1; }
  elif "$bin" plan "$g" --format json > "$out/$n.plan.json" 2> "$out/$n.plan.err"; then
    node "$here/make-data.js" "$g" "$out/$n.plan.json" > "$out/$n.data.json"
    "$out/make_page" "$out/$n.data.json" > "$out/plan-$n.html"
  else
    # A tool without `--format html` predates subresources; say so, do not fail.
    echo "build-pages: skipped $n: $(head -c 200 "$out/$n.plan.err")" >&2
  fi
done
# The tile budgets' profile picker: a few graphs planned for every profile.
if [ $html = 1 ] && "$bin" plan "$root/examples/graphs/deferred.json" --tile powervr > /dev/null 2>&1; then
  tiles=""
  for p in mali-g71 mali-g52 mali-g610 mali-g720 adreno-630 adreno-660 adreno-740 apple-a8 apple-a11 powervr; do
    tiles="$tiles --tile $p"
  done
  for n in bevy_core3d deferred stereo forward_msaa; do
    # shellcheck disable=SC2086
    "$bin" plan "$root/examples/graphs/$n.json" --format html $tiles > "$out/plan-tile-$n.html" ||
      { echo "build-pages: tilegraph plan $n --tile ... failed" >&2; exit 1; }
  done
fi
echo "build-pages: pages in $out (tool $([ $html = 1 ] && echo 'with' || echo 'without') --format html)"
