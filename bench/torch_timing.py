"""Timing and output shared by our PyTorch peers (bench/torch_reductions.py,
bench/torch_narrow.py), as shared/bench/torch_peer.py does them: GPU time by CUDA events
around each run, one run at a time (synchronised after each), median of `reps` runs after
5 warm-up runs; one JSON object a line with `workload`, `ms`, `bytes`, `GBps`, `impl`."""
import json

import torch


def gpu_median_ms(run, reps, warm_up=5):
    """Median milliseconds of `run` between two CUDA events, one run at a time."""
    for _ in range(warm_up):
        run()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        run()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    times.sort()
    return times[len(times) // 2]


class Results:
    """The rows of one peer: printed as they come, written as JSON lines at the end."""

    def __init__(self):
        self.rows = []

    def record(self, workload, ms, nbytes):
        gbps = nbytes / (ms * 1e-3) / 1e9
        self.rows.append({"workload": workload, "ms": ms, "bytes": nbytes, "GBps": gbps,
                          "impl": "torch-cuda"})
        print(f"{workload:32s} {ms:10.4f} ms {gbps:10.1f} GB/s", flush=True)

    def write(self, path):
        if path:
            with open(path, "w") as out:
                out.writelines(json.dumps(r) + "\n" for r in self.rows)
        print(f"device: {torch.cuda.get_device_name(0)} torch {torch.__version__}")
