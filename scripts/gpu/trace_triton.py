"""The tracer's Triton program (scripts/gpu/trace_check.sh): a vector add and a row softmax, with
the tensors' addresses printed as one JSON line so a test can derive the addresses each kernel
must touch."""
import json

import torch
import triton
import triton.language as tl


@triton.jit
def vector_add(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(c_ptr + offsets, tl.load(a_ptr + offsets, mask=mask) + tl.load(b_ptr + offsets, mask=mask),
             mask=mask)


@triton.jit
def row_softmax(x_ptr, y_ptr, row_stride, cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offsets = tl.arange(0, BLOCK)
    mask = offsets < cols
    x = tl.load(x_ptr + row * row_stride + offsets, mask=mask, other=-float("inf"))
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(y_ptr + row * row_stride + offsets, e / tl.sum(e, axis=0), mask=mask)


n = 4096
a = torch.rand(n, device="cuda")
b = torch.rand(n, device="cuda")
c = torch.empty_like(a)
vector_add[(n // 1024,)](a, b, c, n, BLOCK=1024)
rows, cols = 16, 128
x = torch.randn(rows, cols, device="cuda")
y = torch.empty_like(x)
row_softmax[(rows,)](x, y, x.stride(0), cols, BLOCK=128)
torch.cuda.synchronize()
assert torch.allclose(c, a + b)
assert torch.allclose(y, torch.softmax(x, dim=1), atol=1e-6)
print(json.dumps({"a": a.data_ptr(), "b": b.data_ptr(), "c": c.data_ptr(), "n": n,
                  "x": x.data_ptr(), "y": y.data_ptr(), "rows": rows, "cols": cols,
                  "row_stride": x.stride(0), "triton": triton.__version__}))
