"""Independent reference for planner-core's finance module (run by tests/reference_numpy.rs).

Reads cases as JSON (numbers as strings), computes each with numpy-financial (NPV, PMT) and plain
arithmetic for straight-line depreciation (numpy-financial has no SLN; it is LibreOffice's
SLN(cost; salvage; life)), and prints one JSON line per case with the reference value.
"""
import json
import sys

try:
    import numpy_financial as npf
except ImportError:
    sys.stderr.write("numpy_financial is missing: pip install numpy-financial\n")
    sys.exit(3)

cases = json.load(open(sys.argv[1]))
out = []
for c in cases:
    kind = c["kind"]
    if kind == "npv":
        annual = float(c["annual"])
        monthly = (1.0 + annual) ** (1.0 / 12.0) - 1.0
        v = npf.npv(monthly, [float(x) for x in c["flows"]])
    elif kind == "pmt":
        v = -npf.pmt(float(c["rate"]), int(c["periods"]), float(c["principal"]))
    elif kind == "sln":
        v = (float(c["cost"]) - float(c["salvage"])) / int(c["life"])
    else:
        raise SystemExit("unknown case kind " + kind)
    out.append({"id": c["id"], "value": repr(float(v))})
json.dump(out, sys.stdout)
