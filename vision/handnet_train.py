#!/usr/bin/env python3
"""Trains the hand network (vision/handnet.go) and writes its ONNX file.

The network sees a frame shrunk to 256x144 (BGR, (x - 127.5) / 255), as
the corner network does, and gives one logit: a hand (or an arm) is over
the board, so the frame is not settled. It is trained on pairs of renders
of the same scene with and without a hand (`companion render --hand`), so
that the hand is all that tells them apart. Frames are mirrored at random
and their brightness and colour jittered.

Development step, run by scripts/train-handnet.sh:

    handnet_train.py TRAIN_PREFIX CHECK_PREFIX OUT.onnx [EPOCHS]

where the prefixes are TestHandNetData's files. It needs PyTorch
(Debian's python3-torch); the reader itself needs only the ONNX file.
"""
import os
import sys
import time
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

W, H = 256, 144
CLEAR_WEIGHT = float(os.environ.get('HAND_CLEAR_WEIGHT', '2'))
# HAND_SEED picks the run: the clear frames' tail moves between runs.


def load(prefix):
    img = np.fromfile(prefix + '_img.bin', dtype=np.uint8).reshape(-1, H, W, 3)
    label = np.fromfile(prefix + '_label.bin', dtype=np.uint8).astype(np.float32)
    if len(img) != len(label):
        sys.exit(f'{prefix}: {len(img)} frames but {len(label)} labels')
    return img, label


def conv(cin, cout, stride=1):
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, padding=1, bias=False),
        nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class HandNet(nn.Module):
    # A 4x4 patch at stride 4 first (a hand is large: the frame at a
    # quarter is enough, and the first layers at full size were most of
    # the cost), then down to a sixteenth, then the strongest and the mean
    # response of each feature over the frame: a hand anywhere over the
    # board.
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(3, 16, 4, 4, bias=False), nn.BatchNorm2d(16), nn.ReLU(inplace=True),
            conv(16, 32, 2), conv(32, 32),
            conv(32, 64, 2), conv(64, 64), conv(64, 64))
        self.head = nn.Linear(128, 1)

    def forward(self, x):
        f = self.body(x)
        g = torch.cat([F.adaptive_max_pool2d(f, 1), F.adaptive_avg_pool2d(f, 1)], 1).flatten(1)
        return self.head(g)


def tensor(img):
    return torch.from_numpy(img).permute(0, 3, 1, 2).float() / 255.0 - 0.5


def logits(net, img, batch=64):
    net.eval()
    out = []
    with torch.no_grad():
        for i in range(0, len(img), batch):
            out.append(net(tensor(img[i:i + batch]))[:, 0].numpy())
    return np.concatenate(out)


def report(z, label):
    hand, clear = z[label > 0.5], z[label < 0.5]
    top = clear.max()
    caught = np.mean(hand > top)
    return (f'clear frames: max logit {top:.2f}, 99th percentile {np.percentile(clear, 99):.2f}; '
            f'hand frames above the clear max {caught:.3f}, above 0 {np.mean(hand > 0):.3f}; '
            f'clear frames above 0 {np.mean(clear > 0):.4f}')


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    train_prefix, check_prefix, out = sys.argv[1:4]
    epochs = int(sys.argv[4]) if len(sys.argv) > 4 else 12
    torch.set_num_threads(len(os.sched_getaffinity(0)))
    seed = int(os.environ.get('HAND_SEED', '1'))
    torch.manual_seed(seed)
    np.random.seed(seed)
    ti, tl = load(train_prefix)
    ci, cl = load(check_prefix)
    print(f'{len(ti)} training frames ({int(tl.sum())} with a hand), {len(ci)} check frames', flush=True)
    net = HandNet()
    batch = 32
    opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=epochs * (len(ti) // batch), pct_start=0.15)
    for ep in range(epochs):
        net.train()
        start, total = time.time(), 0.0
        perm = np.random.permutation(len(ti))
        for i in range(0, len(perm) - batch + 1, batch):
            idx = np.sort(perm[i:i + batch])
            x = tensor(ti[idx])
            y = torch.from_numpy(tl[idx])
            flip = torch.rand(batch) < 0.5
            if flip.any():
                x[flip] = x[flip].flip(3)
            x = x * (1 + 0.4 * (torch.rand(batch, 1, 1, 1) - 0.5)) + 0.2 * (torch.rand(batch, 3, 1, 1) - 0.5)
            # A clear frame refused is a read lost; a hand let through is
            # asked about cell by cell: clear frames weigh more.
            wt = torch.where(y > 0.5, torch.ones_like(y), torch.full_like(y, CLEAR_WEIGHT))
            loss = F.binary_cross_entropy_with_logits(net(x)[:, 0], y, weight=wt)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss) * batch
        print(f'epoch {ep + 1}: loss {total / len(perm):.4f}, {time.time() - start:.0f} s; check: {report(logits(net, ci), cl)}', flush=True)
    net.eval()
    torch.onnx.export(net, torch.zeros(1, 3, H, W), out, input_names=['frame'], output_names=['hand'], opset_version=11)
    print(f'wrote {out}', flush=True)


if __name__ == '__main__':
    main()
