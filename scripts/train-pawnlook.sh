#!/usr/bin/env bash
# Retrains the pawn look's network (vision/pawnlook.go: a pawn the reader
# half sees, judged again on planes through its body and head) and
# rewrites vision/pawnlook.onnx. A development step, not part of the build:
# the reader only needs the ONNX file. Installs Debian's PyTorch if missing.
#
#   scripts/train-pawnlook.sh DIR [TRAIN_SEEDS [CHECK_SEEDS [EPOCHS]]]
#
# DIR holds the training renders: frames at every elevation are used
# (companion render --seed 60000 --count 5500 --out DIR, and the tier
# look's frames from above, --seed 66000 --count 5000 --min-elevation 73).
# Defaults: 60000-70999 to train, each frame read at its true corners
# moved 0.02 and 0.01 pitch (the kept file: 60000-65499 exported at 0.02
# and again at 0.01, 66000-70953 at 0.02, in three runs), 18000-18999 to
# check (from COMPANION_SIM_CACHE, default /tmp/simcache). Never the
# hold-outs (100000-299999). With PAWN_COVERED=1 it trains the network for the
# cells whose top nearer pieces cover instead (vision/hiddenlook.onnx):
# only those cells, half the sure bare ones kept, 12 epochs (the kept
# file: 60000-65499 at 0.02, 0.01, 0.03 and 0.005 pitch and 71000-74432,
# rendered at every elevation, at 0.02 and 0.01, in four runs; it still
# learnt from 26 560 to 54 900 cells), then trained on from that file
# (PAWN_FROM, 6 epochs) on 81000-89999 rendered with --max-elevation 62
# (3452 frames), with PAWN_JITTERS=0.02,0.01,0.03,0.005. Since the
# ninety-fourth session that network also takes each plane's cover mask
# (where nearer pieces, as read, stand across it), and since the
# ninety-fifth the pawn look's network for cells in sight does too: the
# cells are exported with -pawnmasks and trained with PAWN_MASKS=1; a file
# without them given as PAWN_FROM starts with those inputs unweighted.
# The kept vision/pawnlook.onnx was then trained on (PAWN_FROM, 6 epochs,
# PAWN_LR=1e-3) on 300000-308999 and 81000-89999 at 0.02,0.01 and the
# one-lamp frames 31000-59999 at 0.02, in three runs.
#
# PAWN_JITTERS (default 0.02,0.01) sets the corners' moves the training
# frames are read at, one reading each.
#
# PAWN_FROM=FILE.onnx goes on training a kept file instead of starting
# afresh (at a gentler rate, PAWN_LR, default 5e-4): for new frames when
# the ones the file was trained on are gone. It needs Debian's python3-onnx.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:?usage: scripts/train-pawnlook.sh DIR [TRAIN_SEEDS [CHECK_SEEDS [EPOCHS]]]}
train=${2:-60000-70999}
check=${3:-18000-18999}
epochs=${4:-}
out=vision/pawnlook.onnx
only=(-pawnmasks)
export PAWN_MASKS=1
if [ "${PAWN_COVERED:-0}" = 1 ]; then
	out=vision/hiddenlook.onnx
	only+=(-pawncovered -pawnbare 0.5)
	epochs=${epochs:-12}
fi
epochs=${epochs:-8}

bash scripts/setup.sh
bash scripts/debian-packages.sh train-pawnlook "about a minute" python3-torch python3-numpy
[ -z "${PAWN_FROM:-}" ] || bash scripts/debian-packages.sh train-pawnlook "a few seconds" python3-onnx

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
COMPANION_SIM_CACHE="$dir" go test -run 'TestPawnLookData$' -timeout 60m ./vision -args -pawndata "$train" -pawnjitters "${PAWN_JITTERS:-0.02,0.01}" "${only[@]}" -pawnout "$work/train"
COMPANION_SIM_CACHE=${COMPANION_SIM_CACHE:-/tmp/simcache} go test -run 'TestPawnLookData$' -timeout 60m ./vision -args -pawndata "$check" -pawncheck -pawnjitters 0.012 "${only[@]}" -pawnout "$work/check"
/usr/bin/python3 vision/pawnlook_train.py "$work/train" "$work/check" "$out" "$epochs"
echo "train-pawnlook: wrote $out; judge it end to end (accuracy harness, cold) before keeping it" >&2
