# A one-node Slurm cluster for a test, all on this machine and all under one folder: munged
# with a key of its own, slurmctld and slurmd with a generated slurm.conf on free ports.
# Source it, then:
#   cluster_start DIR   starts the daemons (SLURM_CONF is exported for sbatch, squeue, ...)
#                       and waits for the node; returns 1, with the daemons' logs, if not
#   cluster_wait S      waits until no job is queued or running, at most S seconds
#   cluster_stop        stops every daemon it started and checks that none is left
# Needs Debian's slurm-wlm (slurmctld, slurmd, the client) and munge: scripts/setup.sh.

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

cluster_start() {
  CLUSTER_DIR="$1"
  local d="$CLUSTER_DIR" host
  host="$(hostname -s)"
  mkdir -p "$d/state" "$d/spool" "$d/log" "$d/munge"
  chmod 700 "$d/munge"
  head -c 1024 /dev/urandom > "$d/munge/munge.key"
  chmod 600 "$d/munge/munge.key"
  # --force: the folders are under /tmp, whose sticky, world-writable parent munged distrusts.
  munged --force --key-file="$d/munge/munge.key" --socket="$d/munge/munge.sock" --pid-file="$d/munge/munged.pid" \
    --log-file="$d/munge/munged.log" --seed-file="$d/munge/munged.seed" || { echo "cluster: munged did not start"; return 1; }
  cat > "$d/slurm.conf" <<CONF
ClusterName=kctest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$d/munge/munge.sock
CredType=cred/munge
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool/%n
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd.pid
SlurmctldLogFile=$d/log/slurmctld.log
SlurmdLogFile=$d/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
SlurmdParameters=config_overrides
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF="$d/slurm.conf"
  slurmctld -i || { echo "cluster: slurmctld did not start"; cat "$d/log/slurmctld.log"; return 1; }
  slurmd -N "$host" || { echo "cluster: slurmd did not start"; cat "$d/log/slurmd.log"; return 1; }
  local i
  for ((i = 0; i < 60; i++)); do
    if sinfo -h -N -o '%t' 2>/dev/null | grep -qx 'idle'; then return 0; fi
    sleep 1
  done
  echo "cluster: the node did not come up:"; sinfo -N 2>&1; tail -20 "$d/log/slurmctld.log" "$d/log/slurmd.log"
  return 1
}

cluster_wait() {
  local i
  for ((i = 0; i < $1; i++)); do
    [[ -z "$(squeue -h 2>/dev/null)" ]] && return 0
    sleep 1
  done
  echo "cluster: jobs still queued after $1 s:"; squeue
  return 1
}

# Each daemon by its pid file: asked to stop, then killed after 10 s; none may be left.
cluster_stop() {
  [[ -n "${CLUSTER_DIR:-}" ]] || return 0
  local d="$CLUSTER_DIR" f pid i left=""
  for f in slurmd.pid slurmctld.pid munge/munged.pid; do
    [[ -s "$d/$f" ]] || continue
    pid="$(cat "$d/$f")"
    kill "$pid" 2>/dev/null
    for ((i = 0; i < 100; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null && sleep 0.2
    kill -0 "$pid" 2>/dev/null && left="$left $f"
  done
  CLUSTER_DIR=""
  [[ -z "$left" ]] || { echo "cluster: still running:$left"; return 1; }
}
