#!/usr/bin/env python3
"""Trains the corner network (vision/cornernet.go) and writes its ONNX file.

The network sees a frame shrunk to 256x144 (BGR, (x - 127.5) / 255) and
gives four heat maps, one for each of the grid's outer corners (A1, A5,
E5, E1), at a quarter of that size; each map is a distribution over its
cells (a softmax), trained towards a Gaussian about the true corner.
Frames are mirrored at random (A1 and A5, E5 and E1 trade places) and
their brightness and colour jittered.

Development step, run by scripts/train-cornernet.sh:

    cornernet_train.py TRAIN_PREFIX CHECK_PREFIX OUT.onnx [EPOCHS]

where the prefixes are TestCornerNetData's files. It needs PyTorch
(Debian's python3-torch); the reader itself needs only the ONNX file.
"""
import os
import sys
import time
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

W, H, STRIDE = 256, 144, 4
MW, MH = W // STRIDE, H // STRIDE
SIGMA = 1.2 * STRIDE  # the target Gaussian's spread, shrunk frame's pixels
MIRROR = [1, 0, 3, 2]  # corners' order in a mirrored frame


def load(prefix):
    img = np.fromfile(prefix + '_img.bin', dtype=np.uint8).reshape(-1, H, W, 3)
    corners = np.fromfile(prefix + '_corners.bin', dtype='<f4').reshape(-1, 4, 2)
    if len(img) != len(corners):
        sys.exit(f'{prefix}: {len(img)} frames but {len(corners)} corner sets')
    return img, corners


def conv(cin, cout, stride=1, dilation=1):
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, padding=dilation, dilation=dilation, bias=False),
        nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


# ARCH: "full" (about 115 M multiply-adds a frame), or "slim" (about 75 M):
# a 2x2 patch at stride 2 first, and the last decoder stage narrowed by a
# 1x1 convolution before its 3x3.
ARCH = os.environ.get('CORNER_ARCH', 'full')


class CornerNet(nn.Module):
    # An encoder down to a sixteenth (dilated at the bottom, so that each
    # map cell sees the whole board) and a decoder back to a quarter.
    def __init__(self):
        super().__init__()
        if ARCH == 'full':
            e1 = 12
            self.e1 = nn.Sequential(conv(3, e1, 2), conv(e1, e1))
        elif ARCH == 'slim':
            e1 = 16
            self.e1 = nn.Sequential(nn.Conv2d(3, e1, 2, 2, bias=False), nn.BatchNorm2d(e1), nn.ReLU(inplace=True))
        else:
            sys.exit(f'CORNER_ARCH must be full or slim, not {ARCH!r}')
        self.e2 = nn.Sequential(conv(e1, 24, 2), conv(24, 24))
        self.e3 = nn.Sequential(conv(24, 40, 2), conv(40, 40))
        self.e4 = nn.Sequential(conv(40, 48, 2), conv(48, 48, dilation=2), conv(48, 48, dilation=4))
        self.d3 = conv(48 + 40, 40)
        if ARCH == 'full':
            self.d2 = conv(40 + 24, 32)
        else:
            self.d2 = nn.Sequential(nn.Conv2d(40 + 24, 24, 1, bias=False), nn.BatchNorm2d(24), nn.ReLU(inplace=True), conv(24, 32))
        self.head = nn.Conv2d(32, 4, 1)

    def forward(self, x):
        x1 = self.e1(x)
        x2 = self.e2(x1)
        x3 = self.e3(x2)
        x4 = self.e4(x3)
        y = self.d3(torch.cat([F.interpolate(x4, scale_factor=2.0, mode='nearest'), x3], 1))
        y = self.d2(torch.cat([F.interpolate(y, scale_factor=2.0, mode='nearest'), x2], 1))
        return self.head(y)


# A map cell's centre in the shrunk frame's pixels.
CU = torch.arange(MW, dtype=torch.float32) * STRIDE + (STRIDE - 1) / 2
CV = torch.arange(MH, dtype=torch.float32) * STRIDE + (STRIDE - 1) / 2


def targets(c):
    dx = CU[None, None, None, :] - c[:, :, 0, None, None]
    dy = CV[None, None, :, None] - c[:, :, 1, None, None]
    t = torch.exp(-(dx * dx + dy * dy) / (2 * SIGMA * SIGMA)).reshape(c.shape[0], 4, -1)
    return t / t.sum(-1, keepdim=True).clamp_min(1e-12)


def decode(out):
    # As cornerNet.guess does: the peak, then the mean over +-2 cells.
    b = out.shape[0]
    p = F.softmax(out.reshape(b, 4, -1), -1).reshape(b, 4, MH, MW)
    res = torch.zeros(b, 4, 2)
    for i in range(b):
        for k in range(4):
            v, u = divmod(int(torch.argmax(p[i, k])), MW)
            v0, v1, u0, u1 = max(v - 2, 0), min(v + 3, MH), max(u - 2, 0), min(u + 3, MW)
            w = p[i, k, v0:v1, u0:u1]
            w = w / w.sum()
            res[i, k, 0] = (w.sum(0) * CU[u0:u1]).sum()
            res[i, k, 1] = (w.sum(1) * CV[v0:v1]).sum()
    return res


def tensor(img):
    return torch.from_numpy(img).permute(0, 3, 1, 2).float() / 255.0 - 0.5


def pitch(c):
    side = lambda a, b: np.hypot(*(c[:, a] - c[:, b]).T)
    return (side(0, 1) + side(1, 2) + side(2, 3) + side(3, 0)) / 20


def check(net, img, corners, batch=64):
    net.eval()
    worst = []
    with torch.no_grad():
        for i in range(0, len(img), batch):
            got = decode(net(tensor(img[i:i + batch]))).numpy()
            c = corners[i:i + batch]
            e = np.hypot(*(got - c).transpose(2, 0, 1)) / pitch(c)[:, None]
            worst.append(e.max(1))
    worst = np.concatenate(worst)
    return np.median(worst), [np.mean(worst < x) for x in (0.1, 0.2, 0.3)]


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    train_prefix, check_prefix, out = sys.argv[1:4]
    epochs = int(sys.argv[4]) if len(sys.argv) > 4 else 20
    torch.set_num_threads(int(os.environ.get('CORNER_THREADS', os.cpu_count() or 1)))
    torch.manual_seed(1)
    np.random.seed(1)
    ti, tc = load(train_prefix)
    ci, cc = load(check_prefix)
    print(f'{len(ti)} training frames, {len(ci)} check frames', flush=True)
    net = CornerNet()
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
            c = torch.from_numpy(tc[idx].copy())
            flip = torch.rand(batch) < 0.5
            if flip.any():
                x[flip] = x[flip].flip(3)
                cf = c[flip][:, MIRROR]
                cf[..., 0] = W - 1 - cf[..., 0]
                c[flip] = cf
            x = x * (1 + 0.3 * (torch.rand(batch, 1, 1, 1) - 0.5)) + 0.2 * (torch.rand(batch, 3, 1, 1) - 0.5)
            loss = -(targets(c) * F.log_softmax(net(x).reshape(batch, 4, -1), -1)).sum(-1).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item()
        med, within = check(net, ci, cc)
        print(f'epoch {ep}: loss {total / (len(perm) // batch):.3f}; check frames\' worst corner median {med:.3f} pitch, '
              f'within 0.1 / 0.2 / 0.3 pitch {within[0]:.3f} / {within[1]:.3f} / {within[2]:.3f} ({time.time() - start:.0f} s)', flush=True)
    net.eval()
    torch.onnx.export(net, torch.zeros(1, 3, H, W), out, opset_version=11, input_names=['frame'], output_names=['heat'])
    print('wrote', out)


if __name__ == '__main__':
    main()
