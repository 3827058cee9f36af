package profile

import (
	"bufio"
	"errors"
	"fmt"
	"github.com/akisim/akisim/internal/capped"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Legacy rocprof (rocprofiler v1, ROCm 4-6;
// docs/model/profiles-gem5.md "Importing profiles"), the text files its --hip-trace / --sys-trace run leaves
// (roctracer's file plugin, parsed as rocprofiler's tblextr.py does):
//
//	hip_api_trace.txt  BEG:END PID:TID hipFn(arg=v, ...) :CORR
//	hcc_ops_trace.txt  BEG:END DEVICE:QUEUE NAME:CORR:PID   (kernels; CopyHostToDevice, ...)
//
// and, when kernels were traced with timestamps, results.csv (Index,
// KernelName, gpu-id, ..., grd, wgr, ..., BeginNs, EndNs) for grids. A
// copy's size is its HIP call's sizeBytes (the device records have none);
// devices are ranked by their id (a GPU index, or from ROCm 5.5 a KFD
// node number).

var (
	legacyAPI  = regexp.MustCompile(`^(\d{1,18}):(\d{1,18}) (\d{1,18}):(\d{1,18}) ([A-Za-z_]\w*)\((.*)\)(?:\s+kernel=.*)? :(\d{1,18})$`)
	legacyOps  = regexp.MustCompile(`^(\d{1,18}):(\d{1,18}) (\d{1,18}):(\d{1,18}) (.*):(\d{1,18}):(\d{1,18})$`)
	legacySize = regexp.MustCompile(`(?:^|[ ,(])sizeBytes=(\d{1,18})`)
)

// ReadRocprofLegacy reads a legacy rocprof output folder (or one of its
// files): hip_api_trace.txt and hcc_ops_trace.txt, and results.csv if
// there.
func ReadRocprofLegacy(path string) (*Profile, error) {
	dir := path
	if st, err := os.Stat(path); err != nil {
		return nil, err
	} else if !st.IsDir() {
		dir = filepath.Dir(path)
	}
	p := &Profile{Source: path}
	pids := map[int64]int{}
	proc := func(pid int64) int {
		if _, ok := pids[pid]; !ok {
			pids[pid] = len(pids)
		}
		return pids[pid]
	}
	sizes := map[[2]int64]int64{} // (pid, corr) -> the call's sizeBytes
	apiFile := filepath.Join(dir, "hip_api_trace.txt")
	err := eachLine(apiFile, func(n int, l string) error {
		m := legacyAPI.FindStringSubmatch(l)
		if m == nil {
			return fmt.Errorf("%s:%d: not a HIP API line (BEG:END PID:TID hipFn(args) :CORR): %q", apiFile, n, trim(l))
		}
		v := nums(m[1], m[2], m[3], m[4], m[7])
		if v[1] < v[0] {
			return fmt.Errorf("%s:%d: ends before it begins", apiFile, n)
		}
		if s := legacySize.FindStringSubmatch(m[6]); s != nil {
			sizes[[2]int64{v[2], v[4]}] = nums(s[1])[0]
		}
		p.Calls = append(p.Calls, Call{Process: proc(v[2]), Thread: uint64(v[3]), Corr: uint64(v[4]), Name: m[5], Start: v[0], End: v[1]})
		return nil
	})
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	grids, err := legacyGrids(filepath.Join(dir, "results.csv"))
	if err != nil {
		return nil, err
	}
	type devOp struct {
		beg, end, dev, queue, corr, pid int64
		name                            string
	}
	var ops []devOp
	opsFile := filepath.Join(dir, "hcc_ops_trace.txt")
	err = eachLine(opsFile, func(n int, l string) error {
		m := legacyOps.FindStringSubmatch(l)
		if m == nil {
			return fmt.Errorf("%s:%d: not a device op line (BEG:END DEVICE:QUEUE NAME:CORR:PID): %q", opsFile, n, trim(l))
		}
		v := nums(m[1], m[2], m[3], m[4], m[6], m[7])
		if v[1] < v[0] {
			return fmt.Errorf("%s:%d: ends before it begins", opsFile, n)
		}
		ops = append(ops, devOp{v[0], v[1], v[2], v[3], v[4], v[5], m[5]})
		return nil
	})
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%s: no hcc_ops_trace.txt (run rocprof with --hip-trace or --sys-trace)", dir)
	}
	if err != nil {
		return nil, err
	}
	// Agents: the host, then the devices ranked by id.
	var devs []int64
	for _, o := range ops {
		if !slices.Contains(devs, o.dev) {
			devs = append(devs, o.dev)
		}
	}
	slices.Sort(devs)
	p.Agents = append(p.Agents, Agent{ID: 0, NodeID: 0})
	gpu := func(dev int64) uint64 { return uint64(1 + slices.Index(devs, dev)) }
	for _, d := range devs {
		p.Agents = append(p.Agents, Agent{ID: gpu(d), NodeID: int(gpu(d)), GPU: true})
	}
	for _, o := range ops {
		switch {
		case strings.HasPrefix(o.name, "Marker") || strings.HasPrefix(o.name, "FillBuffer"):
			p.Report.drop("device markers and fills (" + strings.Fields(o.name)[0] + ")")
		case strings.HasPrefix(o.name, "Copy") || strings.HasPrefix(o.name, "Memcpy"):
			c := Copy{Process: proc(o.pid), Corr: uint64(o.corr), Bytes: sizes[[2]int64{o.pid, o.corr}], Stream: uint64(o.queue), Start: o.beg, End: o.end}
			switch {
			case strings.Contains(o.name, "HostToDevice"):
				c.Src, c.Dst = 0, gpu(o.dev)
			case strings.Contains(o.name, "DeviceToHost"):
				c.Src, c.Dst = gpu(o.dev), 0
			default: // the other device is not in the record
				c.Src, c.Dst = gpu(o.dev), gpu(o.dev)
				p.Report.approx("device-to-device copies kept on their executing device (the record names one device)")
			}
			p.Copies = append(p.Copies, c)
		default:
			k := Kernel{Process: proc(o.pid), Corr: uint64(o.corr), Agent: gpu(o.dev), Queue: uint64(o.queue) + 1, Name: o.name,
				Start: o.beg, End: o.end, Grid: 1, Workgroup: 1}
			if g, ok := grids[o.beg]; ok {
				k.Grid, k.Workgroup = g[0], g[1]
			} else {
				p.Report.approx("kernels without their results.csv row: one workgroup of one work-item")
			}
			p.Kernels = append(p.Kernels, k)
		}
	}
	return p, nil
}

// legacyGrids reads results.csv, if there, for each kernel's grid and
// workgroup (work-items) by its BeginNs.
func legacyGrids(file string) (map[int64][2]int64, error) {
	t, err := readCSV(file, "grd", "wgr")
	if err != nil || t == nil {
		return map[int64][2]int64{}, err
	}
	out := map[int64][2]int64{}
	if _, ok := t.col["BeginNs"]; !ok {
		return out, nil // no timestamps: rows cannot be matched to the traces
	}
	for i := range t.rows {
		var v [3]uint64
		for j, name := range []string{"grd", "wgr", "BeginNs"} {
			if v[j], err = t.num(i, name); err != nil {
				return nil, err
			}
		}
		if v[0] == 0 || v[0] > maxWorkItems || v[1] == 0 || v[1] > 1024 {
			return nil, fmt.Errorf("%s:%d: grd %d and wgr %d are not a kernel's grid and workgroup", file, t.line[i], v[0], v[1])
		}
		out[int64(v[2])] = [2]int64{int64(v[0]), int64(v[1])}
	}
	return out, nil
}

// eachLine calls fn on each non-blank line of file.
func eachLine(file string, fn func(n int, line string) error) error {
	f, err := capped.Open(file, "a rocprof text file", MaxFileBytes)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		if l := strings.TrimSpace(sc.Text()); l != "" {
			if err := fn(n, l); err != nil {
				return err
			}
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %v", file, err)
	}
	return nil
}

// nums parses decimal fields the regexes matched.
func nums(ss ...string) []int64 {
	out := make([]int64, len(ss))
	for i, s := range ss {
		out[i], _ = strconv.ParseInt(s, 10, 64)
	}
	return out
}

// trim shortens a line for an error message.
func trim(l string) string {
	if len(l) > 80 {
		return l[:80] + "..."
	}
	return l
}
