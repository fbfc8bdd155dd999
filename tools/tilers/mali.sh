# Sourced by tools/tilers/check.sh: panvk 25 (Mali Valhall) on the panfrost drm shim.
echo "== panvk 25.0: not checked yet" >&2
