#!/usr/bin/env bash
# Retrains the dome look's network (vision/domelook.go: a dome against a
# blue builder on a level-3 tower) and rewrites vision/domelook.onnx. A
# development step, not part of the build: the reader only needs the ONNX
# file. Installs Debian's PyTorch if missing.
#
#   scripts/train-domelook.sh DIR [TRAIN_SEEDS [CHECK_SEEDS [EPOCHS]]]
#
# DIR holds the training renders, at every elevation
# (companion render --seed 60000 --count 12433 --out DIR). Defaults:
# 60000-72432 to train, each frame read at its true corners moved 0.02
# and 0.01 pitch (the kept file: 60000-65499 and 71000-72432, and the
# tier look's 66000-70953 from 73 degrees up, in three runs),
# 18000-18999 and 20000-20299 to check (from
# COMPANION_SIM_CACHE, default /tmp/simcache). Never the hold-outs
# (100000-299999). The network is the tier look's (tiernet_train.py), trained as a
# classifier of the two on every such cell.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:?usage: scripts/train-domelook.sh DIR [TRAIN_SEEDS [CHECK_SEEDS [EPOCHS]]]}
train=${2:-60000-72432}
check=${3:-18000-18999,20000-20299}
epochs=${4:-8}

bash scripts/setup.sh
bash scripts/debian-packages.sh train-domelook "about a minute" python3-torch python3-numpy

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
COMPANION_SIM_CACHE="$dir" go test -run 'TestDomeLookData$' -timeout 60m ./vision -args -domedata "$train" -domejitters 0.02,0.01 -domeout "$work/train"
COMPANION_SIM_CACHE=${COMPANION_SIM_CACHE:-/tmp/simcache} go test -run 'TestDomeLookData$' -timeout 60m ./vision -args -domedata "$check" -domecheck -domejitters 0.012 -domeout "$work/check"
TIER_MIRROR=1 TIER_BALANCE=1 /usr/bin/python3 vision/tiernet_train.py "$work/train" "$work/check" vision/domelook.onnx "$epochs"
echo "train-domelook: wrote vision/domelook.onnx; judge it end to end (accuracy harness, cold) before keeping it" >&2
