"""The ONNX IR as onnxtext sees it: dtypes, tensor literals, operator schemas."""
