#!/usr/bin/env bash
# Retrains the patch network (the third look, vision/patchnet.go) and
# rewrites vision/patchnet.onnx. A development step, not part of the
# build: the reader only needs the ONNX file. Installs Debian's PyTorch if
# missing.
#
#   scripts/train-patchnet.sh [TRAIN_SEEDS [CHECK_SEEDS [EPOCHS [MORE_SEEDS [LAST_SEEDS]]]]]
#
# Seeds are sim seeds (ranges a-b,c-d) already rendered into
# COMPANION_SIM_CACHE (default /tmp/simcache; `companion render --seed N
# --out DIR` fills it); seeds not rendered are skipped. Defaults
# 10000-17999 and 19000-19999 to train, 18000-18999 to check. Never the
# hold-out (100000 on) or the regression suite (5000-5039). PATCH_BOUND
# (default 2) bounds each correction, as patchClip in vision/patchnet.go.
# Two networks are trained on the cells of TRAIN_SEEDS, MORE_SEEDS
# (default 22000-22867) and LAST_SEEDS (default 23000-24999), each read at
# two corner moves; the second, with another random seed, also on
# TRAIN_SEEDS and MORE_SEEDS read a third time at other moves
# (-patchjitseed): more cells from the same renders. The file written
# gives the mean of their corrections (vision/patchnet_mean.py). More
# seeds read better (SIM_NOTES, fifty-eighth and fifty-ninth sessions):
# render all of them. About 30-40 minutes a network on two cores for 10
# epochs of the 11 600 seeds the kept file was trained on (10000-17999,
# 19000-19399, 22000-22299, 23000-24999); the training cells are written
# only where the third look sees them (-patchunsure, about 0.9 GB a
# corner move).
set -euo pipefail
cd "$(dirname "$0")/.."
train=${1:-10000-16999,17000-17999,19000-19999}
check=${2:-18000-18999}
epochs=${3:-10}
more=${4:-22000-22867}
last=${5:-23000-24999}
export COMPANION_SIM_CACHE=${COMPANION_SIM_CACHE:-/tmp/simcache}

bash scripts/setup.sh
bash scripts/debian-packages.sh train-patchnet "about a minute" python3-torch python3-numpy

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The training cells are read at the true corners moved as much as the
# found grids are (0.012 pitch) and, to see misplaced grids too, 0.04.
seeds="$train,$more,$last"
go test -run 'TestPatchNetData$' -timeout 90m ./vision -args -patchdata "$seeds" -patchout "$work/near" -patchunsure -patchjitter 0.012
go test -run 'TestPatchNetData$' -timeout 90m ./vision -args -patchdata "$seeds" -patchout "$work/far" -patchunsure -patchjitter 0.04
go test -run 'TestPatchNetData$' -timeout 90m ./vision -args -patchdata "$train,$more" -patchout "$work/mid" -patchunsure -patchjitter 0.025 -patchjitseed 1013
go test -run 'TestPatchNetData$' -timeout 60m ./vision -args -patchdata "$check" -patchout "$work/check" -patchcheck -patchjitter 0.012
PATCH_SEED=3 /usr/bin/python3 vision/patchnet_train.py "$work/near,$work/far" "$work/check" "$work/first.onnx" "$epochs"
PATCH_SEED=4 /usr/bin/python3 vision/patchnet_train.py "$work/near,$work/far,$work/mid" "$work/check" "$work/second.onnx" "$epochs"
(cd vision && /usr/bin/python3 patchnet_mean.py "$work/patchnet.onnx" "$work/first.onnx.pt" "$work/second.onnx.pt")
cp "$work/patchnet.onnx" vision/patchnet.onnx
echo "train-patchnet: wrote vision/patchnet.onnx; judge it end to end (accuracy harness, cold) before keeping it" >&2
