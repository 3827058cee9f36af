package profile

import (
	"encoding/csv"
	"errors"
	"fmt"
	"github.com/akisim/akisim/internal/capped"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
)

// rocprofv3's CSV output (rocprofiler-sdk; notes in
// docs/model/profiles-gem5.md "Importing profiles"): per process, files <prefix>_<name>.csv with
// prefix <pid> (ROCm 6.2) or <hostname>/<pid> (6.3 on). Columns are found
// by header name, so kernel_trace.csv's 16- (6.2), 18- (6.3, 6.4) and
// 22-column (7.0) forms all read, and memory_copy_trace.csv with or
// without Stream_Id. Agent ids are logical node ids: a number (6.2-6.4),
// "Agent N" (7.0) or, with --agent-index type-relative, "GPU N"/"CPU N".
// The CSV has no copy sizes (only the JSON and rocpd outputs have them).

// csvSuffixes are the files of one process that the import reads.
var csvSuffixes = []string{"_agent_info.csv", "_kernel_trace.csv", "_memory_copy_trace.csv", "_hip_api_trace.csv"}

// csvPrefixes finds the processes' file prefixes under dir (or of one file).
func csvPrefixes(path string) ([]string, error) {
	prefix := func(p string) (string, bool) {
		for _, s := range csvSuffixes {
			if pre, ok := strings.CutSuffix(p, s); ok {
				return pre, true
			}
		}
		return "", false
	}
	files, err := findFiles(path, func(p string) bool { _, ok := prefix(p); return ok })
	if err != nil {
		return nil, err
	}
	var ps []string
	for _, f := range files {
		pre, ok := prefix(f)
		if !ok {
			return nil, fmt.Errorf("%s: not one of rocprofv3's CSV files (%s)", path, strings.Join(csvSuffixes, ", "))
		}
		if !slices.Contains(ps, pre) {
			ps = append(ps, pre)
		}
	}
	return ps, nil
}

// ReadRocprofCSV reads rocprofv3's CSV output: the files of one process
// (path one of them) or of every process under a folder, process k (in
// file-name order) as rank k.
func ReadRocprofCSV(path string) (*Profile, error) {
	prefixes, err := csvPrefixes(path)
	return readAll(path, prefixes, err, "rocprofv3 CSV files (*_kernel_trace.csv, *_agent_info.csv, ...)", (*Profile).readCSVProcess)
}

// csvTable is one CSV file: its header's columns by name and its rows.
type csvTable struct {
	file string
	col  map[string]int
	rows [][]string
	line []int // file line of each row
}

// readCSV reads a CSV file; a missing file is (nil, nil).
func readCSV(file string, need ...string) (*csvTable, error) {
	f, err := capped.Open(file, "a rocprofv3 CSV file", MaxFileBytes)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.ReuseRecord = false
	head, err := r.Read()
	if err != nil {
		return nil, csvError(file, 1, "no CSV header", err)
	}
	t := &csvTable{file: file, col: map[string]int{}}
	for i, h := range head {
		t.col[strings.TrimPrefix(h, "\ufeff")] = i
	}
	for _, n := range need {
		if _, ok := t.col[n]; !ok {
			return nil, fmt.Errorf("%s:1: header has no column %q (columns: %s)", file, n, strings.Join(head, ","))
		}
	}
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, csvError(file, 0, "", err)
		}
		// FieldPos is asked only of a record read whole: after a parse
		// error the reader holds no positions for it.
		line, _ := r.FieldPos(0)
		t.rows = append(t.rows, rec)
		t.line = append(t.line, line)
	}
	return t, nil
}

// csvError names the file and the line an encoding/csv error found (line
// when the error carries none), with what before its message.
func csvError(file string, line int, what string, err error) error {
	msg := err.Error()
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		line, msg = pe.Line, pe.Err.Error()
	}
	if what != "" {
		msg = what + ": " + msg
	}
	if line <= 0 {
		return fmt.Errorf("%s: %s", file, msg)
	}
	return fmt.Errorf("%s:%d: %s", file, line, msg)
}

// get is row i's column name ("" if the header has none).
func (t *csvTable) get(i int, name string) string {
	c, ok := t.col[name]
	if !ok || c >= len(t.rows[i]) {
		return ""
	}
	return t.rows[i][c]
}

// num is row i's column as an unsigned integer.
func (t *csvTable) num(i int, name string) (uint64, error) {
	v := t.get(i, name)
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s:%d: %s: want a non-negative integer, got %q", t.file, t.line[i], name, v)
	}
	return n, nil
}

func (p *Profile) readCSVProcess(proc int, pre string) error {
	ag, err := readCSV(pre+"_agent_info.csv", "Node_Id", "Logical_Node_Id", "Agent_Type")
	if err != nil {
		return err
	}
	if ag == nil {
		return fmt.Errorf("%s_agent_info.csv: missing: without it the records' agents cannot be mapped to GCDs", pre)
	}
	ids, err := p.csvAgents(ag)
	if err != nil {
		return err
	}
	kt, err := readCSV(pre+"_kernel_trace.csv", "Agent_Id", "Queue_Id", "Kernel_Name", "Correlation_Id", "Start_Timestamp", "End_Timestamp",
		"Workgroup_Size_X", "Workgroup_Size_Y", "Workgroup_Size_Z", "Grid_Size_X", "Grid_Size_Y", "Grid_Size_Z")
	if err != nil {
		return err
	}
	for i := range rowsOf(kt) {
		k := Kernel{Process: proc, Name: kt.get(i, "Kernel_Name")}
		if k.Agent, err = ids.agent(kt, i, "Agent_Id"); err != nil {
			return err
		}
		fields := []struct {
			name string
			to   *uint64
		}{{"Queue_Id", &k.Queue}, {"Correlation_Id", &k.Corr}}
		for _, f := range fields {
			if *f.to, err = kt.num(i, f.name); err != nil {
				return err
			}
		}
		if _, ok := kt.col["Stream_Id"]; ok {
			if k.Stream, err = kt.num(i, "Stream_Id"); err != nil {
				return err
			}
		}
		if k.Start, k.End, err = kt.times(i); err != nil {
			return err
		}
		if k.Workgroup, err = kt.product(i, "Workgroup_Size_X", "Workgroup_Size_Y", "Workgroup_Size_Z"); err != nil {
			return err
		}
		if k.Grid, err = kt.product(i, "Grid_Size_X", "Grid_Size_Y", "Grid_Size_Z"); err != nil {
			return err
		}
		p.Kernels = append(p.Kernels, k)
	}
	pt, err := readCSV(pre+"_counter_collection.csv", "Correlation_Id", "Counter_Name", "Counter_Value")
	if err != nil {
		return err
	}
	byCorr := map[uint64]map[string]float64{}
	for i := range rowsOf(pt) {
		corr, err := pt.num(i, "Correlation_Id")
		if err != nil {
			return err
		}
		v, err := strconv.ParseFloat(pt.get(i, "Counter_Value"), 64)
		if err != nil || v < 0 || v > 1e15 {
			return fmt.Errorf("%s:%d: Counter_Value: want a count, got %q", pt.file, pt.line[i], pt.get(i, "Counter_Value"))
		}
		if byCorr[corr] == nil {
			byCorr[corr] = map[string]float64{}
		}
		byCorr[corr][pt.get(i, "Counter_Name")] += v
	}
	p.counterBytes(proc, byCorr)
	ct, err := readCSV(pre+"_memory_copy_trace.csv", "Source_Agent_Id", "Destination_Agent_Id", "Correlation_Id", "Start_Timestamp", "End_Timestamp")
	if err != nil {
		return err
	}
	for i := range rowsOf(ct) {
		c := Copy{Process: proc}
		if c.Src, err = ids.agent(ct, i, "Source_Agent_Id"); err != nil {
			return err
		}
		if c.Dst, err = ids.agent(ct, i, "Destination_Agent_Id"); err != nil {
			return err
		}
		if c.Corr, err = ct.num(i, "Correlation_Id"); err != nil {
			return err
		}
		if _, ok := ct.col["Stream_Id"]; ok {
			if c.Stream, err = ct.num(i, "Stream_Id"); err != nil {
				return err
			}
		}
		if c.Start, c.End, err = ct.times(i); err != nil {
			return err
		}
		p.Copies = append(p.Copies, c)
	}
	ht, err := readCSV(pre+"_hip_api_trace.csv", "Function", "Thread_Id", "Correlation_Id", "Start_Timestamp", "End_Timestamp")
	if err != nil {
		return err
	}
	for i := range rowsOf(ht) {
		c := Call{Process: proc, Name: ht.get(i, "Function")}
		if c.Thread, err = ht.num(i, "Thread_Id"); err != nil {
			return err
		}
		if c.Corr, err = ht.num(i, "Correlation_Id"); err != nil {
			return err
		}
		if c.Start, c.End, err = ht.times(i); err != nil {
			return err
		}
		p.Calls = append(p.Calls, c)
	}
	if kt == nil && ct == nil && ht == nil {
		return fmt.Errorf("%s: no kernel_trace, memory_copy_trace or hip_api_trace CSV beside agent_info", pre)
	}
	return nil
}

// rowsOf is the row count of a table that may be missing.
func rowsOf(t *csvTable) int {
	if t == nil {
		return 0
	}
	return len(t.rows)
}

// times are row i's start and end timestamps (ns), end not before start.
func (t *csvTable) times(i int) (int64, int64, error) {
	s, err := t.num(i, "Start_Timestamp")
	if err != nil {
		return 0, 0, err
	}
	e, err := t.num(i, "End_Timestamp")
	if err != nil {
		return 0, 0, err
	}
	if e < s || e > 1<<62 {
		return 0, 0, fmt.Errorf("%s:%d: End_Timestamp %d is before Start_Timestamp %d", t.file, t.line[i], e, s)
	}
	return int64(s), int64(e), nil
}

// product multiplies row i's columns (a grid's or workgroup's x, y, z).
func (t *csvTable) product(i int, names ...string) (int64, error) {
	var xyz []int64
	for _, name := range names {
		v, err := t.num(i, name)
		if err != nil {
			return 0, err
		}
		if v == 0 || v > 1<<32 { // the AQL packet's 32 bits per axis
			return 0, fmt.Errorf("%s:%d: %s: want 1..2^32, got %d", t.file, t.line[i], name, v)
		}
		xyz = append(xyz, int64(v))
	}
	n, err := workItems(xyz...)
	if err != nil {
		return 0, fmt.Errorf("%s:%d: %s: %v", t.file, t.line[i], strings.Join(names, "*"), err)
	}
	return n, nil
}

// csvIDs resolves the CSV's agent references to logical node ids.
type csvIDs struct {
	logical   map[uint64]bool
	gpus, cpu []uint64 // logical ids of each type, by node id
}

// csvAgents reads agent_info.csv.
func (p *Profile) csvAgents(t *csvTable) (csvIDs, error) {
	ids := csvIDs{logical: map[uint64]bool{}}
	type row struct {
		node, logical uint64
		gpu           bool
	}
	var rows []row
	for i := range t.rows {
		node, err := t.num(i, "Node_Id")
		if err != nil {
			return ids, err
		}
		logical, err := t.num(i, "Logical_Node_Id")
		if err != nil {
			return ids, err
		}
		switch typ := t.get(i, "Agent_Type"); typ {
		case "GPU", "CPU":
			rows = append(rows, row{node, logical, typ == "GPU"})
		default:
			continue // an agent of another type takes no part
		}
	}
	slices.SortStableFunc(rows, func(a, b row) int { return int(a.node) - int(b.node) })
	for _, r := range rows {
		ids.logical[r.logical] = true
		if r.gpu {
			ids.gpus = append(ids.gpus, r.logical)
		} else {
			ids.cpu = append(ids.cpu, r.logical)
		}
		if !slices.ContainsFunc(p.Agents, func(a Agent) bool { return a.ID == r.logical }) {
			p.Agents = append(p.Agents, Agent{ID: r.logical, NodeID: int(r.node), GPU: r.gpu})
		}
	}
	return ids, nil
}

// agent resolves row i's agent column to a logical node id.
func (ids csvIDs) agent(t *csvTable, i int, name string) (uint64, error) {
	v := strings.TrimSpace(t.get(i, name))
	bad := fmt.Errorf("%s:%d: %s: %q is not an agent of agent_info.csv", t.file, t.line[i], name, v)
	var list []uint64
	num := v
	switch {
	case strings.HasPrefix(v, "Agent "):
		num = v[len("Agent "):]
	case strings.HasPrefix(v, "GPU "):
		list, num = ids.gpus, v[len("GPU "):]
	case strings.HasPrefix(v, "CPU "):
		list, num = ids.cpu, v[len("CPU "):]
	}
	n, err := strconv.ParseUint(num, 10, 64)
	if err != nil {
		return 0, bad
	}
	if list != nil {
		if n >= uint64(len(list)) {
			return 0, bad
		}
		return list[n], nil
	}
	if !ids.logical[n] {
		return 0, bad
	}
	return n, nil
}
