#!/usr/bin/env bash
# Retrains the hand network (vision/handnet.go: a hand over the board, a
# frame not settled) and rewrites vision/handnet.onnx. A development
# step, not part of the build: the reader only needs the ONNX file.
# Installs Debian's PyTorch if missing.
#
#   scripts/train-handnet.sh DIR [TRAIN_SEEDS [CHECK_SEEDS [EPOCHS]]]
#
# DIR holds each seed's render with a hand and without (`companion render
# --seed N --count K --hand --out DIR` and the same without --hand).
# Defaults: 60200-61399 to train, 60000-60199 to check, 20 epochs (the
# kept network's). Never the
# hold-outs (100000-299999).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:?usage: scripts/train-handnet.sh DIR [TRAIN_SEEDS [CHECK_SEEDS [EPOCHS]]]}
train=${2:-60200-61399}
check=${3:-60000-60199}
epochs=${4:-20}

bash scripts/setup.sh
bash scripts/debian-packages.sh train-handnet "about a minute" python3-torch python3-numpy

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
data() { go test -run 'TestHandNetData$' -timeout 60m ./vision -args -handdata "$1" -handdir "$dir" -handout "$work/$2"; }
data "$train" train
data "$check" check
/usr/bin/python3 vision/handnet_train.py "$work/train" "$work/check" vision/handnet.onnx "$epochs"
