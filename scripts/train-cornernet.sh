#!/usr/bin/env bash
# Retrains a corner network (vision/cornernet.go) and rewrites
# vision/cornernet.onnx, or the file OUT names (the second network is
# vision/cornernet2.onnx, made by
# `RENDER_W=640 OUT=vision/cornernet2.onnx scripts/train-cornernet.sh
# 40000-49999 18000-18999 16`, about 65 minutes on two cores). A
# development step, not part of the build: the reader only needs the ONNX
# files. Installs Debian's PyTorch if missing.
#
#   scripts/train-cornernet.sh [TRAIN_SEEDS [CHECK_SEEDS [EPOCHS]]]
#
# CORNER_ARCH (full, the kept files'; slim) passes through to
# cornernet_train.py.
#
# Seeds are sim seeds (ranges a-b,c-d) already rendered into
# COMPANION_SIM_CACHE (default /tmp/simcache; `companion render --seed N
# --out DIR` fills it): defaults 10000-16999 to train, 18000-18999 to
# check. Never the hold-outs (100000-299999) or the regression suite
# (5000-5039). About 70 s an epoch on two cores for 3700 frames.
# With RENDER_W set (640: about 6 frames a second on two cores), the
# training seeds are rendered afresh that wide instead of read from the
# cache (TestCornerNetData -cornerrenderw); the check seeds stay cached.
set -euo pipefail
cd "$(dirname "$0")/.."
train=${1:-10000-16999}
check=${2:-18000-18999}
epochs=${3:-20}
out=${OUT:-vision/cornernet.onnx}
export COMPANION_SIM_CACHE=${COMPANION_SIM_CACHE:-/tmp/simcache}

bash scripts/setup.sh
bash scripts/debian-packages.sh train-cornernet "about a minute" python3-torch python3-numpy

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go test -run 'TestCornerNetData$' -timeout 180m ./vision -args -cornerdata "$train" -cornerout "$work/train" -cornerrenderw "${RENDER_W:-0}"
go test -run 'TestCornerNetData$' -timeout 60m ./vision -args -cornerdata "$check" -cornerout "$work/check" -cornercheck
/usr/bin/python3 vision/cornernet_train.py "$work/train" "$work/check" "$work/cornernet.onnx" "$epochs"
cp "$work/cornernet.onnx" "$out"
echo "train-cornernet: wrote $out; judge it end to end (accuracy harness, cold) before keeping it" >&2
