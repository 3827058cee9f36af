// Package sweep is akisim sweep: one workload or trace run at every point
// of the cartesian product of -set, -env and -config lists, each point an
// akisim run with its own outdir, locally or as a Slurm job array. The
// points' rows are merged into one results.csv whose first columns are
// the swept keys. Points already finished are skipped; a failed point is
// reported and the others go on. The command checks each point's command
// line as it checks a run (Sweep.CheckPoint) before any point runs.
package sweep
