#!/usr/bin/env bash
# Retrains the patch network (the third look, vision/patchnet.go) and
# rewrites vision/patchnet.onnx. A development step, not part of the
# build: the reader only needs the ONNX file. Installs Debian's PyTorch if
# missing.
#
#   scripts/train-patchnet.sh [TRAIN_SEEDS [CHECK_SEEDS [EPOCHS [MORE_SEEDS [LAST_SEEDS [NEWEST_SEEDS [LATEST_SEEDS]]]]]]]
#
# Seeds are sim seeds (ranges a-b,c-d) already rendered into
# COMPANION_SIM_CACHE (default /tmp/simcache; `companion render --seed N
# --out DIR` fills it); seeds not rendered are skipped. Defaults
# 10000-17999 and 19000-19999 to train, 18000-18999 to check. Never the
# hold-outs (100000-299999) or the regression suite (5000-5039). PATCH_BOUND
# (default 2) bounds each correction, as patchClip in vision/patchnet.go.
# Two networks are trained, each on its seeds' unsure cells read at the
# true corners moved 0.012 and 0.04 pitch, with different random seeds
# (PATCH_SEED): the first on TRAIN_SEEDS, MORE_SEEDS (default
# 22000-22867), LAST_SEEDS (default 23000-24999) and NEWEST_SEEDS
# (default 25000-26999), and TRAIN_SEEDS, MORE_SEEDS and LAST_SEEDS read a
# third time at moves of 0.025 (-patchjitseed): more cells from the same
# renders; the second (8 epochs) on all of that, LATEST_SEEDS (default
# 27000-28999), NEWEST_SEEDS and LATEST_SEEDS read at 0.025 too, and the
# first three sets read a fourth time at 0.02. A third network on fewer
# seeds (the first three sets at two moves) made their mean no better
# end to end (SIM_NOTES, seventieth session).
# The file written gives the mean of their corrections
# (vision/patchnet_mean.py; it also takes an ONNX file's networks, so one
# trained later joins the kept two without their states:
# `patchnet_mean.py OUT.onnx patchnet.onnx NEW.onnx.pt`). More seeds read
# better (SIM_NOTES, fifty-eighth to sixty-first sessions): render all of
# them. About 30-60 minutes a network on two cores for 10 epochs (the
# second, on about 374 000 cells of 15 600 seeds, took about 40 minutes for 8 epochs on a
# quiet machine); the training cells are written only where the third
# look sees them (-patchunsure, about 0.9 GB a corner move).
set -euo pipefail
cd "$(dirname "$0")/.."
train=${1:-10000-16999,17000-17999,19000-19999}
check=${2:-18000-18999}
epochs=${3:-10}
more=${4:-22000-22867}
last=${5:-23000-24999}
newest=${6:-25000-26999}
latest=${7:-27000-28999}
export COMPANION_SIM_CACHE=${COMPANION_SIM_CACHE:-/tmp/simcache}

bash scripts/setup.sh
bash scripts/debian-packages.sh train-patchnet "about a minute" python3-torch python3-numpy

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The training cells are read at the true corners moved as much as the
# found grids are (0.012 pitch) and, to see misplaced grids too, 0.04.
seeds="$train,$more,$last"
data() { go test -run 'TestPatchNetData$' -timeout 90m ./vision -args -patchdata "$1" -patchout "$work/$2" -patchunsure -patchjitter "$3" ${4:+-patchjitseed "$4"}; }
data "$seeds" near 0.012
data "$seeds" far 0.04
data "$newest" newnear 0.012
data "$newest" newfar 0.04
data "$latest" latestnear 0.012
data "$latest" latestfar 0.04
data "$seeds" mid 0.025 1013
data "$newest,$latest" newmid 0.025 1013
data "$seeds" mid2 0.02 2027
go test -run 'TestPatchNetData$' -timeout 60m ./vision -args -patchdata "$check" -patchout "$work/check" -patchcheck -patchjitter 0.012
PATCH_SEED=5 /usr/bin/python3 vision/patchnet_train.py "$work/near,$work/far,$work/mid,$work/newnear,$work/newfar" "$work/check" "$work/first.onnx" "$epochs"
PATCH_SEED=6 /usr/bin/python3 vision/patchnet_train.py "$work/near,$work/far,$work/mid,$work/newnear,$work/newfar,$work/latestnear,$work/latestfar,$work/newmid,$work/mid2" "$work/check" "$work/second.onnx" 8
(cd vision && /usr/bin/python3 patchnet_mean.py "$work/patchnet.onnx" "$work/first.onnx.pt" "$work/second.onnx.pt")
cp "$work/patchnet.onnx" vision/patchnet.onnx
echo "train-patchnet: wrote vision/patchnet.onnx; judge it end to end (accuracy harness, cold) before keeping it" >&2
