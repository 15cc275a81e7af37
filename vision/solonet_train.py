#!/usr/bin/env python3
"""A feasibility tool, not a kept network: a cell network that reads each
cell from the third look's patches (the board's and the three tiers' tops,
12 channels of 32 x 32 bytes) and the cell's geometry alone, with no
reading's log-probabilities, trained on every cell (not only the unsure).
A reading without the render-and-compare search and the colour model would
be this network; the question is how near it comes to the reader.

Development step (SIM_NOTES, eighty-first to eighty-third sessions):

    cd vision && COMPANION_SIM_CACHE=DIR go test -run 'TestPatchNetData$' \
        -patchdata A-B -patchjitter 0.012 -patchsolo ANY.onnx \
        -patchout PREFIX                                        # every cell
    solonet_train.py TRAIN_PREFIX[,PREFIX...] CHECK_PREFIX OUT.onnx [EPOCHS]
    go test -run XXX -bench PatchNetAllCells -cpu 1 -patchnetfile OUT.onnx .
    cd ../accuracy && go test -run TestHarness -seeds S-T -solo OUT.onnx

-patchsolo (any solo network's file) samples the patches on the grid's own
lens, as the reader's solo reading (UseCellNetworks) does; without it
they are sampled on the lens the reading chose, and networks trained so
read the solo reading's patches worse.

The best so far (eighty-third session): WIDTHS=16,32,48,64 STRIDE1=1 on
every cell of about 4000 frames exported at 0.012, 0.04 and 0.08 pitch,
6 epochs or more (3 epochs read a tenth more check cells wrong).

WIDTHS (default 24,48,64,64: the patch network's) sets the convolutions'
widths, STRIDE1=1 strides the first instead of pooling after it. Each epoch
prints the check cells it reads wrong against the reading's own (the
exported log-probabilities' argmax). OUT.onnx takes the patch network's
inputs for 8 rows and gives log-probabilities as "corr", so the benchmark
and a reader's experiment can run it in the patch network's place;
OUT.onnx.pt and OUT.onnx_checklogits.npy keep the weights and the check
cells' logits. Needs PyTorch (Debian's python3-torch).
"""
import os
import sys
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from patchnet_train import CHANNELS, EXTRA, NHYP, PATCH, conv, jitter_light, load, train_epochs

GEOM = EXTRA - NHYP
WIDTHS = [int(x) for x in os.environ.get('WIDTHS', '24,48,64,64').split(',')]
STRIDE1 = os.environ.get('STRIDE1', '0') == '1'
SEED = int(os.environ.get('SEED', '1'))


class Solo(nn.Module):
    def __init__(self, gmean, gsd):
        super().__init__()
        self.register_buffer('gmean', torch.as_tensor(gmean))
        self.register_buffer('gsd', torch.as_tensor(gsd))
        w = WIDTHS
        layers = []
        if STRIDE1:
            layers += [conv(CHANNELS, w[0], 2)]
        else:
            layers += [conv(CHANNELS, w[0]), nn.MaxPool2d(2)]
        layers += [conv(w[0], w[1]), nn.MaxPool2d(2), conv(w[1], w[2]), nn.MaxPool2d(2), conv(w[2], w[3]), nn.AdaptiveAvgPool2d(2)]
        self.features = nn.Sequential(*layers)
        self.fc = nn.Sequential(nn.Linear(w[3] * 4 + GEOM, 128), nn.ReLU(inplace=True), nn.Linear(128, NHYP))

    def forward(self, patch, geom):
        f = self.features((patch - 127.5) / 64.0).flatten(1)
        g = (geom - self.gmean) / self.gsd
        return self.fc(torch.cat([f, g], 1))


def evaluate(net, pix, extra, label, batch=2048):
    net.eval()
    preds = []
    with torch.no_grad():
        for i in range(0, len(pix), batch):
            p = torch.from_numpy(pix[i:i + batch]).float()
            g = torch.from_numpy(extra[i:i + batch, NHYP:])
            preds.append(net(p, g))
    lg = torch.cat(preds)
    y = torch.from_numpy(label)
    return lg, (lg.argmax(1) == y)


class AsPatchNet(nn.Module):
    """The network with the patch network's inputs (patch, and extra of
    which only the geometry is read) and log-probabilities out."""

    def __init__(self, net):
        super().__init__()
        self.net = net

    def forward(self, patch, extra):
        return torch.log_softmax(self.net(patch, extra[:, NHYP:]), 1)


def export_onnx(net, out):
    # 8 rows, as patchnet_train.py exports: OpenCV 4.6 cannot import the
    # concatenation with a free batch size, yet runs the file at any.
    torch.onnx.export(AsPatchNet(net), (torch.zeros(8, CHANNELS, PATCH, PATCH), torch.zeros(8, EXTRA)), out,
                      opset_version=11, input_names=['patch', 'extra'], output_names=['corr'])


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    train_prefix, check_prefix, out = sys.argv[1:4]
    epochs = int(sys.argv[4]) if len(sys.argv) > 4 else 8
    torch.set_num_threads(int(os.environ.get('THREADS', '1')))
    torch.manual_seed(SEED)
    np.random.seed(SEED)
    tp, te, tl = load(train_prefix)
    cp, ce, cl = load(check_prefix)
    reading = (ce[:, :NHYP].argmax(1) == cl)
    print(f'{len(tp)} training cells, {len(cp)} check cells; the reading (second look) wrong on {int((~reading).sum())}', flush=True)
    tg = te[:, NHYP:]
    net = Solo(tg.mean(0), np.maximum(tg.std(0), 1e-3))
    print('params', sum(p.numel() for p in net.parameters()), flush=True)

    def batch_loss(idx):
        p = jitter_light(torch.from_numpy(tp[idx]).float())
        return F.cross_entropy(net(p, torch.from_numpy(tg[idx])), torch.from_numpy(tl[idx]))

    for ep, loss, secs in train_epochs(net, len(tp), epochs, batch_loss):
        lg, ok = evaluate(net, cp, ce, cl)
        ok = ok.numpy()
        print(f'epoch {ep}: loss {loss:.4f}; check wrong solo {int((~ok).sum())} of {len(ok)}, '
              f'both wrong {int((~ok & ~reading).sum())}, solo only {int((~ok & reading).sum())}, reading only {int((ok & ~reading).sum())} '
              f'({secs:.0f} s)', flush=True)
        torch.save(net.state_dict(), out + '.pt')
        np.save(out + '_checklogits.npy', lg.numpy())
    net.eval()
    export_onnx(net, out)
    print('wrote', out)


if __name__ == '__main__':
    main()
