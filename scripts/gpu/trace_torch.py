"""The tracer's PyTorch program (scripts/gpu/trace_check.sh): an elementwise op and a transpose
made contiguous, on tensors whose addresses and strides it prints as one JSON line, so a test can
derive what each kernel must touch without the tracer."""
import json
import sys
import time

import torch

rows, cols = 64, 96
x = torch.arange(rows * cols, dtype=torch.float32, device="cuda").reshape(rows, cols)
torch.cuda.synchronize()
start = time.perf_counter()
y = x * 2.0
t = x.t().contiguous()
torch.cuda.synchronize()
elapsed = time.perf_counter() - start
assert torch.equal(t, x.cpu().t().contiguous().cuda())
print(json.dumps({
    "x": x.data_ptr(), "y": y.data_ptr(), "t": t.data_ptr(),
    "shape": [rows, cols], "x_stride": list(x.stride()), "t_stride": list(t.stride()),
    "ops_seconds": elapsed, "torch": torch.__version__,
}))
sys.stdout.flush()
