#!/usr/bin/env bash
# Retrains the refinement network (vision/refinenet.go) and rewrites
# vision/refinenet.onnx. A development step, not part of the build: the
# reader only needs the ONNX file. Installs Debian's PyTorch if missing.
#
#   scripts/train-refinenet.sh [TRAIN_SEEDS [CHECK_SEEDS [EPOCHS]]]
#
# REFINE_ARCH (full, the kept file's; slim; slimmer) and REFINE_SEED pass
# through to refinenet_train.py. Compare a result with the kept file
# before judging it end to end: `go test -run 'TestRefineNetJudge$' -v
# ./vision -args -refinejudge CHECK_PREFIX [-refineonnx FILE]`.
#
# Seeds are sim seeds (ranges a-b,c-d) already rendered into
# COMPANION_SIM_CACHE (default /tmp/simcache; the accuracy harness or
# `companion render --seed N --out DIR` fills it); seeds not rendered are
# skipped. Never the hold-outs (100000-299999) or the regression suite
# (5000-5039).
set -euo pipefail
cd "$(dirname "$0")/.."
train=${1:-17000-17999,19000-19999}
check=${2:-18000-18999}
epochs=${3:-15}
export COMPANION_SIM_CACHE=${COMPANION_SIM_CACHE:-/tmp/simcache}

bash scripts/setup.sh
bash scripts/debian-packages.sh train-refinenet "about a minute" python3-torch python3-numpy

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go test -run 'TestRefineNetData$' -timeout 60m ./vision -args -refinedata "$train" -refineout "$work/train" -refinereps 8
go test -run 'TestRefineNetData$' -timeout 60m ./vision -args -refinedata "$check" -refineout "$work/check" -refinecheck
/usr/bin/python3 vision/refinenet_train.py "$work/train" "$work/check" "$work/refinenet.onnx" "$epochs"
cp "$work/refinenet.onnx" vision/refinenet.onnx
echo "train-refinenet: wrote vision/refinenet.onnx; judge it end to end (accuracy harness, cold) before keeping it" >&2
