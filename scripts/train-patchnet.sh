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
# Two networks are trained on TRAIN_SEEDS and MORE_SEEDS (default
# 22000-22867), the second with another random seed and on LAST_SEEDS
# (default 23000-24999) besides, and the file written gives the mean of
# their corrections (vision/patchnet_mean.py). More seeds read better
# (SIM_NOTES, fifty-eighth session): render all of them. About 25-35
# minutes a network on two cores for 10 epochs of the 9500 seeds the
# kept file was trained on (10000-17999, 19000-19399, 22000-22299 and, the
# second, 23000-23787); the training cells are written only where the
# third look sees them (-patchunsure, about 0.6 GB a jitter).
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
go test -run 'TestPatchNetData$' -timeout 60m ./vision -args -patchdata "$train" -patchout "$work/near" -patchunsure -patchjitter 0.012
go test -run 'TestPatchNetData$' -timeout 60m ./vision -args -patchdata "$train" -patchout "$work/far" -patchunsure -patchjitter 0.04
go test -run 'TestPatchNetData$' -timeout 60m ./vision -args -patchdata "$check" -patchout "$work/check" -patchcheck -patchjitter 0.012
go test -run 'TestPatchNetData$' -timeout 60m ./vision -args -patchdata "$more" -patchout "$work/morenear" -patchunsure -patchjitter 0.012
go test -run 'TestPatchNetData$' -timeout 60m ./vision -args -patchdata "$more" -patchout "$work/morefar" -patchunsure -patchjitter 0.04
go test -run 'TestPatchNetData$' -timeout 60m ./vision -args -patchdata "$last" -patchout "$work/lastnear" -patchunsure -patchjitter 0.012
go test -run 'TestPatchNetData$' -timeout 60m ./vision -args -patchdata "$last" -patchout "$work/lastfar" -patchunsure -patchjitter 0.04
PATCH_SEED=1 /usr/bin/python3 vision/patchnet_train.py "$work/near,$work/far,$work/morenear,$work/morefar" "$work/check" "$work/first.onnx" "$epochs"
PATCH_SEED=2 /usr/bin/python3 vision/patchnet_train.py "$work/near,$work/far,$work/morenear,$work/morefar,$work/lastnear,$work/lastfar" "$work/check" "$work/second.onnx" "$epochs"
(cd vision && /usr/bin/python3 patchnet_mean.py "$work/patchnet.onnx" "$work/first.onnx.pt" "$work/second.onnx.pt")
cp "$work/patchnet.onnx" vision/patchnet.onnx
echo "train-patchnet: wrote vision/patchnet.onnx; judge it end to end (accuracy harness, cold) before keeping it" >&2
