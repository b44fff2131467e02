"""The ONNX IR as onnxtext sees it: dtypes, tensor literals, operator schemas, and the one of each
every stage shares: proto paths (:mod:`.paths`), the model walk (:mod:`.walk`), node resolution (:mod:`.resolve`)."""
