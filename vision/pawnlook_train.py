#!/usr/bin/env python3
"""Trains the pawn look's network (vision/pawnlook.go) and writes its ONNX file.

Each cell is its colours on two planes through a pawn's body and head
above the cell's top (6 planes of SIDE x SIDE bytes, as the tier look's)
and its extra inputs: the reader's log-odds of the runner-up occupant over
the best (which the network does not see), the level (one-hot) and the
cell's geometry. The network is a classifier of the four occupants (none,
blue, light, dark); the reader adds the difference between the two
likeliest occupants' logits, bounded, to their odds.

Development step, run by scripts/train-pawnlook.sh:

    pawnlook_train.py TRAIN_PREFIXES CHECK_PREFIX OUT.onnx [EPOCHS]

where the prefixes (comma-separated) are TestPawnLookData's files.
"""
import os
import sys

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

import tiernet_train as tier
import trainloop

# The check figure's bound; the reader's pawnLookBound is 4 since the
# ninety-fifth session (the figures in pawnlook.go are at 3).
BOUND = 3.0
GATE = 6.0
CLASSES = 4
# PAWN_MASKS=1: each cell also has its two planes' cover masks (where
# nearer pieces, as read, stand across them): the hidden-pawn look's
# inputs since the ninety-fourth session, the pawn look's since the
# ninety-fifth.
CHANNELS = tier.CHANNELS + (2 if os.environ.get('PAWN_MASKS', '0') == '1' else 0)


class PawnNet(tier.TierNet):
    """The tier network's layers with one logit for each occupant."""

    def __init__(self, emean, esd):
        super().__init__(emean, esd, CHANNELS)
        self.fc[-1] = nn.Linear(64, CLASSES)

    def forward(self, patch, extra):
        return self.logit(patch, extra)


def pairs(prefix, keep):
    """The reading's best and runner-up occupants (the meta file's last
    two columns) of the cells kept."""
    rows = [line.rstrip('\n').split('\t') for line in open(prefix + '_meta.txt')]
    bo = np.array([[int(r[-2]), int(r[-1])] for r in rows])
    return bo[keep]


def load_check(prefix):
    """The check cells within GATE, with the reading's occupants."""
    pix, extra, label = tier.load_one(prefix, GATE, CHANNELS)
    keep = np.abs(np.fromfile(prefix + '_extra.bin', dtype='<f4').reshape(-1, tier.EXTRA)[:, 0]) < GATE
    return pix, extra, label.astype(np.int64), pairs(prefix, keep)


def evaluate(net, pix, extra, label, bo):
    net.eval()
    out = []
    with torch.no_grad():
        for i in range(0, len(pix), 1024):
            out.append(net(torch.from_numpy(pix[i:i + 1024]).float(), torch.from_numpy(extra[i:i + 1024])).numpy())
    logits = np.concatenate(out)
    idx = np.arange(len(label))
    base = extra[:, 0]
    corr = np.clip(logits[idx, bo[:, 1]] - logits[idx, bo[:, 0]], -BOUND, BOUND)
    odds = np.clip(base + corr, base, -base)
    chosen = np.where(odds > 0, bo[:, 1], bo[:, 0])
    return (bo[:, 0] != label).sum(), (chosen != label).sum(), (logits.argmax(1) != label).sum()


def main():
    train, check, out = sys.argv[1], sys.argv[2], sys.argv[3]
    epochs = int(sys.argv[4]) if len(sys.argv) > 4 else 8
    torch.manual_seed(int(os.environ.get('PAWN_SEED', '1')))
    torch.set_num_threads(os.cpu_count() or 2)
    tp, te, tl = tier.load(train, np.inf, CHANNELS)
    cp, ce, cl, cbo = load_check(check)
    print(f'train {len(tp)} cells (by occupant {np.bincount(tl.astype(np.int64), minlength=4)}), check {len(cp)}', flush=True)
    emean, esd = te.mean(0), te.std(0) + 1e-3
    emean[0], esd[0] = 0, 1e9  # the odds are not seen
    net = PawnNet(emean.astype(np.float32), esd.astype(np.float32))
    max_lr = tier.start_from_kept(net, 'PAWN')
    if max_lr:
        print(f'from {os.environ["PAWN_FROM"]}: check cells wrong {evaluate(net, cp, ce, cl, cbo)[1]} of {len(cp)}', flush=True)
    tpt, tet, tlt = torch.from_numpy(tp), torch.from_numpy(te), torch.from_numpy(tl.astype(np.int64))

    def batch_loss(idx):
        p, e = tier.mirror(tier.augment(tpt[idx].float()), tet[idx])
        return F.cross_entropy(net(p, e), tlt[idx])

    for ep, loss, secs in trainloop.one_cycle(net, len(tp), 128, epochs, batch_loss, max_lr):
        before, after, alone = evaluate(net, cp, ce, cl, cbo)
        print(f'epoch {ep}: loss {loss:.4f}, check cells wrong {before} -> {after} of {len(cp)} (alone {alone}; {secs:.0f} s)', flush=True)
    torch.save(net.state_dict(), out + '.pt')
    tier.export_onnx(net, out)


if __name__ == '__main__':
    main()
