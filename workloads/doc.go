// Package workloads holds the built-in benchmark replicas. Each is a trace
// generator: it emits the operations the real benchmark issues (a
// job.Run), package run replays them on a node, and the workload turns
// the event times it gets back (a job.Replay) into rows the way the real
// benchmark computes its numbers. It knows no engine, node or statistics.
package workloads
