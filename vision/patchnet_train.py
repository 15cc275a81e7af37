#!/usr/bin/env python3
"""Trains the patch network (the third look, vision/patchnet.go) and writes
its ONNX file.

Each cell is seen as its colours resampled on four planes (the board and
the three tiers' tops; 12 channels of PATCH x PATCH, raw 0-255) with its
extra inputs: the second look's log-probabilities (relative to the best,
clipped) and the cell's geometry. The network gives corrections that are
added to those log-probabilities; it is trained by the cross-entropy of
the sum against the true hypothesis, so a network that has learned
nothing leaves the second look's reading. Only the cells the second look
is unsure of (GATE) are trained on and corrected. Brightness and contrast
are jittered, and the light is made uneven across the patch (a ramp and a
lamp's spot), as a lamp low over the table lights a cell. Each correction
is bounded smoothly by BOUND (BOUND tanh(x / BOUND)) in the graph itself,
so the network learns within the bound the reader keeps.

Development step, run by scripts/train-patchnet.sh:

    patchnet_train.py TRAIN_PREFIX[,PREFIX...] CHECK_PREFIX OUT.onnx [EPOCHS]

where the prefixes are TestPatchNetData's files. It needs PyTorch
(Debian's python3-torch); the reader itself needs only the ONNX file.
"""
import os
import sys
import time
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

PATCH, CHANNELS, NHYP, EXTRA = 32, 12, 17, 21
# BATCH: the rows the ONNX file is exported for (the reader runs it at
# other row counts too: patchRows in patchnet.go).
BATCH = 8
# GATE: only cells whose best log-probability leads the next by less than
# this are looked at again (patchGate in patchnet.go); on 18000-18999 at
# corners moved 0.04 pitch they are 31 % of the cells and hold 828 of the
# second look's 834 errors.
GATE = 6.0
# BOUND: the largest correction (patchClip in patchnet.go).
BOUND = float(os.environ.get('PATCH_BOUND', '2'))
# SEED: the random seed (weights, order, augmentation); networks trained
# with different seeds err differently, and their mean errs less
# (patchnet_mean.py).
SEED = int(os.environ.get('PATCH_SEED', '1'))


def unsure(extra):
    s = np.sort(extra[:, :NHYP], 1)
    return s[:, -1] - s[:, -2] < GATE


def load(prefixes):
    """The cells of every PREFIX in prefixes (comma-separated), read into
    arrays made once: concatenating copies would need twice the memory
    (a million cells are 12 GB of patches)."""
    ps = prefixes.split(',')
    counts = [os.path.getsize(p + '_label.bin') for p in ps]
    n = sum(counts)
    pix = np.empty((n, CHANNELS, PATCH, PATCH), np.uint8)
    extra = np.empty((n, EXTRA), '<f4')
    label = np.empty(n, np.int64)
    at = 0
    for prefix, c in zip(ps, counts):
        if os.path.getsize(prefix + '_pix.bin') != c * pix[0].nbytes or os.path.getsize(prefix + '_extra.bin') != c * extra[0].nbytes:
            sys.exit(f'{prefix}: the patch and extra files do not hold {c} cells, as its labels do')
        with open(prefix + '_pix.bin', 'rb') as f:
            if f.readinto(memoryview(pix[at:at + c]).cast('B')) != c * pix[0].nbytes:
                sys.exit(f'{prefix}_pix.bin: short read')
        extra[at:at + c] = np.fromfile(prefix + '_extra.bin', dtype='<f4').reshape(-1, EXTRA)
        label[at:at + c] = np.fromfile(prefix + '_label.bin', dtype=np.uint8)
        at += c
    return pix, extra, label


def conv(cin, cout, stride=1):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride=stride, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class PatchNet(nn.Module):
    def __init__(self, emean, esd):
        super().__init__()
        self.register_buffer('emean', torch.as_tensor(emean))
        self.register_buffer('esd', torch.as_tensor(esd))
        self.features = nn.Sequential(
            conv(CHANNELS, 24), nn.MaxPool2d(2),
            conv(24, 48), nn.MaxPool2d(2),
            conv(48, 64), nn.MaxPool2d(2),
            conv(64, 64), nn.AdaptiveAvgPool2d(2))
        self.fc = nn.Sequential(nn.Linear(64 * 4 + EXTRA, 128), nn.ReLU(inplace=True), nn.Linear(128, NHYP))
        nn.init.zeros_(self.fc[2].weight)
        nn.init.zeros_(self.fc[2].bias)

    def forward(self, patch, extra):
        f = self.features((patch - 127.5) / 64.0).flatten(1)
        e = (extra - self.emean) / self.esd
        return BOUND * torch.tanh(self.fc(torch.cat([f, e], 1)) / BOUND)


def uneven_light(p):
    """Multiplies each patch by a random ramp and, on some, a lamp's spot:
    the same on every plane and channel, as one lamp lights all of them."""
    n = p.shape[0]
    ax = torch.linspace(-0.5, 0.5, PATCH)
    y, x = ax.view(1, PATCH, 1), ax.view(1, 1, PATCH)
    gx, gy = (torch.rand(n, 1, 1) - 0.5) * 0.6, (torch.rand(n, 1, 1) - 0.5) * 0.6
    gain = 1 + gx * x + gy * y
    cx, cy = torch.rand(n, 1, 1) * 1.6 - 0.8, torch.rand(n, 1, 1) * 1.6 - 0.8
    rad = 0.2 + 0.4 * torch.rand(n, 1, 1)
    spot = (torch.rand(n, 1, 1) < 0.4).float() * 0.5 * torch.rand(n, 1, 1)
    gain = gain + spot * torch.exp(-((x - cx) ** 2 + (y - cy) ** 2) / (2 * rad ** 2))
    return p * gain.unsqueeze(1)


def jitter_light(p):
    """A batch of patches p (float, 0-255) with their brightness, contrast
    and colour balance jittered and the light made uneven."""
    n = p.shape[0]
    p = p * (1 + 0.3 * (torch.rand(n, 1, 1, 1) - 0.5)) + 40 * (torch.rand(n, 1, 1, 1) - 0.5) \
        + 10 * (torch.rand(n, 3, 1, 1).repeat(1, CHANNELS // 3, 1, 1) - 0.5)
    return uneven_light(p)


def train_epochs(net, n, epochs, batch_loss, batch=256):
    """Trains net for epochs over n cells in shuffled batches (AdamW, a
    one-cycle schedule peaking at 2e-3) and yields (epoch, mean loss,
    seconds) after each. batch_loss(idx) gives the loss of cells idx (a
    sorted numpy array)."""
    steps = epochs * (n // batch)
    opt = torch.optim.AdamW(net.parameters(), lr=1e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=2e-3, total_steps=steps, pct_start=0.15)
    for ep in range(epochs):
        net.train()
        start, total = time.time(), 0.0
        perm = np.random.permutation(n)
        nb = n // batch
        for i in range(nb):
            loss = batch_loss(np.sort(perm[i * batch:(i + 1) * batch]))
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item()
        yield ep, total / nb, time.time() - start


def export_onnx(net, out):
    """Writes net (a PatchNet, or any module with its inputs and output)
    as the ONNX file the reader loads."""
    # OpenCV 4.6 cannot import this graph with a free batch size (the
    # concatenation's shapes): the reader gives BATCH cells at a time.
    torch.onnx.export(net, (torch.zeros(BATCH, CHANNELS, PATCH, PATCH), torch.zeros(BATCH, EXTRA)), out, opset_version=11,
                      input_names=['patch', 'extra'], output_names=['corr'])


def load_net(path):
    """The network whose state main() saved at path (OUT.onnx.pt)."""
    state = torch.load(path)
    net = PatchNet(state['emean'].numpy(), state['esd'].numpy())
    net.load_state_dict(state)
    return net.eval()


def evaluate(net, pix, extra, label, batch=1024):
    net.eval()
    right0 = right = 0
    with torch.no_grad():
        for i in range(0, len(pix), batch):
            p = torch.from_numpy(pix[i:i + batch]).float()
            e = torch.from_numpy(extra[i:i + batch])
            y = torch.from_numpy(label[i:i + batch])
            lp = e[:, :NHYP]
            right0 += (lp.argmax(1) == y).sum().item()
            right += ((lp + net(p, e)).argmax(1) == y).sum().item()
    return right0, right


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    train_prefix, check_prefix, out = sys.argv[1:4]
    epochs = int(sys.argv[4]) if len(sys.argv) > 4 else 8
    torch.set_num_threads(os.cpu_count() or 1)
    torch.manual_seed(SEED)
    np.random.seed(SEED)
    tp, te, tl = load(train_prefix)
    cp, ce, cl = load(check_prefix)
    keep = unsure(te)
    tp, te, tl = tp[keep], te[keep], tl[keep]
    ckeep = unsure(ce)
    cells, cwrong = len(cl), int((ce[~ckeep, :NHYP].argmax(1) != cl[~ckeep]).sum())
    cp, ce, cl = cp[ckeep], ce[ckeep], cl[ckeep]
    print(f'{len(tp)} unsure training cells, {len(cp)} unsure check cells of {cells} ({cwrong} sure ones wrong)', flush=True)
    emean = te.mean(0)
    esd = np.maximum(te.std(0), 1e-3)
    net = PatchNet(emean, esd)
    right = lambda r: (cells - cwrong - (len(cl) - r)) / cells
    base, now = evaluate(net, cp, ce, cl)
    print(f'check cells right: second look {right(base):.4f}, untrained {right(now):.4f}', flush=True)

    def batch_loss(idx):
        p = jitter_light(torch.from_numpy(tp[idx]).float())
        e = torch.from_numpy(te[idx])
        return F.cross_entropy(e[:, :NHYP] + net(p, e), torch.from_numpy(tl[idx]))

    for ep, loss, secs in train_epochs(net, len(tp), epochs, batch_loss):
        base, now = evaluate(net, cp, ce, cl)
        print(f'epoch {ep}: loss {loss:.4f}; check cells right: second look {right(base):.4f}, with the third {right(now):.4f} '
              f'({secs:.0f} s)', flush=True)
        net.eval()
        export_onnx(net, out)
        torch.save(net.state_dict(), out + '.pt')
    print('wrote', out)


if __name__ == '__main__':
    main()
