"""The training loop the reader's PyTorch trainers share (development
steps; the reader needs only their ONNX files)."""
import time

import torch


def one_cycle(net, n, batch, epochs, batch_loss, max_lr=None):
    """Trains net for epochs over n samples in shuffled batches with AdamW
    and a one-cycle schedule. batch_loss(idx) gives the loss of the
    samples idx (a tensor of indices). Yields (epoch, mean loss, seconds)
    after each epoch, with net in training mode until the caller looks.
    max_lr is the schedule's peak rate (None: 3e-3, for a network started
    afresh)."""
    opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-4)
    per_epoch = n // batch
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=max_lr or 3e-3, total_steps=epochs * per_epoch)
    for ep in range(epochs):
        net.train()
        t0 = time.time()
        perm = torch.randperm(n)
        total = 0.0
        for i in range(per_epoch):
            loss = batch_loss(perm[i * batch:(i + 1) * batch])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item()
        yield ep + 1, total / per_epoch, time.time() - t0
