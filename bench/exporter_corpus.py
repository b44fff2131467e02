"""Real exporter models for the benches, generated once into ``$ONNXTEXT_CACHE/exporters``.

Architectures people export, written in plain torch (random init, no hub downloads, no
torchvision weights): decoder-only transformers (a GPT and a Qwen3-like one with RMSNorm,
rotary embeddings and grouped-query attention), a T5-like encoder-decoder with relative
position buckets, a Swin-like stage with shifted windows, a ResNet and a MobileNetV2-like
convnet, an LSTM and a GRU, and two models named as Hugging Face's are (``hf_bert``, a
BertForMaskedLM, and ``hf_gpt2``, a GPT2LMHeadModel: their modules' long dotted parameter names
such as ``bert.encoder.layer.1.attention.output.LayerNorm.bias``, weights initialised as
``transformers`` initialises them, zero biases and unit norms, and the output embedding tied to
the input one: the TorchScript exporter writes every parameter equal to an earlier one as an
``Identity`` of it, a statement the printer breaks over three lines); each through torch's
dynamo exporter (which writes node notes: name scopes, class hierarchies, FX nodes and stack
traces in ``metadata_props``) and its TorchScript exporter. Then the small skl2onnx and onnxscript models of
``tests/corpus/exporters.py``. The packages are the ``exporters`` extra of
``pyproject.toml``; a model whose exporter is missing is left out.

``python bench/exporter_corpus.py [NAME...]`` generates (or reuses) them and prints the paths.
"""

from __future__ import annotations

import importlib.util
import math
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from corpus.exporters import GENERATORS as TEST_GENERATORS  # noqa: E402
from corpus.exporters import Generator  # noqa: E402

OPSET = 18
Factory = Callable[[], "tuple[object, tuple[object, ...]]"]


def _modules() -> dict[str, Factory]:
    """name → factory of (module in eval mode, example inputs), all seeded."""
    import torch
    import torch.nn.functional as F
    from torch import nn

    class CausalAttention(nn.Module):
        def __init__(self, d: int, heads: int) -> None:
            super().__init__()
            self.heads = heads
            self.qkv = nn.Linear(d, 3 * d)
            self.proj = nn.Linear(d, d)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            b, t, c = x.shape
            q, k, v = (y.view(b, t, self.heads, c // self.heads).transpose(1, 2) for y in self.qkv(x).split(c, dim=-1))
            att = (q @ k.transpose(-2, -1)) / math.sqrt(c // self.heads)
            mask = torch.tril(torch.ones(t, t, dtype=torch.bool))
            att = att.masked_fill(~mask, float("-inf")).softmax(-1)
            return self.proj((att @ v).transpose(1, 2).reshape(b, t, c))

    class GPTBlock(nn.Module):
        def __init__(self, d: int, heads: int) -> None:
            super().__init__()
            self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
            self.attn = CausalAttention(d, heads)
            self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            x = x + self.attn(self.ln1(x))
            return x + self.mlp(self.ln2(x))

    class GPT(nn.Module):
        def __init__(self, layers: int = 6, d: int = 64, heads: int = 4, vocab: int = 512, ctx: int = 32) -> None:
            super().__init__()
            self.tok, self.pos = nn.Embedding(vocab, d), nn.Embedding(ctx, d)
            self.blocks = nn.ModuleList(GPTBlock(d, heads) for _ in range(layers))
            self.ln = nn.LayerNorm(d)
            self.head = nn.Linear(d, vocab, bias=False)

        def forward(self, ids: torch.Tensor) -> torch.Tensor:
            x = self.tok(ids) + self.pos(torch.arange(ids.shape[1]))
            for block in self.blocks:
                x = block(x)
            return self.head(self.ln(x))

    class RMSNorm(nn.Module):
        def __init__(self, d: int) -> None:
            super().__init__()
            self.weight = nn.Parameter(torch.ones(d))

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return self.weight * x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6)

    def rotate(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
        a, b = x.chunk(2, dim=-1)
        return x * cos + torch.cat((-b, a), dim=-1) * sin

    class QwenAttention(nn.Module):
        def __init__(self, d: int, heads: int, kv_heads: int) -> None:
            super().__init__()
            self.heads, self.kv_heads, self.dim = heads, kv_heads, d // heads
            self.q = nn.Linear(d, d)
            self.k = nn.Linear(d, kv_heads * self.dim)
            self.v = nn.Linear(d, kv_heads * self.dim)
            self.o = nn.Linear(d, d, bias=False)
            self.q_norm, self.k_norm = RMSNorm(self.dim), RMSNorm(self.dim)

        def forward(self, x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
            b, t, _ = x.shape
            q = self.q_norm(self.q(x).view(b, t, self.heads, self.dim)).transpose(1, 2)
            k = self.k_norm(self.k(x).view(b, t, self.kv_heads, self.dim)).transpose(1, 2)
            v = self.v(x).view(b, t, self.kv_heads, self.dim).transpose(1, 2)
            q, k = rotate(q, cos, sin), rotate(k, cos, sin)
            groups = self.heads // self.kv_heads
            k, v = k.repeat_interleave(groups, dim=1), v.repeat_interleave(groups, dim=1)
            y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
            return self.o(y.transpose(1, 2).reshape(b, t, -1))

    class QwenBlock(nn.Module):
        def __init__(self, d: int, heads: int, kv_heads: int) -> None:
            super().__init__()
            self.norm1, self.norm2 = RMSNorm(d), RMSNorm(d)
            self.attn = QwenAttention(d, heads, kv_heads)
            self.gate, self.up = nn.Linear(d, 3 * d, bias=False), nn.Linear(d, 3 * d, bias=False)
            self.down = nn.Linear(3 * d, d, bias=False)

        def forward(self, x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
            x = x + self.attn(self.norm1(x), cos, sin)
            h = self.norm2(x)
            return x + self.down(F.silu(self.gate(h)) * self.up(h))

    class Qwen(nn.Module):
        def __init__(self, layers: int = 6, d: int = 64, heads: int = 8, kv_heads: int = 2, vocab: int = 512) -> None:
            super().__init__()
            self.embed = nn.Embedding(vocab, d)
            self.blocks = nn.ModuleList(QwenBlock(d, heads, kv_heads) for _ in range(layers))
            self.norm = RMSNorm(d)
            self.dim = d // heads

        def forward(self, ids: torch.Tensor) -> torch.Tensor:
            t = ids.shape[1]
            inv = 1.0 / (10000 ** (torch.arange(0, self.dim, 2, dtype=torch.float32) / self.dim))
            freqs = torch.outer(torch.arange(t, dtype=torch.float32), inv)
            emb = torch.cat((freqs, freqs), dim=-1)
            cos, sin = emb.cos(), emb.sin()
            x = self.embed(ids)
            for block in self.blocks:
                x = block(x, cos, sin)
            return self.norm(x) @ self.embed.weight.T

    class T5Attention(nn.Module):
        def __init__(self, d: int, heads: int, relative: bool, causal: bool = False) -> None:
            super().__init__()
            self.heads, self.causal = heads, causal
            self.q, self.k = nn.Linear(d, d, bias=False), nn.Linear(d, d, bias=False)
            self.v, self.o = nn.Linear(d, d, bias=False), nn.Linear(d, d, bias=False)
            self.bias = nn.Embedding(32, heads) if relative else None

        def position_bias(self, tq: int, tk: int) -> torch.Tensor:
            rel = torch.arange(tk)[None, :] - torch.arange(tq)[:, None]
            buckets = (rel > 0).long() * 16 if not self.causal else torch.zeros_like(rel)
            n = rel.abs() if not self.causal else (-rel).clamp(min=0)
            large = 8 + (torch.log(n.float().clamp(min=1) / 8) / math.log(128 / 8) * 8).long()
            buckets = buckets + torch.where(n < 8, n, large.clamp(max=15))
            assert self.bias is not None
            return self.bias(buckets).permute(2, 0, 1)[None]

        def forward(self, x: torch.Tensor, kv: torch.Tensor) -> torch.Tensor:
            b, t, c = x.shape
            s = kv.shape[1]
            q = self.q(x).view(b, t, self.heads, -1).transpose(1, 2)
            k = self.k(kv).view(b, s, self.heads, -1).transpose(1, 2)
            v = self.v(kv).view(b, s, self.heads, -1).transpose(1, 2)
            scores = q @ k.transpose(-2, -1)
            if self.bias is not None:
                scores = scores + self.position_bias(t, s)
            if self.causal:
                scores = scores.masked_fill(~torch.tril(torch.ones(t, s, dtype=torch.bool)), -1e9)
            return self.o((scores.softmax(-1) @ v).transpose(1, 2).reshape(b, t, c))

    class T5Layer(nn.Module):
        def __init__(self, d: int, heads: int, decoder: bool) -> None:
            super().__init__()
            self.self_attn = T5Attention(d, heads, relative=True, causal=decoder)
            self.cross = T5Attention(d, heads, relative=False) if decoder else None
            self.norms = nn.ModuleList(RMSNorm(d) for _ in range(3 if decoder else 2))
            self.ff = nn.Sequential(nn.Linear(d, 2 * d, bias=False), nn.ReLU(), nn.Linear(2 * d, d, bias=False))

        def forward(self, x: torch.Tensor, memory: torch.Tensor | None = None) -> torch.Tensor:
            h = self.norms[0](x)
            x = x + self.self_attn(h, h)
            if self.cross is not None and memory is not None:
                x = x + self.cross(self.norms[1](x), memory)
            return x + self.ff(self.norms[-1](x))

    class T5(nn.Module):
        def __init__(self, layers: int = 3, d: int = 64, heads: int = 4, vocab: int = 512) -> None:
            super().__init__()
            self.embed = nn.Embedding(vocab, d)
            self.encoder = nn.ModuleList(T5Layer(d, heads, decoder=False) for _ in range(layers))
            self.decoder = nn.ModuleList(T5Layer(d, heads, decoder=True) for _ in range(layers))
            self.norm = RMSNorm(d)

        def forward(self, src: torch.Tensor, tgt: torch.Tensor) -> torch.Tensor:
            memory = self.embed(src)
            for layer in self.encoder:
                memory = layer(memory)
            x = self.embed(tgt)
            for layer in self.decoder:
                x = layer(x, memory)
            return self.norm(x) @ self.embed.weight.T

    class WindowAttention(nn.Module):
        def __init__(self, d: int, heads: int, window: int) -> None:
            super().__init__()
            self.heads, self.window = heads, window
            self.qkv, self.proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
            self.table = nn.Parameter(torch.randn((2 * window - 1) ** 2, heads) * 0.02)
            coords = torch.stack(torch.meshgrid(torch.arange(window), torch.arange(window), indexing="ij")).flatten(1)
            rel = (coords[:, :, None] - coords[:, None, :]).permute(1, 2, 0) + (window - 1)
            self.register_buffer("index", rel[..., 0] * (2 * window - 1) + rel[..., 1], persistent=False)

        def forward(self, x: torch.Tensor, mask: torch.Tensor | None) -> torch.Tensor:
            b, n, c = x.shape
            q, k, v = self.qkv(x).reshape(b, n, 3, self.heads, c // self.heads).permute(2, 0, 3, 1, 4)
            att = (q * (c // self.heads) ** -0.5) @ k.transpose(-2, -1)
            att = att + self.table[self.index.reshape(-1)].reshape(n, n, -1).permute(2, 0, 1)[None]
            if mask is not None:
                att = att.view(-1, mask.shape[0], self.heads, n, n) + mask[None, :, None]
                att = att.view(-1, self.heads, n, n)
            return self.proj((att.softmax(-1) @ v).transpose(1, 2).reshape(b, n, c))

    class SwinBlock(nn.Module):
        def __init__(self, d: int, heads: int, size: int, window: int, shift: int) -> None:
            super().__init__()
            self.size, self.window, self.shift = size, window, shift
            self.norm1, self.norm2 = nn.LayerNorm(d), nn.LayerNorm(d)
            self.attn = WindowAttention(d, heads, window)
            self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
            if shift:
                img = torch.zeros(size, size)
                cuts = (slice(0, -window), slice(-window, -shift), slice(-shift, None))
                for i, (h, w) in enumerate((h, w) for h in cuts for w in cuts):
                    img[h, w] = i
                win = self.partition(img[None, :, :, None]).squeeze(-1)
                mask = win[:, None, :] - win[:, :, None]
                self.register_buffer("mask", mask.masked_fill(mask != 0, -100.0), persistent=False)
            else:
                self.mask = None

        def partition(self, x: torch.Tensor) -> torch.Tensor:
            b, h, w, c = x.shape
            s = self.window
            x = x.view(b, h // s, s, w // s, s, c).permute(0, 1, 3, 2, 4, 5)
            return x.reshape(-1, s * s, c)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            b, n, c = x.shape
            h = self.norm1(x).view(b, self.size, self.size, c)
            if self.shift:
                h = torch.roll(h, shifts=(-self.shift, -self.shift), dims=(1, 2))
            win = self.attn(self.partition(h), self.mask)
            s, g = self.window, self.size // self.window
            h = win.view(b, g, g, s, s, c).permute(0, 1, 3, 2, 4, 5).reshape(b, self.size, self.size, c)
            if self.shift:
                h = torch.roll(h, shifts=(self.shift, self.shift), dims=(1, 2))
            x = x + h.reshape(b, n, c)
            return x + self.mlp(self.norm2(x))

    class Swin(nn.Module):
        def __init__(self, d: int = 48, heads: int = 3, size: int = 8, window: int = 4, depth: int = 6) -> None:
            super().__init__()
            self.embed = nn.Conv2d(3, d, 4, stride=4)
            self.blocks = nn.ModuleList(SwinBlock(d, heads, size, window, window // 2 * (i % 2)) for i in range(depth))
            self.norm, self.head = nn.LayerNorm(d), nn.Linear(d, 10)

        def forward(self, img: torch.Tensor) -> torch.Tensor:
            x = self.embed(img).flatten(2).transpose(1, 2)
            for block in self.blocks:
                x = block(x)
            return self.head(self.norm(x).mean(1))

    class Bottleneck(nn.Module):
        def __init__(self, cin: int, mid: int, stride: int) -> None:
            super().__init__()
            cout = mid * 4
            self.body = nn.Sequential(
                nn.Conv2d(cin, mid, 1, bias=False), nn.BatchNorm2d(mid), nn.ReLU(),
                nn.Conv2d(mid, mid, 3, stride, 1, bias=False), nn.BatchNorm2d(mid), nn.ReLU(),
                nn.Conv2d(mid, cout, 1, bias=False), nn.BatchNorm2d(cout),
            )  # fmt: skip
            self.skip = (
                nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))
                if stride != 1 or cin != cout
                else nn.Identity()
            )

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return torch.relu(self.body(x) + self.skip(x))

    def resnet() -> nn.Module:
        layers: list[nn.Module] = [
            nn.Conv2d(3, 16, 7, 2, 3, bias=False),
            nn.BatchNorm2d(16),
            nn.ReLU(),
            nn.MaxPool2d(3, 2, 1),
        ]
        cin = 16
        for mid, blocks, stride in ((8, 3, 1), (16, 4, 2), (32, 6, 2), (64, 3, 2)):
            for i in range(blocks):
                layers.append(Bottleneck(cin, mid, stride if i == 0 else 1))
                cin = mid * 4
        return nn.Sequential(*layers, nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(cin, 10))

    class InvertedResidual(nn.Module):
        def __init__(self, cin: int, cout: int, stride: int, expand: int) -> None:
            super().__init__()
            mid = cin * expand
            self.use_skip = stride == 1 and cin == cout
            self.body = nn.Sequential(
                nn.Conv2d(cin, mid, 1, bias=False), nn.BatchNorm2d(mid), nn.ReLU6(),
                nn.Conv2d(mid, mid, 3, stride, 1, groups=mid, bias=False), nn.BatchNorm2d(mid), nn.ReLU6(),
                nn.Conv2d(mid, cout, 1, bias=False), nn.BatchNorm2d(cout),
            )  # fmt: skip

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return x + self.body(x) if self.use_skip else self.body(x)

    def mobilenet() -> nn.Module:
        layers: list[nn.Module] = [nn.Conv2d(3, 16, 3, 2, 1, bias=False), nn.BatchNorm2d(16), nn.ReLU6()]
        cin = 16
        for expand, cout, n, stride in (
            (1, 8, 1, 1),
            (6, 12, 2, 2),
            (6, 16, 3, 2),
            (6, 32, 4, 2),
            (6, 48, 3, 1),
            (6, 80, 3, 2),
        ):
            for i in range(n):
                layers.append(InvertedResidual(cin, cout, stride if i == 0 else 1, expand))
                cin = cout
        return nn.Sequential(*layers, nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2), nn.Linear(cin, 10))

    class Recurrent(nn.Module):
        def __init__(self, cell: type[nn.Module]) -> None:
            super().__init__()
            self.rnn = cell(input_size=32, hidden_size=64, num_layers=2, batch_first=True)
            self.head = nn.Linear(64, 5)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            out, _ = self.rnn(x)
            return self.head(out[:, -1])

    class HFSelfAttention(nn.Module):
        def __init__(self, d: int, heads: int) -> None:
            super().__init__()
            self.heads = heads
            self.query, self.key, self.value = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)

        def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
            b, t, c = x.shape
            q, k, v = (p(x).view(b, t, self.heads, -1).transpose(1, 2) for p in (self.query, self.key, self.value))
            scores = q @ k.transpose(-1, -2) / math.sqrt(c // self.heads) + mask
            return (scores.softmax(-1) @ v).transpose(1, 2).reshape(b, t, c)

    class HFDenseNorm(nn.Module):
        """``BertSelfOutput`` and ``BertOutput``: a projection, the residual, a LayerNorm."""

        def __init__(self, d_in: int, d: int) -> None:
            super().__init__()
            self.dense = nn.Linear(d_in, d)
            self.LayerNorm = nn.LayerNorm(d, eps=1e-12)

        def forward(self, h: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
            return self.LayerNorm(self.dense(h) + x)

    class HFBertAttention(nn.Module):
        def __init__(self, d: int, heads: int) -> None:
            super().__init__()
            self.self = HFSelfAttention(d, heads)
            self.output = HFDenseNorm(d, d)

        def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
            return self.output(self.self(x, mask), x)

    class HFBertLayer(nn.Module):
        def __init__(self, d: int, heads: int) -> None:
            super().__init__()
            self.attention = HFBertAttention(d, heads)
            self.intermediate = nn.Module()
            self.intermediate.dense = nn.Linear(d, 4 * d)
            self.output = HFDenseNorm(4 * d, d)

        def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
            a = self.attention(x, mask)
            return self.output(F.gelu(self.intermediate.dense(a)), a)

    class HFBert(nn.Module):
        """``BertForMaskedLM``'s modules under its names; the decoder is the word embeddings."""

        def __init__(self, layers: int = 4, d: int = 64, heads: int = 4, vocab: int = 512, ctx: int = 64) -> None:
            super().__init__()
            self.bert = nn.Module()
            emb = self.bert.embeddings = nn.Module()
            emb.word_embeddings, emb.position_embeddings = nn.Embedding(vocab, d), nn.Embedding(ctx, d)
            emb.token_type_embeddings, emb.LayerNorm = nn.Embedding(2, d), nn.LayerNorm(d, eps=1e-12)
            emb.register_buffer("position_ids", torch.arange(ctx).unsqueeze(0))
            self.bert.encoder = nn.Module()
            self.bert.encoder.layer = nn.ModuleList(HFBertLayer(d, heads) for _ in range(layers))
            self.cls = nn.Module()
            self.cls.predictions = nn.Module()
            self.cls.predictions.transform = nn.Module()
            self.cls.predictions.transform.dense = nn.Linear(d, d)
            self.cls.predictions.transform.LayerNorm = nn.LayerNorm(d, eps=1e-12)
            self.cls.predictions.decoder = nn.Linear(d, vocab)
            self.cls.predictions.decoder.weight = emb.word_embeddings.weight

        def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
            emb = self.bert.embeddings
            t = input_ids.shape[1]
            x = emb.word_embeddings(input_ids) + emb.position_embeddings(emb.position_ids[:, :t])
            x = emb.LayerNorm(x + emb.token_type_embeddings(torch.zeros_like(input_ids)))
            mask = (1.0 - attention_mask[:, None, None, :].float()) * torch.finfo(torch.float32).min
            for layer in self.bert.encoder.layer:
                x = layer(x, mask)
            p = self.cls.predictions
            return p.decoder(p.transform.LayerNorm(F.gelu(p.transform.dense(x))))

    class HFConv1D(nn.Module):
        """GPT-2's ``Conv1D``: a linear layer with its weight transposed."""

        def __init__(self, nf: int, nx: int) -> None:
            super().__init__()
            self.weight = nn.Parameter(torch.randn(nx, nf) * 0.02)
            self.bias = nn.Parameter(torch.zeros(nf))

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return torch.addmm(self.bias, x.reshape(-1, x.shape[-1]), self.weight).view(*x.shape[:-1], -1)

    class HFGPT2Attention(nn.Module):
        def __init__(self, d: int, heads: int) -> None:
            super().__init__()
            self.heads = heads
            self.c_attn, self.c_proj = HFConv1D(3 * d, d), HFConv1D(d, d)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            b, t, c = x.shape
            q, k, v = (y.view(b, t, self.heads, -1).transpose(1, 2) for y in self.c_attn(x).split(c, dim=2))
            w = q @ k.transpose(-1, -2) / math.sqrt(c // self.heads)
            causal = torch.tril(torch.ones(t, t, dtype=torch.bool))
            w = torch.where(causal, w, torch.tensor(torch.finfo(torch.float32).min))
            return self.c_proj((w.softmax(-1) @ v).transpose(1, 2).reshape(b, t, c))

    class HFGPT2Block(nn.Module):
        def __init__(self, d: int, heads: int) -> None:
            super().__init__()
            self.ln_1, self.ln_2 = nn.LayerNorm(d), nn.LayerNorm(d)
            self.attn = HFGPT2Attention(d, heads)
            self.mlp = nn.Module()
            self.mlp.c_fc, self.mlp.c_proj = HFConv1D(4 * d, d), HFConv1D(d, 4 * d)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            x = x + self.attn(self.ln_1(x))
            return x + self.mlp.c_proj(F.gelu(self.mlp.c_fc(self.ln_2(x)), approximate="tanh"))

    class HFGPT2(nn.Module):
        """``GPT2LMHeadModel``'s modules under its names; the head is the token embeddings."""

        def __init__(self, layers: int = 4, d: int = 64, heads: int = 4, vocab: int = 512, ctx: int = 64) -> None:
            super().__init__()
            self.transformer = nn.Module()
            self.transformer.wte, self.transformer.wpe = nn.Embedding(vocab, d), nn.Embedding(ctx, d)
            self.transformer.h = nn.ModuleList(HFGPT2Block(d, heads) for _ in range(layers))
            self.transformer.ln_f = nn.LayerNorm(d)
            self.lm_head = nn.Linear(d, vocab, bias=False)
            self.lm_head.weight = self.transformer.wte.weight

        def forward(self, input_ids: torch.Tensor) -> torch.Tensor:
            tr = self.transformer
            x = tr.wte(input_ids) + tr.wpe(torch.arange(input_ids.shape[1]))
            for block in tr.h:
                x = block(x)
            return self.lm_head(tr.ln_f(x))

    def seeded(make: Callable[[], nn.Module], *inputs: Callable[[], torch.Tensor]) -> Factory:
        def factory() -> tuple[object, tuple[object, ...]]:
            torch.manual_seed(0)
            module = make().eval()
            for m in module.modules():  # non-trivial statistics, so BatchNorm is no identity
                if isinstance(m, nn.BatchNorm2d):
                    m.running_mean.uniform_(-0.5, 0.5)
                    m.running_var.uniform_(0.5, 1.5)
                elif isinstance(m, nn.Linear) and isinstance(module, (HFBert, HFGPT2)) and m.bias is not None:
                    nn.init.zeros_(m.bias)  # as transformers initialises them
            return module, tuple(make_input() for make_input in inputs)

        return factory

    ids = lambda: torch.randint(0, 512, (1, 32))  # noqa: E731
    return {
        "gpt": seeded(GPT, ids),
        "qwen3": seeded(Qwen, ids),
        "t5": seeded(T5, ids, lambda: torch.randint(0, 512, (1, 16))),
        "swin": seeded(Swin, lambda: torch.randn(1, 3, 32, 32)),
        "resnet": seeded(resnet, lambda: torch.randn(1, 3, 64, 64)),
        "mobilenet": seeded(mobilenet, lambda: torch.randn(1, 3, 64, 64)),
        "lstm": seeded(lambda: Recurrent(nn.LSTM), lambda: torch.randn(1, 12, 32)),
        "gru": seeded(lambda: Recurrent(nn.GRU), lambda: torch.randn(1, 12, 32)),
        "hf_bert": seeded(HFBert, ids, lambda: torch.ones(1, 32, dtype=torch.int64)),
        "hf_gpt2": seeded(HFGPT2, ids),
    }


MODELS = ("gpt", "qwen3", "t5", "swin", "resnet", "mobilenet", "lstm", "gru", "hf_bert", "hf_gpt2")


def _export(model: str, dynamo: bool) -> Callable[[Path], None]:
    def make(path: Path) -> None:
        import torch

        module, args = _modules()[model]()
        with torch.no_grad():
            if dynamo:
                program = torch.onnx.export(module, args, dynamo=True, opset_version=OPSET, verbose=False)
                assert program is not None
                program.save(str(path), external_data=False)
            else:
                torch.onnx.export(module, args, str(path), dynamo=False, opset_version=OPSET)

    return make


def _all() -> list[Generator]:
    gens = []
    for model in MODELS:
        gens.append(Generator(f"bench_dynamo_{model}", ("torch", "onnxscript"), _export(model, dynamo=True)))
        gens.append(Generator(f"bench_script_{model}", ("torch",), _export(model, dynamo=False)))
    gens += [g for name, g in TEST_GENERATORS.items() if name.startswith(("skl_", "onnxscript_"))]
    return gens


GENERATORS: dict[str, Generator] = {g.name: g for g in _all()}


def available() -> list[Generator]:
    """The generators whose exporters are installed."""
    return [g for g in GENERATORS.values() if all(importlib.util.find_spec(m) for m in g.requires)]


if __name__ == "__main__":
    for gen in available() if len(sys.argv) < 2 else [GENERATORS[n] for n in sys.argv[1:]]:
        print(f"{gen.name}: {gen.ensure()}")
