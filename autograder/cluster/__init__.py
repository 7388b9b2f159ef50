"""Grading past one machine: a class graded on a Dask cluster (docs/cluster.md).

dask_hosts.py is the instructor's side (admit hosts, send submissions, record results);
server.py is what each worker host runs to grade, the local batch behind a pipe."""


class ClusterError(RuntimeError):
    """The cluster cannot grade (no scheduler, no admitted worker) or went away mid-batch."""
