#!/usr/bin/env python3
"""Writes one ONNX file whose correction is the mean of several patch
networks' (the third look, vision/patchnet.go): networks trained alike but
from different seeds or seed sets err on different cells, and their mean
on fewer. The file takes the same inputs and gives the same output as one
network's, so the reader does not know the difference; it costs each
network's time.

Development step, run by scripts/train-patchnet.sh:

    patchnet_mean.py OUT.onnx NET.onnx.pt [NET.onnx.pt ...]

where each NET.onnx.pt is the state patchnet_train.py saves beside its
ONNX file.
"""
import sys
import torch
import patchnet_train as P


class Mean(torch.nn.Module):
    def __init__(self, nets):
        super().__init__()
        self.nets = torch.nn.ModuleList(nets)

    def forward(self, patch, extra):
        total = self.nets[0](patch, extra)
        for net in self.nets[1:]:
            total = total + net(patch, extra)
        return total / len(self.nets)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    nets = [P.load_net(path) for path in sys.argv[2:]]
    P.export_onnx(Mean(nets).eval(), sys.argv[1])
    print('wrote', sys.argv[1], 'the mean of', len(nets), 'networks')


if __name__ == '__main__':
    main()
