package main

import (
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sarchlab/akita/v3/tracing"
)

// akisim -daisen FILE writes the run's copies as Daisen reads a trace
// (daisen -csv FILE, through Akita's CSV trace reader), beside the outdir
// or as one of its files: the five peer copies of the trace, each a task
// on the SDMA engine that ran it.
func TestDaisenTrace(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	for _, file := range []string{filepath.Join(dir, "run.csv"), filepath.Join(out, "run.csv")} {
		code, _, errs := akisim(t, "-trace", "traces/peer-0-to-1.jsonl", "-daisen", file, "-outdir", out, "-force", "-quiet")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", file, code, errs)
		}
		r := tracing.NewCSVTraceReader(file)
		tasks := r.ListTasks(tracing.TaskQuery{Kind: "copy"})
		if len(tasks) != 5 {
			t.Errorf("%s: %d copy tasks, want the trace's 5 peer copies", file, len(tasks))
		}
		for _, tk := range tasks {
			if !strings.Contains(tk.Where, "GCD[0].SDMAXGMI") || tk.EndTime <= tk.StartTime {
				t.Errorf("%s: task %+v: want a copy on one of GCD 0's xGMI SDMA engines that takes time", file, tk)
			}
		}
		if cs := r.ListComponents(); len(cs) == 0 || !slices.ContainsFunc(cs, func(c string) bool { return strings.Contains(c, "SDMAXGMI") }) {
			t.Errorf("%s: components %v, want the SDMA engines", file, cs)
		}
	}
}

// An 8-GCD all_reduce traced for Daisen and for Perfetto, each file read
// back as its tool reads it. Daisen's trace holds each GCD's RCCL kernel by
// name, its channels (workgroups) on their CUs, their phases and steps,
// and the steps' transfers on the xGMI bundles' directions. The Perfetto
// timeline has a counter track per link direction and memory that moved
// data, and each track's integral is the bytes stats.txt gives the part.
// Both files are the same, byte for byte, when the run is made again.
func TestDaisenAndPerfettoOfAllReduce(t *testing.T) {
	dir := t.TempDir()
	csv, timeline, out := filepath.Join(dir, "ar.csv"), filepath.Join(dir, "ar.json"), filepath.Join(dir, "out")
	code, _, errs := akisim(t, "-workload", "rccl", "-sizes", "1048576", "-iters", "1", "-warmup", "0",
		"-daisen", csv, "-timeline", timeline, "-outdir", out, "-quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	// the same run again writes the same bytes
	csv2, timeline2 := filepath.Join(dir, "ar2.csv"), filepath.Join(dir, "ar2.json")
	if code, _, errs := akisim(t, "-workload", "rccl", "-sizes", "1048576", "-iters", "1", "-warmup", "0",
		"-daisen", csv2, "-timeline", timeline2, "-quiet"); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if readFile(t, csv) != readFile(t, csv2) || readFile(t, timeline) != readFile(t, timeline2) {
		t.Error("a second run wrote another trace or timeline")
	}

	r := tracing.NewCSVTraceReader(csv)
	byID := map[string]tracing.Task{}
	for _, tk := range r.ListTasks(tracing.TaskQuery{}) {
		byID[tk.ID] = tk
	}
	kernels := r.ListTasks(tracing.TaskQuery{Kind: "kernel"})
	gcds := map[string]bool{}
	for _, k := range kernels {
		gcds[k.Where] = true
		if !strings.HasPrefix(k.What, "ncclDevKernel_AllReduce_") {
			t.Errorf("kernel %s is called %q, want RCCL's all_reduce kernel", k.ID, k.What)
		}
	}
	if len(gcds) != 8 {
		t.Errorf("kernels on %d GCDs' CUs, want 8: %v", len(gcds), gcds)
	}
	// a channel, one of its phases and one of its steps, by Daisen's query by parent
	channels := r.ListTasks(tracing.TaskQuery{ParentID: kernels[0].ID})
	if len(channels) == 0 || channels[0].Kind != "workgroup" || !strings.HasPrefix(channels[0].Where, kernels[0].Where+"[") {
		t.Fatalf("kernel %s: children %v, want its channels on its CUs", kernels[0].ID, channels)
	}
	phases := r.ListTasks(tracing.TaskQuery{ParentID: channels[0].ID})
	if len(phases) < 2 || phases[0].Kind != "phase" {
		t.Fatalf("channel %s: children %v, want its phases", channels[0].ID, phases)
	}
	// every transfer on an xGMI bundle comes from a kernel: its step, phase,
	// channel, kernel
	chains := map[string]int{}
	for _, tk := range byID {
		if tk.Kind != "transfer" || !strings.Contains(tk.Where, ".XGMI[") {
			continue
		}
		chain := tk.Kind
		for p, ok := byID[tk.ParentID]; ok; p, ok = byID[p.ParentID] {
			chain += " < " + p.Kind
		}
		chains[chain]++
	}
	if chains["transfer < step < phase < workgroup < kernel"] == 0 {
		t.Errorf("xGMI transfers by their ancestry %v, want transfers of kernels' steps", chains)
	}
	for chain := range chains {
		if !strings.HasSuffix(chain, "< workgroup < kernel") {
			t.Errorf("xGMI transfers %q: want each under a kernel", chain)
		}
	}

	var doc struct {
		TraceEvents []struct {
			Name, Ph string
			Ts       float64
			Pid      int
			Args     map[string]any
		}
	}
	if err := json.Unmarshal([]byte(readFile(t, timeline)), &doc); err != nil {
		t.Fatal(err)
	}
	type value struct {
		ts   float64
		args map[string]any
	}
	tracks := map[string][]value{}
	for _, e := range doc.TraceEvents {
		if e.Ph == "C" {
			tracks[e.Name] = append(tracks[e.Name], value{e.Ts, e.Args})
		}
	}
	stats := map[string]float64{}
	for _, line := range strings.Split(readFile(t, filepath.Join(out, "stats.txt")), "\n") {
		if f := strings.Fields(line); len(f) > 1 {
			if v, err := strconv.ParseFloat(f[1], 64); err == nil {
				stats[f[0]] = v
			}
		}
	}
	checked := 0
	for name, v := range stats {
		var track, series string
		if m := regexp.MustCompile(`^node\.xgmi\.b(\d)_(\d)\.dir(\d)\.payloadBytes$`).FindStringSubmatch(name); m != nil {
			track, series = fmt.Sprintf("Node.XGMI[%s][%s].dir[%s]", m[1], m[2], m[3]), "GB/s"
		} else if m := regexp.MustCompile(`^node\.gcd(\d)\.hbm\.bytes(Read|Written)$`).FindStringSubmatch(name); m != nil {
			track, series = fmt.Sprintf("Node.GCD[%s].HBM", m[1]), map[string]string{"Read": "read GB/s", "Written": "write GB/s"}[m[2]]
		} else {
			continue
		}
		values := tracks[track]
		if v == 0 {
			continue
		}
		checked++
		if len(values) == 0 || values[len(values)-1].args[series] != 0.0 {
			t.Errorf("%s: no counter track %q %s ending at 0 (%d values)", name, track, series, len(values))
			continue
		}
		bytes := 0.0
		for i, x := range values[:len(values)-1] {
			bytes += x.args[series].(float64) * 1e9 * (values[i+1].ts - x.ts) * 1e-6
		}
		if math.Abs(bytes-v) > 1e-9*v {
			t.Errorf("counter %q %s integrates to %g B, stats.txt's %s is %g", track, series, bytes, name, v)
		}
	}
	if checked < 30 { // 8 HBMs read and written, and the ring's and tree's bundle directions
		t.Errorf("%d link directions and memories moved data, want at least 30", checked)
	}
}
