#!/usr/bin/env bash
# A lightning-thunder 0.2.6 environment on top of a Python that already has torch 2.13.0:
# thunder and its pure dependencies go into DIR/site (pip --target, no second torch), and
# DIR/python runs that Python with them on the path.
#   bash benchmarks/corpora/repros/thunder_env.sh .venv/bin/python .thunder
#   THUNDER_PYTHON=$PWD/.thunder/python python benchmarks/corpora/repros/run_all.py
set -euo pipefail
if [ $# -ne 2 ]; then
    echo "usage: thunder_env.sh PYTHON DIR" >&2
    exit 2
fi
python=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
mkdir -p "$2"
dir=$(cd "$2" && pwd)
"$python" -c "import torch; assert torch.__version__.startswith('2.13.0'), torch.__version__" \
    || { echo "thunder_env.sh: $python needs torch 2.13.0" >&2; exit 2; }
"$python" -m pip install --quiet --no-deps --target "$dir/site" lightning-thunder==0.2.6 \
    lightning-utilities==0.15.3 looseversion==1.3.0 opt_einsum==3.4.0 optree==0.20.0 \
    dill==0.4.1 numpy==2.4.6
cat > "$dir/python" <<EOF
#!/usr/bin/env bash
PYTHONPATH="$dir/site\${PYTHONPATH:+:\$PYTHONPATH}" exec "$python" "\$@"
EOF
chmod +x "$dir/python"
