"""Models for the live-value tests (evaluator budgets), shared by the evaluator and server tests."""

# a Loop of a billion steps: only a budget or a cancel stops it
RUNAWAY_LOOP = (
    "g (float[1] x) => (float[1] y) {\n"
    " n = Constant <value_int = 1000000000> ()\n"
    " c = Constant <value = bool {1}> ()\n"
    " y = Loop (n, c, x) <body = body (int64 i, bool ci, float[1] v) => (bool co, float[1] w) {\n"
    "   co = Identity (ci)\n   w = Neg (v)\n }>\n"
    "}"
)
