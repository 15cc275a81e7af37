#!/usr/bin/env bash
# Retrains one of the tier look's networks (vision/tiernet.go: levels 1
# and 2 seen from near above, or with TIER_LOWER=2 levels 2 and 3) and
# rewrites vision/tiernet.onnx (vision/tiernet23.onnx). A development
# step, not part of the build: the reader only needs the ONNX files.
# Installs Debian's PyTorch if missing.
#
#   scripts/train-tiernet.sh DIR [TRAIN_SEEDS [CHECK_SEEDS [EPOCHS]]]
#
# DIR holds the training renders; only frames whose camera stands 73
# degrees or more are used, so render just those:
#   companion render --seed 60000 --count 11000 --min-elevation 73 --out DIR
# Defaults: 60000-70999 to train (about 4200 frames; the kept file was
# trained on 60000-65499, 66000-70953, the high frames of 71000-74432 and
# 75000-80299 rendered with --min-elevation 73, in four exports),
# 18000-18999 to check (from COMPANION_SIM_CACHE, default /tmp/simcache).
# Never the hold-outs (100000-299999). The network learns to tell the levels
# apart on every cell (half of them mirrored left to right at random, as
# both kept files were trained; TIER_MIRROR=0 turns that off); its logit
# is scaled (TIER_SCALE, default 1) and bounded before it is added to the
# reader's odds. About 90 s an epoch on two cores for 64 000 cells.
#
# The kept tiernet.onnx was then trained on from the file before it
# (TIER_FROM, 4 epochs, TIER_SHADOW=0.3, TIER_SCALE=2) on the high frames
# of 31000-38066 lit by one lamp and of 90000-90999, rendered with
#   companion render --seed 31000 --count 7067 --min-elevation 73 --lighting one-lamp --out DIR
#   companion render --seed 90000 --count 1000 --min-elevation 73 --out DIR
# TIER_SHADOW=S darkens the far side of a random line across a share S of
# the training cells (a hard shadow edge, as one lamp casts). Its bound
# was then raised from 3 to 5, rewriting the file with
#   TIER_BOUND=5 /usr/bin/python3 vision/tiernet_mean.py vision/tiernet.onnx OUT.onnx
# so set TIER_BOUND=5 when training it further (vision/tiernet.go's
# tierBound must be at least the file's bound).
#
# TIER_FROM=FILE.onnx goes on training a kept file instead of starting
# afresh (at a gentler rate, TIER_LR, default 5e-4). It needs Debian's
# python3-onnx.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:?usage: scripts/train-tiernet.sh DIR [TRAIN_SEEDS [CHECK_SEEDS [EPOCHS]]]}
train=${2:-60000-70999}
check=${3:-18000-18999}
epochs=${4:-8}
lower=${TIER_LOWER:-1}
case $lower in
1) out=vision/tiernet.onnx ;;
2) out=vision/tiernet23.onnx ;;
*) echo "train-tiernet: TIER_LOWER=$lower: want 1 (levels 1 and 2) or 2 (levels 2 and 3)" >&2; exit 1 ;;
esac

bash scripts/setup.sh
bash scripts/debian-packages.sh train-tiernet "about a minute" python3-torch python3-numpy
[ -z "${TIER_FROM:-}" ] || bash scripts/debian-packages.sh train-tiernet "a few seconds" python3-onnx

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
COMPANION_SIM_CACHE="$dir" go test -run 'TestTierNetData$' -timeout 60m ./vision -args -tierdata "$train" -tierlower "$lower" -tierout "$work/train"
COMPANION_SIM_CACHE=${COMPANION_SIM_CACHE:-/tmp/simcache} go test -run 'TestTierNetData$' -timeout 60m ./vision -args -tierdata "$check" -tiercheck -tierjitters 0.012 -tierlower "$lower" -tierout "$work/check"
TIER_SCALE=${TIER_SCALE:-1} /usr/bin/python3 vision/tiernet_train.py "$work/train" "$work/check" "$out" "$epochs"
echo "train-tiernet: wrote $out; judge it end to end (accuracy harness, cold) before keeping it" >&2
