#!/usr/bin/env python3
"""Writes one ONNX file whose correction is the mean of several patch
networks' (the third look, vision/patchnet.go): networks trained alike but
from different seeds or seed sets err on different cells, and their mean
on fewer. The file takes the same inputs and gives the same output as one
network's, so the reader does not know the difference; it costs each
network's time.

Development step, run by scripts/train-patchnet.sh:

    patchnet_mean.py OUT.onnx NET [NET ...]

where each NET is the state patchnet_train.py saves beside its ONNX file
(NET.onnx.pt), or an ONNX file itself (patchnet.onnx as the reader embeds
it): each network in it joins the mean (patchnet_onnx.py reads them back),
so a network trained later can join the kept ones without their states.
"""
import sys
import torch
import patchnet_onnx
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
    nets = []
    for path in sys.argv[2:]:
        nets += patchnet_onnx.networks(path) if path.endswith('.onnx') else [P.load_net(path)]
    P.export_onnx(Mean(nets).eval(), sys.argv[1])
    print('wrote', sys.argv[1], 'the mean of', len(nets), 'networks')


if __name__ == '__main__':
    main()
