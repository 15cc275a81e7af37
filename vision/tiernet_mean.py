#!/usr/bin/env python3
"""Writes one tier network file whose correction is the mean of several
kept files' (vision/tiernet.go loads it as it loads one network).

Development step:

    tiernet_mean.py A.onnx [B.onnx ...] OUT.onnx

With TIER_BOUND=B set, the mean is bounded by B instead of 3; with one
file that rewrites it with the new bound (how the kept tiernet.onnx got
its bound of 5).

Networks trained apart (other frames, another seed) err on partly other
cells; the mean of their bounded corrections errs on fewer. Each keeps
its own input normalisation and logit weight. Needs Debian's
python3-torch and python3-onnx.
"""
import sys

import numpy as np
import onnx
import torch
import torch.nn as nn
from onnx import numpy_helper

import tiernet_train as tier


class MeanNet(nn.Module):
    """k tier networks side by side as one: each convolution's channels
    are the k networks' stacked (grouped after the first, which all read
    the same patch), the first dense layer is block-diagonal over their
    features and reads the raw extras (each network's normalisation
    folded into its weights), and the last gives k logits, each weighed
    and bounded as its network does, then averaged. One plain chain of
    layers: OpenCV 4.6's importer computed a graph of two branches
    wrong."""

    def __init__(self, nets):
        super().__init__()
        k = len(nets)
        layers = []
        for j, blocks in enumerate(zip(*[[b[0] for b in n.features if isinstance(b, nn.Sequential)] for n in nets])):
            c0 = blocks[0]
            groups = 1 if j == 0 else k
            conv = nn.Conv2d(c0.in_channels * (1 if j == 0 else k), c0.out_channels * k, 3, c0.stride, padding=1, groups=groups)
            conv.weight.data = torch.cat([b.weight.data for b in blocks])
            conv.bias.data = torch.cat([b.bias.data for b in blocks])
            layers += [conv, nn.ReLU()]
        layers.append(nn.AdaptiveAvgPool2d(2))
        self.features = nn.Sequential(*layers)
        nf = nets[0].fc[0].in_features - tier.EXTRA
        hidden = nets[0].fc[0].out_features
        self.fc0 = nn.Linear(k * nf + tier.EXTRA, k * hidden)
        self.fc2 = nn.Linear(k * hidden, k)
        w0 = torch.zeros(k * hidden, k * nf + tier.EXTRA)
        b0 = torch.zeros(k * hidden)
        w2 = torch.zeros(k, k * hidden)
        b2 = torch.zeros(k)
        for i, n in enumerate(nets):
            h = slice(i * hidden, (i + 1) * hidden)
            wf, we = n.fc[0].weight.data[:, :nf], n.fc[0].weight.data[:, nf:]
            w0[h, i * nf:(i + 1) * nf] = wf
            # fc0(f, (e - mean) / sd) = wf f + (we / sd) e - we mean / sd + b
            w0[h, k * nf:] = we / n.esd
            b0[h] = n.fc[0].bias.data - we @ (n.emean / n.esd)
            # tanh's argument: scale * logit / BOUND
            w2[i, h] = n.fc[2].weight.data[0] * n.scale / tier.BOUND
            b2[i] = n.fc[2].bias.data[0] * n.scale / tier.BOUND
        self.fc0.weight.data, self.fc0.bias.data = w0, b0
        self.fc2.weight.data, self.fc2.bias.data = w2, b2
        self.out = nn.Linear(k, 1, bias=False)
        self.out.weight.data = torch.full((1, k), tier.BOUND / k)

    def forward(self, patch, extra):
        f = self.features((patch - 127.5) / 64.0).flatten(1)
        h = torch.relu(self.fc0(torch.cat([f, extra], 1)))
        return self.out(torch.tanh(self.fc2(h)))


def load_kept(path):
    """A TierNet with the kept file's weights, normalisation and weight."""
    net = tier.TierNet(np.zeros(tier.EXTRA, np.float32), np.ones(tier.EXTRA, np.float32))
    tier.load_onnx(net, path)
    init = {t.name: numpy_helper.to_array(t) for t in onnx.load(path).graph.initializer}
    if 'scale' not in init:
        sys.exit(f'{path}: no logit weight (scale) in the file: not a tier network file')
    net.scale.fill_(float(init['scale']))
    return net


def main():
    if len(sys.argv) < 3:
        sys.exit('usage: tiernet_mean.py A.onnx [B.onnx ...] OUT.onnx')
    nets = [load_kept(p) for p in sys.argv[1:-1]]
    # One network is written as itself (at TIER_BOUND), so the file stays
    # one that load_onnx (TIER_FROM) can train on further.
    mean = nets[0] if len(nets) == 1 else MeanNet(nets)
    mean.eval()
    # The mean must agree with its parts on a few random cells.
    p = torch.rand(8, tier.CHANNELS, tier.SIDE, tier.SIDE) * 255
    e = torch.randn(8, tier.EXTRA)
    with torch.no_grad():
        want = sum(n(p, e) for n in nets) / len(nets)
        if not torch.allclose(mean(p, e), want, atol=1e-4):
            sys.exit('tiernet_mean: the mean network does not match its parts')
    tier.export_onnx(mean, sys.argv[-1])
    print(f'tiernet_mean: wrote {sys.argv[-1]}, the mean of {len(nets)} networks', flush=True)


if __name__ == '__main__':
    main()
