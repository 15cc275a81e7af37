#!/usr/bin/env python3
"""Trains the tier look's network (vision/tiernet.go) and writes its ONNX file.

Each cell is its colours on the first and second tiers' tops (6 planes of
SIDE x SIDE bytes) and its extra inputs: the reader's log-odds of level 2
over level 1 (which the network does not see), the occupant (one-hot) and
the cell's geometry. The network is trained as a classifier of the two
levels on every cell; its logit times SCALE, bounded smoothly by BOUND in
the graph, is the correction the reader adds to those odds.

Development step, run by scripts/train-tiernet.sh:

    tiernet_train.py TRAIN_PREFIXES CHECK_PREFIX OUT.onnx [EPOCHS]

where the prefixes (comma-separated) are TestTierNetData's files. It
needs PyTorch (Debian's python3-torch); the reader needs only the ONNX
file.
"""
import os
import sys

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

import trainloop

SIDE = 64
CHANNELS = 6
EXTRA = 1 + 4 + 4
BOUND = float(os.environ.get('TIER_BOUND', '3'))
# GATE: the cells the reader hands over: odds within this either way.
GATE = float(os.environ.get('TIER_GATE', '6'))
# The network learns to tell the levels apart on every cell, not the
# reader's odds (it does not see them); its logit times SCALE, bounded, is
# the correction. (Trained on the unsure cells alone to correct the odds,
# as the third look is, it learnt nothing: SIM_NOTES, seventy-fourth
# session.)
SCALE = float(os.environ.get('TIER_SCALE', '1'))
# BALANCE: weigh the two classes' cells so each counts alike in the loss,
# for a pair far from even (the dome look's: domes outnumber blue pawns on
# level 3 ten to one), so the logit does not carry the training frames'
# prior on top of the reader's own.
BALANCE = os.environ.get('TIER_BALANCE', '0') == '1'


def load_one(prefix, gate=GATE, channels=CHANNELS):
    label = np.fromfile(prefix + '_label.bin', dtype=np.uint8)
    pix = np.fromfile(prefix + '_pix.bin', dtype=np.uint8).reshape(-1, channels, SIDE, SIDE)
    extra = np.fromfile(prefix + '_extra.bin', dtype='<f4').reshape(-1, EXTRA)
    if not (len(label) == len(pix) == len(extra)):
        sys.exit(f'{prefix}: {len(pix)} patches, {len(extra)} extras, {len(label)} labels')
    keep = (label != 255) & (np.abs(extra[:, 0]) < gate)
    return pix[keep], extra[keep], label[keep].astype(np.float32)


def load(prefixes, gate=GATE, channels=CHANNELS):
    parts = [load_one(p, gate, channels) for p in prefixes.split(',')]
    return tuple(np.concatenate(a) for a in zip(*parts))


def conv(cin, cout, stride=1):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class TierNet(nn.Module):
    def __init__(self, emean, esd, channels=CHANNELS):
        super().__init__()
        self.register_buffer('emean', torch.as_tensor(emean))
        self.register_buffer('esd', torch.as_tensor(esd))
        # A 3x3 window at the first stride still sees a rim two or three
        # samples wide.
        self.features = nn.Sequential(
            conv(channels, 16, 2), conv(16, 24), conv(24, 32, 2),
            conv(32, 32), conv(32, 48, 2), conv(48, 48, 2),
            nn.AdaptiveAvgPool2d(2))
        self.fc = nn.Sequential(nn.Linear(48 * 4 + EXTRA, 64), nn.ReLU(inplace=True), nn.Linear(64, 1))
        self.register_buffer('scale', torch.tensor(1.0))

    def logit(self, patch, extra):
        f = self.features((patch - 127.5) / 64.0).flatten(1)
        e = (extra - self.emean) / self.esd
        return self.fc(torch.cat([f, e], 1))

    def forward(self, patch, extra):
        return BOUND * torch.tanh(self.scale * self.logit(patch, extra) / BOUND)


def augment(p, shadow_share=0.0):
    """Brightness, contrast and a colour cast per cell, the same on both
    planes (one lamp lights both tops), sensor noise, and on a share
    shadow_share of the cells a hard shadow edge. Channels after the two
    planes' colours (the hidden-pawn look's cover masks) are left as
    they are."""
    if p.shape[1] > CHANNELS:
        return torch.cat([augment(p[:, :CHANNELS], shadow_share), p[:, CHANNELS:]], 1)
    n = p.shape[0]
    mean = p.mean(dim=(1, 2, 3), keepdim=True)
    contrast = 1 + 0.3 * (torch.rand(n, 1, 1, 1) - 0.5)
    gain = 1 + 0.4 * (torch.rand(n, 1, 1, 1) - 0.5)
    cast = 1 + 0.1 * (torch.rand(n, 3, 1, 1) - 0.5)
    p = ((p - mean) * contrast + mean) * gain * cast.repeat(1, 2, 1, 1)
    p = p + torch.randn_like(p) * 2
    if shadow_share > 0:
        p = shadow(p, shadow_share)
    return p.clamp(0, 255)


# SHADOW: the share of the tier network's cells given a hard shadow edge
# (a lamp behind a neighbouring tower): the half-plane beyond a random
# line darkened alike on both tops. The reader reads seen levels 1 and 2
# wrong most under one lamp (SIM_NOTES, eighty-seventh session). The pawn
# trainer shares augment but not this setting.
SHADOW = float(os.environ.get('TIER_SHADOW', '0'))


def shadow(p, share):
    n, _, h, w = p.shape
    pick = torch.rand(n) < share
    ang = torch.rand(n) * 2 * np.pi
    off = (torch.rand(n) - 0.5) * 0.8
    ys = torch.linspace(-0.5, 0.5, h)[None, :, None]
    xs = torch.linspace(-0.5, 0.5, w)[None, None, :]
    side = xs * torch.cos(ang)[:, None, None] + ys * torch.sin(ang)[:, None, None] > off[:, None, None]
    dark = 0.45 + 0.35 * torch.rand(n)
    f = torch.where(side & pick[:, None, None], dark[:, None, None], torch.ones(1))
    return p * f[:, None, :, :]


# MIRROR: the world mirrored left to right is as plausible a scene (the
# pieces are symmetric, the lamps anywhere), so half of each batch is
# shown mirrored: the patches' columns reversed and the camera's side
# across the columns (the first geometry input) negated.
MIRROR = os.environ.get('TIER_MIRROR', '1') == '1'
GEOM_SIDE = 1 + 4


def mirror(p, e):
    """Mirrors a random half of the cells (patches p, extras e)."""
    flip = torch.rand(p.shape[0]) < 0.5
    p = torch.where(flip[:, None, None, None], p.flip(3), p)
    e = e.clone()
    e[flip, GEOM_SIDE] = -e[flip, GEOM_SIDE]
    return p, e


def corrections(net, pix, extra, batch=1024):
    net.eval()
    out = []
    with torch.no_grad():
        for i in range(0, len(pix), batch):
            out.append(net(torch.from_numpy(pix[i:i + batch]).float(), torch.from_numpy(extra[i:i + batch])).numpy()[:, 0])
    return np.concatenate(out)


def evaluate(net, pix, extra, label):
    corr = corrections(net, pix, extra)
    base = extra[:, 0]
    before = ((base > 0) != (label > 0.5)).sum()
    after = ((base + corr > 0) != (label > 0.5)).sum()
    return before, after, corr


def scales(net, pix, extra, label):
    """The check cells' errors and loss with the classifier's logit
    scaled by each of a few weights: how TIER_SCALE was chosen."""
    for sc in [0.3, 0.5, 0.7, 1.0, 1.5, 2.0, 3.0, 4.0]:
        net.scale.fill_(sc)
        _, wrong, corr = evaluate(net, pix, extra, label)
        z = extra[:, 0] + corr
        loss = np.mean(np.logaddexp(0, z) - label * z)
        print(f'  scale {sc}: check cells wrong {wrong}, loss {loss:.4f}', flush=True)


def main():
    train, check, out = sys.argv[1], sys.argv[2], sys.argv[3]
    epochs = int(sys.argv[4]) if len(sys.argv) > 4 else 10
    torch.manual_seed(int(os.environ.get('TIER_SEED', '1')))
    torch.set_num_threads(os.cpu_count() or 2)
    tp, te, tl = load(train, np.inf)
    cp, ce, cl = load(check)
    print(f'train {len(tp)} cells ({int(tl.sum())} level 2), check {len(cp)}', flush=True)
    emean, esd = te.mean(0), te.std(0) + 1e-3
    emean[0], esd[0] = 0, 1e9  # the odds are not seen
    net = TierNet(emean.astype(np.float32), esd.astype(np.float32))
    max_lr = start_from_kept(net, 'TIER')
    if max_lr:
        print(f'from {os.environ["TIER_FROM"]}: check cells wrong {evaluate(net, cp, ce, cl)[1]} of {len(cp)}', flush=True)
    tpt, tet, tlt = torch.from_numpy(tp), torch.from_numpy(te), torch.from_numpy(tl)
    pos_weight = torch.tensor((len(tl) - tl.sum()) / tl.sum()) if BALANCE else None

    def batch_loss(idx):
        p, e = augment(tpt[idx].float(), SHADOW), tet[idx]
        if MIRROR:
            p, e = mirror(p, e)
        logit = net.logit(p, e)[:, 0]
        return F.binary_cross_entropy_with_logits(logit, tlt[idx], pos_weight=pos_weight)

    for ep, loss, secs in trainloop.one_cycle(net, len(tp), 128, epochs, batch_loss, max_lr):
        before, after, _ = evaluate(net, cp, ce, cl)
        print(f'epoch {ep}: loss {loss:.4f}, check cells wrong {before} -> {after} of {len(cp)} ({secs:.0f} s)', flush=True)
    scales(net, cp, ce, cl)
    net.scale.fill_(SCALE)
    torch.save(net.state_dict(), out + '.pt')
    export_onnx(net, out)


def load_onnx(net, path):
    """Starts net from a kept ONNX file, for going on training it on new
    frames: the exporter folded the batch norms into the convolutions, so
    each convolution takes a bias and its batch norm goes. Keeps the
    file's input normalisation (emean, esd). Needs Debian's python3-onnx."""
    import onnx
    from onnx import numpy_helper
    m = onnx.load(path)
    init = {t.name: numpy_helper.to_array(t) for t in m.graph.initializer}
    convs = [n.input[1:] for n in m.graph.node if n.op_type == 'Conv']
    blocks = [b for b in net.features if isinstance(b, nn.Sequential)]
    if len(convs) != len(blocks):
        sys.exit(f'{path}: {len(convs)} convolutions, the network has {len(blocks)}')
    for block, (w, b) in zip(blocks, convs):
        old = block[0]
        conv = nn.Conv2d(old.in_channels, old.out_channels, 3, old.stride, padding=1)
        weight = init[w].copy()
        if weight.shape[1] < old.in_channels:
            # Inputs the file lacks (cover masks added) start unweighted:
            # the network begins as the file's.
            pad = np.zeros((weight.shape[0], old.in_channels - weight.shape[1]) + weight.shape[2:], weight.dtype)
            weight = np.concatenate([weight, pad], 1)
        conv.weight.data = torch.from_numpy(weight)
        conv.bias.data = torch.from_numpy(init[b].copy())
        block[0] = conv
        del block[1]
    state = {k: torch.from_numpy(init[k].copy()) for k in ('emean', 'esd', 'fc.0.weight', 'fc.0.bias', 'fc.2.weight', 'fc.2.bias')}
    net.load_state_dict(state, strict=False)


def start_from_kept(net, var):
    """Loads the kept file $<var>_FROM into net, if set, and gives the
    peak rate to go on training it at: gentler ($<var>_LR, default 5e-4),
    so that what it learnt from frames now gone is not unlearnt; None
    (the training loop's own) when starting afresh."""
    path = os.environ.get(var + '_FROM')
    if not path:
        return None
    load_onnx(net, path)
    return float(os.environ.get(var + '_LR', '5e-4'))


def export_onnx(net, out):
    """Writes net as the ONNX file the reader loads: one cell a run."""
    net.eval()
    channels = net.features[0][0].in_channels
    torch.onnx.export(net, (torch.zeros(1, channels, SIDE, SIDE), torch.zeros(1, EXTRA)), out, opset_version=11,
                      input_names=['patch', 'extra'], output_names=['corr'])


if __name__ == '__main__':
    main()
