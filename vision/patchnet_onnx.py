#!/usr/bin/env python3
"""Reads the patch networks (the third look, vision/patchnet.go) back out of
an ONNX file that patchnet_train.py or patchnet_mean.py wrote, as PyTorch
modules that give the same corrections. The networks' training states
(NET.onnx.pt) need not survive: the file the reader embeds is enough to
join a newly trained network to it (patchnet_mean.py) or to train it on.

ONNX is protobuf; no onnx package is needed for the little read here: the
model's graph (field 7), the graph's nodes (1) and initializers (5), each
tensor's dims (1), type (2), name (8) and raw bytes (9), each node's inputs
(1) and operator (4). The export folded each BatchNorm into its
convolution, so a network comes back as four 3x3 convolutions with biases
(in the graph's order, four a network) and its head, `nets.K.fc.*`
(`fc.*` for a single network), with its extra inputs' mean and spread.

Development step:

    patchnet_onnx.py FILE.onnx    # prints the networks found

and `import patchnet_onnx; patchnet_onnx.networks(path)` elsewhere.
"""
import struct
import sys

import numpy as np
import torch
import torch.nn as nn

import patchnet_train as P


def _varint(b, i):
    value = shift = 0
    while True:
        c = b[i]
        i += 1
        value |= (c & 0x7F) << shift
        shift += 7
        if c < 0x80:
            return value, i


def _fields(b):
    """The (field, wire type, value) triples of one protobuf message."""
    i, out = 0, []
    while i < len(b):
        key, i = _varint(b, i)
        field, wire = key >> 3, key & 7
        if wire == 0:
            value, i = _varint(b, i)
        elif wire == 1:
            value, i = b[i:i + 8], i + 8
        elif wire == 5:
            value, i = b[i:i + 4], i + 4
        elif wire == 2:
            n, i = _varint(b, i)
            value, i = b[i:i + n], i + n
        else:
            raise ValueError(f'protobuf wire type {wire} at byte {i}: not an ONNX file?')
        out.append((field, wire, value))
    return out


def _tensor(b):
    dims, name, raw, dtype, floats = [], '', None, 1, []
    for field, wire, v in _fields(b):
        if field == 1:
            if wire == 0:
                dims.append(v)
            else:
                j = 0
                while j < len(v):
                    d, j = _varint(v, j)
                    dims.append(d)
        elif field == 2:
            dtype = v
        elif field == 8:
            name = v.decode()
        elif field == 9:
            raw = v
        elif field == 4:
            floats += struct.unpack('<%df' % (len(v) // 4), v) if wire == 2 else struct.unpack('<f', v)
    if dtype != 1:
        return name, None  # not float32: not a weight
    a = np.frombuffer(raw, dtype='<f4').copy() if raw is not None else np.array(floats, dtype=np.float32)
    return name, a.reshape(dims)


def _read(path):
    with open(path, 'rb') as f:
        model = f.read()
    graphs = [v for field, _, v in _fields(model) if field == 7]
    if not graphs:
        raise ValueError(f'{path}: no graph: not an ONNX model')
    weights, convs = {}, []
    for field, _, v in _fields(graphs[0]):
        if field == 5:
            name, a = _tensor(v)
            weights[name] = a
        elif field == 1:
            ins, op = [], ''
            for g, _, w in _fields(v):
                if g == 1:
                    ins.append(w.decode())
                elif g == 4:
                    op = w.decode()
            if op == 'Conv':
                convs.append(ins)
    return weights, convs


class FoldedPatchNet(P.PatchNet):
    """A PatchNet with each BatchNorm folded into its convolution: the same
    function (PatchNet's forward), and trainable as it stands (no batch
    statistics left)."""

    def __init__(self, convs, fc, emean, esd):
        nn.Module.__init__(self)  # PatchNet's own layers are not wanted
        self.register_buffer('emean', torch.as_tensor(emean))
        self.register_buffer('esd', torch.as_tensor(esd))
        layers = []
        for k, (w, b) in enumerate(convs):
            conv = nn.Conv2d(w.shape[1], w.shape[0], 3, padding=1)
            conv.weight.data, conv.bias.data = torch.from_numpy(w), torch.from_numpy(b)
            layers += [conv, nn.ReLU(inplace=True), nn.MaxPool2d(2) if k < len(convs) - 1 else nn.AdaptiveAvgPool2d(2)]
        self.features = nn.Sequential(*layers)
        (w0, b0), (w2, b2) = fc
        self.fc = nn.Sequential(nn.Linear(w0.shape[1], w0.shape[0]), nn.ReLU(inplace=True), nn.Linear(w2.shape[1], w2.shape[0]))
        for layer, w, b in ((self.fc[0], w0, b0), (self.fc[2], w2, b2)):
            layer.weight.data, layer.bias.data = torch.from_numpy(w), torch.from_numpy(b)


def networks(path):
    """The patch networks in the ONNX file at path, in eval mode."""
    weights, convs = _read(path)
    # Heads in the order of their networks (nets.0., nets.1., ..., nets.10.).
    prefixes = sorted({n[:n.index('fc.')] for n in weights if n.endswith('fc.0.weight')},
                      key=lambda p: int(p.split('.')[1]) if p.startswith('nets.') else -1)
    if len(convs) != 4 * len(prefixes) or not prefixes:
        raise ValueError(f'{path}: {len(convs)} convolutions for {len(prefixes)} heads: not a patch network file')
    nets = []
    for k, prefix in enumerate(prefixes):
        cs = [(weights[c[1]], weights[c[2]]) for c in convs[4 * k:4 * k + 4]]
        fc = [(weights[prefix + 'fc.0.weight'], weights[prefix + 'fc.0.bias']),
              (weights[prefix + 'fc.2.weight'], weights[prefix + 'fc.2.bias'])]
        nets.append(FoldedPatchNet(cs, fc, weights[prefix + 'emean'], weights[prefix + 'esd']).eval())
    return nets


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    for k, net in enumerate(networks(sys.argv[1])):
        print(f'network {k}: {sum(p.numel() for p in net.parameters())} weights')


if __name__ == '__main__':
    main()
