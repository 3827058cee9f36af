package profile

import (
	"bufio"
	"fmt"
	"github.com/akisim/akisim/internal/capped"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// gem5's AMD GPU model (GPUFS; docs/model/profiles-gem5.md "gem5 side by side"): its
// debug trace (--debug-flags=GPUCommandProc,GPUDisp,GPUWgLatency,SDMAEngine)
// and stats.txt. Trace lines are "%7d: object.path: message", ticks in ps.
// Kernels: "Task ID: N Got AQL: wg size (AxBxC), grid size (XxYxZ) ..."
// (gpu_command_processor.cc), "launching kernel: NAME, dispatch ID: N"
// (dispatcher.cc, GPUDisp) and "Kernel Complete ticks:T kernel:N"
// (GPUWgLatency). SDMA copies (sdma_engine.cc): "SDMA Copy packet", "Copy
// src: S -> dest: D count C" (C = bytes - 1), "Copying from device
// address" / "Copying to device address" (else host memory through the
// GART), "Copy completed to P, B dwords" (B is bytes).

var (
	gem5Line     = regexp.MustCompile(`^\s*(\d+): (\S+): (.*)$`)
	gem5AQL      = regexp.MustCompile(`^Task ID: (\d+) Got AQL: wg size \((\d+)x(\d+)x(\d+)\), grid size \((\d+)x(\d+)x(\d+)\)`)
	gem5Launch   = regexp.MustCompile(`^launching kernel: (.*), dispatch ID: (\d+)$`)
	gem5Complete = regexp.MustCompile(`^Kernel Complete ticks:(\d+) kernel:(\d+)$`)
	gem5CopySrc  = regexp.MustCompile(`^Copy src: ([0-9a-fA-F]+) -> dest: ([0-9a-fA-F]+) count (\d+)$`)
	gem5CopyDone = regexp.MustCompile(`^Copy completed to \S+, (\d+) dwords$`)
)

// Gem5 agents: the host (CPU agent 0) and the GPU (agent 1).
const gem5Host, gem5GPU = 0, 1

// gem5Copy is an SDMA copy being read.
type gem5Copy struct {
	engine      string
	start       int64
	bytes       int64
	srcDevice   bool
	dstDevice   bool
	seenSrcLine bool
}

// ReadGem5Trace reads a gem5 debug trace: its kernels and SDMA copies,
// times in ns (ticks / 1000). Copies carry their engine in Stream order of
// first appearance.
func ReadGem5Trace(path string) (*Profile, error) {
	f, err := capped.Open(path, "a gem5 debug trace", MaxGem5TraceBytes)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	p := &Profile{Source: path, Agents: []Agent{{ID: gem5Host, NodeID: 0}, {ID: gem5GPU, NodeID: 1, GPU: true}}}
	type kernel struct {
		wg, grid     int64
		name         string
		start, end   int64
		launched, ok bool
	}
	kernels := map[int64]*kernel{}
	var order []int64
	get := func(id int64) *kernel {
		if kernels[id] == nil {
			kernels[id] = &kernel{}
			order = append(order, id)
		}
		return kernels[id]
	}
	open := map[string]*gem5Copy{} // engine -> its copy in progress
	engines := map[string]uint64{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	lines := 0
	for n := 1; sc.Scan(); n++ {
		m := gem5Line.FindStringSubmatch(sc.Text())
		if m == nil {
			continue // other output (gem5's banner, warnings)
		}
		lines++
		tick, err := strconv.ParseInt(m[1], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: tick %q: %v", path, n, m[1], err)
		}
		obj, msg := m[2], m[3]
		num := func(s string) int64 { v, _ := strconv.ParseInt(s, 10, 64); return v }
		switch {
		case gem5AQL.MatchString(msg):
			a := gem5AQL.FindStringSubmatch(msg)
			k := get(num(a[1]))
			var xyz [6]int64
			for j := range xyz {
				if xyz[j], err = strconv.ParseInt(a[2+j], 10, 64); err != nil {
					return nil, fmt.Errorf("%s:%d: AQL size %q: %v", path, n, a[2+j], err)
				}
				xyz[j] = max(1, xyz[j])
			}
			if k.wg, err = workItems(xyz[:3]...); err == nil {
				k.grid, err = workItems(xyz[3:]...)
			}
			if err != nil {
				return nil, fmt.Errorf("%s:%d: AQL wg size %s, grid size %s: %v", path, n, axes(xyz[:3]), axes(xyz[3:]), err)
			}
		case gem5Launch.MatchString(msg):
			a := gem5Launch.FindStringSubmatch(msg)
			k := get(num(a[2]))
			k.name, k.start, k.launched = a[1], tick/1000, true
		case gem5Complete.MatchString(msg):
			a := gem5Complete.FindStringSubmatch(msg)
			k := get(num(a[2]))
			k.end, k.ok = num(a[1])/1000, true
		case msg == "SDMA Copy packet":
			open[obj] = &gem5Copy{engine: obj, start: tick / 1000}
		case gem5CopySrc.MatchString(msg) && open[obj] != nil:
			a := gem5CopySrc.FindStringSubmatch(msg)
			open[obj].bytes, open[obj].seenSrcLine = num(a[3])+1, true
		case strings.HasPrefix(msg, "Copying from device address") && open[obj] != nil:
			open[obj].srcDevice = true
		case strings.HasPrefix(msg, "Copying to device address") && open[obj] != nil:
			open[obj].dstDevice = true
		case gem5CopyDone.MatchString(msg) && open[obj] != nil:
			c := open[obj]
			delete(open, obj)
			b := num(gem5CopyDone.FindStringSubmatch(msg)[1])
			if !c.seenSrcLine || b != c.bytes {
				return nil, fmt.Errorf("%s:%d: %s: a copy completed with %d bytes, its packet said %d", path, n, obj, b, c.bytes)
			}
			if _, ok := engines[obj]; !ok {
				engines[obj] = uint64(len(engines) + 1)
			}
			cp := Copy{Corr: uint64(len(p.Copies) + 1), Src: gem5Host, Dst: gem5Host, Bytes: b, Stream: engines[obj], Start: c.start, End: tick / 1000}
			if c.srcDevice {
				cp.Src = gem5GPU
			}
			if c.dstDevice {
				cp.Dst = gem5GPU
			}
			p.Copies = append(p.Copies, cp)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if lines == 0 {
		return nil, fmt.Errorf("%s: no gem5 debug trace lines (TICK: object: message)", path)
	}
	for _, id := range order {
		k := kernels[id]
		if !k.launched || !k.ok {
			p.Report.drop("kernels without both their launch (GPUDisp) and completion (GPUWgLatency) lines")
			continue
		}
		if k.wg == 0 {
			k.wg, k.grid = 1, 1
			p.Report.approx("kernels without their AQL line (GPUCommandProc): one workgroup of one work-item")
		}
		p.Kernels = append(p.Kernels, Kernel{Corr: uint64(id), Agent: gem5GPU, Queue: 1, Name: k.name, Start: k.start, End: k.end,
			Grid: k.grid, Workgroup: k.wg})
	}
	for range open {
		p.Report.drop("SDMA copies not completed by the end of the trace")
	}
	return p, nil
}

// Stats is one dump of a gem5 stats.txt: values by name.
type Stats map[string]float64

// ReadGem5Stats reads stats.txt: each dump between its Begin and End
// lines, "name value ... # description (Unit)", vectors as name::index;
// nan and inf are read as such.
func ReadGem5Stats(path string) ([]Stats, error) {
	f, err := capped.Open(path, "a gem5 stats.txt", MaxFileBytes)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var dumps []Stats
	var cur Stats
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		l := sc.Text()
		switch {
		case strings.HasPrefix(l, "---------- Begin Simulation Statistics"):
			cur = Stats{}
		case strings.HasPrefix(l, "---------- End Simulation Statistics"):
			if cur == nil {
				return nil, fmt.Errorf("%s:%d: an End line without its Begin", path, n)
			}
			dumps, cur = append(dumps, cur), nil
		case cur != nil && strings.TrimSpace(l) != "":
			fs := strings.Fields(l)
			if len(fs) < 2 {
				return nil, fmt.Errorf("%s:%d: want NAME VALUE, got %q", path, n, l)
			}
			v, err := strconv.ParseFloat(fs[1], 64)
			if err != nil {
				if strings.HasPrefix(fs[1], "|") { // a oneline distribution's buckets
					continue
				}
				return nil, fmt.Errorf("%s:%d: %s: value %q is not a number", path, n, fs[0], fs[1])
			}
			cur[fs[0]] = v
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if cur != nil {
		return nil, fmt.Errorf("%s: the last dump has no End line (truncated?)", path)
	}
	if len(dumps) == 0 {
		return nil, fmt.Errorf("%s: no Begin Simulation Statistics block", path)
	}
	return dumps, nil
}

// Suffix sums the stats whose names end in suffix (gem5's paths differ
// between its trace and its stats: match by the end of the name); NaN
// values are left out.
func (s Stats) Suffix(suffix string) (float64, bool) {
	sum, found := 0.0, false
	for k, v := range s {
		if strings.HasSuffix(k, suffix) && !math.IsNaN(v) {
			sum, found = sum+v, true
		}
	}
	return sum, found
}
