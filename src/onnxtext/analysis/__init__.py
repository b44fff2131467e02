"""What onnxtext knows about a model: the checker and type/shape inference."""
