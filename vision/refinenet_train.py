"""Trains the refinement network (vision/refinenet.go) and writes its ONNX file.

A development step, run by scripts/train-refinenet.sh:

    refinenet_train.py TRAIN_PREFIXES CHECK_PREFIX OUT.onnx [EPOCHS]

TRAIN_PREFIXES is a comma-separated list of TestRefineNetData exports.
Each grid gives four corner patches (4 planes of REFINE_SIDE^2 bytes: r, g,
b and the near-side flag), each with its true corner's offset in the grid's
board units (pitches, mirrored as the patch is). The network regresses the
offset and the log of its expected error; the graph takes batches of four (one grid) as the reader gives them.
"""
import os
import sys

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

import trainloop

SIDE = 64
CH = 4
PIX = CH * SIDE * SIDE
# Grids whose corners are further off than this are left out: a patch this
# far from the truth does not show the corner (a cold grid a cell off).
MAX_OFF = float(os.environ.get("REFINE_MAX_OFF", "0.6"))


def load(prefix):
    pix = np.fromfile(prefix + "_pix.bin", dtype=np.uint8).reshape(-1, CH, SIDE, SIDE)
    off = np.fromfile(prefix + "_off.bin", dtype="<f4").reshape(-1, 2)
    kind = np.repeat(np.fromfile(prefix + "_kind.bin", dtype=np.uint8), 4)
    assert len(pix) == len(off) == len(kind), (len(pix), len(off), len(kind))
    keep = np.abs(off).max(axis=1) <= MAX_OFF
    return pix[keep], off[keep], kind[keep]


def load_all(prefixes):
    parts = [load(p) for p in prefixes.split(",")]
    return tuple(np.concatenate([p[i] for p in parts]) for i in range(3))


def block(cin, cout, stride):
    return [nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]


# ARCH picks the first stages. "full": a 3x3 convolution at the patch's
# 64x64 samples, then 32x32, 16x16, 8x8 (about 18 M multiply-adds a corner).
# "slim": a 2x2 patch at stride 2 first (about 10.5 M); "slimmer": besides,
# no convolution at 32x32 after it (about 7 M).
ARCH = os.environ.get("REFINE_ARCH", "full")


def patchify(cin, cout):
    return [nn.Conv2d(cin, cout, 2, 2, 0, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]


class RefineNet(nn.Module):
    def __init__(self):
        super().__init__()
        if ARCH == "full":
            layers = block(CH, 16, 1)
            stages = [(16, 24), (24, 32), (32, 48)]
        elif ARCH == "slim":
            layers = patchify(CH, 16) + block(16, 24, 1)
            stages = [(24, 32), (32, 48)]
        elif ARCH == "slimmer":
            layers = patchify(CH, 24)
            stages = [(24, 32), (32, 48)]
        else:
            raise SystemExit("REFINE_ARCH must be full, slim or slimmer, not %r" % ARCH)
        for cin, cout in stages:
            layers += block(cin, cout, 2) + block(cout, cout, 1)
        layers += block(48, 64, 2)
        self.features = nn.Sequential(*layers)
        self.head = nn.Sequential(nn.Flatten(), nn.Linear(64 * 4 * 4, 64), nn.ReLU(inplace=True), nn.Linear(64, 3))

    def forward(self, x):
        return self.head(self.features(x / 255.0 - 0.5))


def refine_loss(out, target):
    """Smooth L1 on the offset, plus a Laplace likelihood that teaches the
    third output (log of the expected error, pitches) how sure it is."""
    pred, logb = out[:, :2], out[:, 2].clamp(-6, 1)
    l1 = F.smooth_l1_loss(pred, target, beta=0.02)
    dist = (pred.detach() - target).abs().sum(dim=1)
    nll = (dist / torch.exp(logb) + 2 * logb).mean()
    return l1 + 0.01 * nll


def augment(x):
    """Brightness, contrast and colour cast per patch; the flag plane kept."""
    n = x.shape[0]
    rgb = x[:, :3]
    mean = rgb.mean(dim=(1, 2, 3), keepdim=True)
    contrast = 1 + 0.3 * (torch.rand(n, 1, 1, 1) - 0.5)
    gain = 1 + 0.4 * (torch.rand(n, 1, 1, 1) - 0.5) + 0.1 * (torch.rand(n, 3, 1, 1) - 0.5)
    rgb = ((rgb - mean) * contrast + mean) * gain
    rgb = rgb + torch.randn_like(rgb) * 3
    return torch.cat([rgb.clamp(0, 255), x[:, 3:]], dim=1)


def evaluate(net, pix, off, kind):
    net.eval()
    preds = []
    with torch.no_grad():
        for i in range(0, len(pix), 512):
            preds.append(net(torch.from_numpy(pix[i:i + 512]).float()).numpy())
    out = np.concatenate(preds)
    pred, spread = out[:, :2], np.exp(out[:, 2])
    err = np.hypot(*(pred - off).T)
    before = np.hypot(*off.T)
    lines = []
    for k, name in [(1, "cold grids"), (2, "cold, a coarse round on"), (0, "jittered")]:
        m = kind == k
        if m.any():
            lines.append("%s: corners %d, off median %.4f -> %.4f, p90 %.4f -> %.4f, within 0.03 %.1f -> %.1f %%" % (
                name, m.sum(), np.median(before[m]), np.median(err[m]), np.percentile(before[m], 90),
                np.percentile(err[m], 90), 100 * (before[m] < 0.03).mean(), 100 * (err[m] < 0.03).mean()))
    sure = spread <= np.median(spread)
    lines.append("the surer half by its spread (under %.4f): error median %.4f p90 %.4f; the rest %.4f / %.4f" % (
        np.median(spread), np.median(err[sure]), np.percentile(err[sure], 90), np.median(err[~sure]), np.percentile(err[~sure], 90)))
    return np.median(err), lines


def main():
    train, check, out = sys.argv[1], sys.argv[2], sys.argv[3]
    epochs = int(sys.argv[4]) if len(sys.argv) > 4 else 12
    torch.manual_seed(int(os.environ.get("REFINE_SEED", "1")))
    torch.set_num_threads(int(os.environ.get("REFINE_THREADS", os.cpu_count() or 2)))
    tp, to, tk = load_all(train)
    cp, co, ck = load_all(check)
    print("train %d corners, check %d" % (len(tp), len(cp)), flush=True)
    net = RefineNet()
    init = os.environ.get("REFINE_INIT")
    if init:
        # Warm start from an earlier run's weights; layers whose shape
        # changed start afresh.
        own = net.state_dict()
        old = {k: v for k, v in torch.load(init).items() if k in own and own[k].shape == v.shape}
        net.load_state_dict(old, strict=False)
        print("started from %s (%d of %d tensors)" % (init, len(old), len(own)), flush=True)
    tpt, tot = torch.from_numpy(tp), torch.from_numpy(to)

    def batch_loss(idx):
        return refine_loss(net(augment(tpt[idx].float())), tot[idx])

    for ep, loss, secs in trainloop.one_cycle(net, len(tp), 64, epochs, batch_loss):
        med, lines = evaluate(net, cp, co, ck)
        print("epoch %d: loss %.5f, check median error %.4f (%.0f s)" % (ep, loss, med, secs), flush=True)
        for l in lines:
            print("  " + l, flush=True)
    torch.save(net.state_dict(), out + ".pt")
    export_onnx(net, out)


def export_onnx(net, out):
    net.eval()
    torch.onnx.export(net, torch.zeros(4, CH, SIDE, SIDE), out, input_names=["patch"], output_names=["off"], opset_version=11)


if __name__ == "__main__":
    main()
