# check --slurm (docs/scale.md) on a real one-node Slurm cluster started for the test
# (slurm/cluster.sh: munged, slurmctld and slurmd on this machine): the example suite as a
# 4-task array and a dependent merge, whose results equal an unsharded run case by case,
# timings aside; a partial array (a shard cut short, one lost) resumed by submit.sh again;
# an array task found from the environment; the refusals. No daemon is left running.
source slurm/cluster.sh
daemons() { local n=0 d; for d in slurmctld slurmd slurmstepd munged; do n=$((n + $(pgrep -c -x "$d"))); done; echo $n; }
before=$(daemons)  # a machine's own Slurm or munge service is not the test's
trap 'cluster_stop > /dev/null' EXIT
E="$(cd ../../examples && pwd)"
cd "$WORK"
cat > suite.yaml <<YAML
kcontract-suite: 1
kernels:
  - {name: softmax, impl: $E/softmax/softmax.c, contract: $E/softmax/softmax.kcontract, supports: {dtypes: [f32], dims: {R: 1..3, H: 1..65}}}
  - {name: no max, impl: $E/softmax/softmax_no_max.c, contract: $E/softmax/softmax.kcontract, supports: {dtypes: [f32], dims: {R: 1..3, H: 1..65}}}
  - {name: relu, impl: $E/relu/relu.c, contract: $E/relu/relu.kcontract, supports: {dtypes: [f32], dims: {N: 1..4096}}}
YAML
"$KC" check suite.yaml --format jsonl --out all.jsonl > /dev/null; echo "unsharded: exit $?"
same() {  # same FILE: the results of FILE against the unsharded run's
  python3 - "$1" <<'PY'
import json, sys
def load(path):
    out = {}
    for line in open(path):
        r = json.loads(line)
        for k in ("seconds", "chain", "run"):
            r.pop(k, None)
        out[(r["case"], r["kernel"], r["backend"])] = r
    return out
a, m = load("all.jsonl"), load(sys.argv[1])
print(f"unsharded {len(a)} results, merged {len(m)}; the same cases: {a.keys() == m.keys()}; "
      f"differences: {sum(a[k] != m[k] for k in a if k in m)}")
PY
}
ids() { sed -E 's/job [0-9]+/job N/'; }

echo "== refusals"
kc check suite.yaml --slurm --shard 0/2
kc check suite.yaml --slurm-tasks 2
echo "== an array task without --shard: its shard from the environment"
SLURM_ARRAY_TASK_ID=5 SLURM_ARRAY_TASK_MIN=4 SLURM_ARRAY_TASK_MAX=6 SLURM_ARRAY_TASK_COUNT=3 \
  "$KC" check suite.yaml --format jsonl --out task.jsonl 2>&1 > /dev/null | grep '^note: a Slurm'
"$KC" check suite.yaml --shard 1/3 --format jsonl --out shard1.jsonl > /dev/null
python3 -c 'import json,sys; k=lambda p: [json.loads(l)["case"] for l in open(p)]; print("the cases of --shard 1/3:", k("task.jsonl") == k("shard1.jsonl"))'
SLURM_ARRAY_TASK_ID=2 SLURM_ARRAY_TASK_MIN=0 SLURM_ARRAY_TASK_MAX=6 SLURM_ARRAY_TASK_COUNT=4 kc check suite.yaml

echo "== the cluster"
cluster_start "$WORK/cluster" || exit 1
sinfo -h -o '%P %a %D %t'
echo "== check --slurm: 4 tasks and a merge that writes the HTML report"
kc check suite.yaml --slurm --slurm-tasks 4 --slurm-dir out --format html --out report.html | ids
cluster_wait 900 || exit 1
ls out out/logs | tr '\n' ' '; echo
sed -n '/^kernel /,$p' out/logs/merge.out
same out/merged.jsonl
echo "report.html (written by the merge job): $(grep -o '<tr data-verdict=' report.html | wc -l) case rows"
kc check suite.yaml --slurm --slurm-dir out
echo "== a partial array: shard 1 cut to its first result, shard 3 lost; submit.sh again"
head -1 out/shard-1.jsonl > cut && mv cut out/shard-1.jsonl
rm out/shard-3.jsonl
bash out/submit.sh | ids
cluster_wait 900 || exit 1
wc -l < out/shard-1.jsonl | sed 's/^/shard 1 records after resuming: /'
same out/merged.jsonl
echo "== stopped"
cluster_stop
echo "daemons left: $(($(daemons) - before))"
