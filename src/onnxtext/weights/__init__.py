"""Large tensors: external data, sidecar files, wire-level scanning, digests."""
