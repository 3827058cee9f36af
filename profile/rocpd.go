package profile

import (
	"cmp"
	"database/sql"
	"fmt"
	"github.com/akisim/akisim/internal/capped"
	"os"
	"slices"
	"strings"

	_ "modernc.org/sqlite" // a pure-Go SQLite: no cgo
)

// rocpd, rocprofv3's SQLite output and its default since ROCm 7.0
// (<hostname>/<pid>_results.db; rocprofiler-sdk's rocpd_tables.sql and
// rocpd_views.sql, schema version 3; docs/model/profiles-gem5.md "Importing profiles").
// Its tables carry a per-run UUID suffix; the import reads the unsuffixed
// views over them. Agents are known by node id (rocpd_info_agent.id);
// a record's event (rocpd_event) holds the internal correlation id in
// stack_id, which joins API regions to the kernels and copies they made;
// rocpd_memory_copy.size is the copy's bytes.

// rocpdQueries are the import's reads, each against the views.
var rocpdQueries = struct{ agents, kernels, copies, regions, hasArgs, args, rcclArgs string }{
	agents: `SELECT id, type FROM rocpd_info_agent ORDER BY id`,
	kernels: `SELECT k.pid, k.agent_id, k.queue_id, k.stream_id, k.start, k.end,
		k.workgroup_size_x, k.workgroup_size_y, k.workgroup_size_z, k.grid_size_x, k.grid_size_y, k.grid_size_z,
		COALESCE(s.display_name, s.kernel_name, ''), COALESCE(e.stack_id, 0)
		FROM rocpd_kernel_dispatch k LEFT JOIN rocpd_info_kernel_symbol s ON s.id = k.kernel_id
		LEFT JOIN rocpd_event e ON e.id = k.event_id ORDER BY k.pid, k.start, k.id`,
	copies: `SELECT c.pid, c.src_agent_id, c.dst_agent_id, c.size, c.stream_id, c.start, c.end, COALESCE(e.stack_id, 0)
		FROM rocpd_memory_copy c LEFT JOIN rocpd_event e ON e.id = c.event_id ORDER BY c.pid, c.start, c.id`,
	regions: `SELECT r.pid, r.tid, r.start, r.end, n.string, COALESCE(e.stack_id, r.id), COALESCE(cat.string, '')
		FROM rocpd_region r JOIN rocpd_string n ON n.id = r.name_id LEFT JOIN rocpd_event e ON e.id = r.event_id
		LEFT JOIN rocpd_string cat ON cat.id = e.category_id ORDER BY r.pid, r.start, r.id`,
	hasArgs: `SELECT COUNT(*) FROM sqlite_master WHERE name = 'rocpd_arg'`,
	args: `SELECT r.pid, COALESCE(e.stack_id, r.id), a.name, a.value
		FROM rocpd_region r JOIN rocpd_arg a ON a.event_id = r.event_id LEFT JOIN rocpd_event e ON e.id = r.event_id
		WHERE a.name IN ('stream', 'event') ORDER BY r.pid, r.start, r.id, a.position`,
	rcclArgs: `SELECT r.pid, COALESCE(e.stack_id, r.id), a.name, a.value
		FROM rocpd_region r JOIN rocpd_arg a ON a.event_id = r.event_id JOIN rocpd_event e ON e.id = r.event_id
		JOIN rocpd_string cat ON cat.id = e.category_id WHERE cat.string = 'RCCL_API' ORDER BY r.pid, r.start, r.id, a.position`,
}

// ReadRocpd reads rocpd databases: a *_results.db file, or every one under
// a folder; processes (pids) in order are the ranks.
func ReadRocpd(path string) (*Profile, error) {
	files, err := findFiles(path, func(p string) bool { return strings.HasSuffix(p, ".db") })
	pids := map[int64]int{}
	return readAll(path, files, err, "rocpd database (*_results.db)", func(p *Profile, _ int, f string) error { return p.readRocpd(f, pids) })
}

func (p *Profile) readRocpd(file string, pids map[int64]int) error {
	if st, err := os.Stat(file); err != nil {
		return err
	} else if st.Size() > MaxRocpdBytes {
		return &capped.TooLarge{Path: file, What: "a rocpd database", Cap: MaxRocpdBytes}
	}
	db, err := sql.Open("sqlite", "file:"+file+"?mode=ro")
	if err != nil {
		return fmt.Errorf("%s: %v", file, err)
	}
	defer db.Close()
	proc := func(pid int64) int {
		if _, ok := pids[pid]; !ok {
			pids[pid] = len(pids)
		}
		return pids[pid]
	}
	r := rocpdReader{db, file}
	var id int64
	var typ string
	err = r.each("rocpd_info_agent", rocpdQueries.agents, []any{&id, &typ}, func() error {
		if (typ == "GPU" || typ == "CPU") && !slices.ContainsFunc(p.Agents, func(a Agent) bool { return a.ID == uint64(id) }) {
			p.Agents = append(p.Agents, Agent{ID: uint64(id), NodeID: int(id), GPU: typ == "GPU"})
		}
		return nil
	})
	if err != nil {
		return err
	}
	known := func(id int64) bool {
		return slices.ContainsFunc(p.Agents, func(a Agent) bool { return a.ID == uint64(id) })
	}
	var pid, agent, queue, stream, start, end, corr int64
	var wgXYZ, gridXYZ [3]int64
	var name string
	err = r.each("rocpd_kernel_dispatch", rocpdQueries.kernels, []any{&pid, &agent, &queue, &stream, &start, &end,
		&wgXYZ[0], &wgXYZ[1], &wgXYZ[2], &gridXYZ[0], &gridXYZ[1], &gridXYZ[2], &name, &corr}, func() error {
		wg, werr := workItems(wgXYZ[:]...)
		grid, gerr := workItems(gridXYZ[:]...)
		if err := cmp.Or(werr, gerr); err != nil {
			return fmt.Errorf("%s: rocpd_kernel_dispatch: a dispatch on agent %d from %d to %d ns: workgroup %s, grid %s: %v",
				file, agent, start, end, axes(wgXYZ[:]), axes(gridXYZ[:]), err)
		}
		if !known(agent) || end < start {
			return fmt.Errorf("%s: rocpd_kernel_dispatch: a dispatch on agent %d from %d to %d ns with %d work-items in workgroups of %d is not a kernel of this node",
				file, agent, start, end, grid, wg)
		}
		p.Kernels = append(p.Kernels, Kernel{Process: proc(pid), Corr: uint64(corr), Agent: uint64(agent), Queue: uint64(queue),
			Stream: uint64(stream), Name: name, Start: start, End: end, Grid: grid, Workgroup: wg})
		return nil
	})
	if err != nil {
		return err
	}
	var src, dst, size int64
	err = r.each("rocpd_memory_copy", rocpdQueries.copies, []any{&pid, &src, &dst, &size, &stream, &start, &end, &corr}, func() error {
		if !known(src) || !known(dst) || end < start || size < 0 {
			return fmt.Errorf("%s: rocpd_memory_copy: a copy of %d bytes from agent %d to %d is not a copy of this node", file, size, src, dst)
		}
		p.Copies = append(p.Copies, Copy{Process: proc(pid), Corr: uint64(corr), Src: uint64(src), Dst: uint64(dst), Bytes: size,
			Stream: uint64(stream), Start: start, End: end})
		return nil
	})
	if err != nil {
		return err
	}
	var tid int64
	var category string
	first := len(p.Calls)
	err = r.each("rocpd_region", rocpdQueries.regions, []any{&pid, &tid, &start, &end, &name, &corr, &category}, func() error {
		rccl := category == "RCCL_API"
		if !strings.HasPrefix(category, "HIP_") && !rccl { // HSA, markers: not calls the trace replays
			return nil
		}
		if end < start {
			return fmt.Errorf("%s: rocpd_region: %s ends before it starts", file, name)
		}
		p.Calls = append(p.Calls, Call{Process: proc(pid), Thread: uint64(tid), Corr: uint64(corr), Name: name, Start: start, End: end, RCCL: rccl})
		return nil
	})
	if err != nil {
		return err
	}
	return r.callArgs(p, first, proc)
}

// callArgs reads the stream and event arguments of the calls from
// p.Calls[first:] (rocpd_arg) into them, as 7.0's JSON gives them. rocpd
// has the stream a call names only as its hipStream_t pointer, while
// kernels and copies carry the SDK's stream handle (a number it gives
// each stream, stream.cpp): a pointer is matched to a handle through the
// launches and copies made by calls naming it; a null pointer is the null
// stream; a pointer no work was launched on gets a handle of its own.
func (r rocpdReader) callArgs(p *Profile, first int, proc func(int64) int) error {
	var n int64
	if err := r.each("rocpd_arg", rocpdQueries.hasArgs, []any{&n}, func() error { return nil }); err != nil || n == 0 {
		return err // an older database without arguments: the calls stay approximated
	}
	type key struct {
		proc int
		corr uint64
	}
	streamArg, eventArg := map[key]string{}, map[key]string{}
	var pid, corr int64
	var name, value string
	rcclArgs := map[key]map[string]string{}
	err := r.each("rocpd_arg", rocpdQueries.rcclArgs, []any{&pid, &corr, &name, &value}, func() error {
		k := key{proc(pid), uint64(corr)}
		if rcclArgs[k] == nil {
			rcclArgs[k] = map[string]string{}
		}
		rcclArgs[k][name] = value
		return nil
	})
	if err != nil {
		return err
	}
	err = r.each("rocpd_arg", rocpdQueries.args, []any{&pid, &corr, &name, &value}, func() error {
		k := key{proc(pid), uint64(corr)}
		if name == "stream" {
			streamArg[k] = value
		} else {
			eventArg[k] = value
		}
		return nil
	})
	if err != nil {
		return err
	}
	handle := map[[2]string]uint64{} // (process, pointer) -> stream handle
	learn := func(proc int, corr, stream uint64) {
		if v, ok := streamArg[key{proc, corr}]; ok {
			handle[[2]string{fmt.Sprint(proc), v}] = stream
		}
	}
	for _, k := range p.Kernels {
		learn(k.Process, k.Corr, k.Stream)
	}
	for _, c := range p.Copies {
		learn(c.Process, c.Corr, c.Stream)
	}
	own := uint64(1) << 63 // handles for streams no work was launched on
	for i := first; i < len(p.Calls); i++ {
		c := &p.Calls[i]
		k := key{c.Process, c.Corr}
		if c.RCCL {
			c.Args = rcclArgs[k]
			continue
		}
		if v, ok := streamArg[k]; ok {
			h, known := handle[[2]string{fmt.Sprint(c.Process), v}]
			switch {
			case known:
			case nullPointer(v):
				h = 0
			default:
				h = own
				own++
				handle[[2]string{fmt.Sprint(c.Process), v}] = h
			}
			c.Stream, c.HasStream = h, true
		}
		if v, ok := eventArg[k]; ok {
			c.Event = v
		}
	}
	return nil
}

// nullPointer says whether an argument's text is a null pointer.
func nullPointer(v string) bool {
	switch strings.TrimSpace(v) {
	case "", "0", "0x0", "(nil)", "nullptr", "NULL":
		return true
	}
	return false
}

// rocpdReader runs the import's queries on one database.
type rocpdReader struct {
	db   *sql.DB
	file string
}

// each runs query, scans every row into dest and calls row, whose error
// stops it; the database's own errors say the file is not a rocpd
// database, naming table.
func (r rocpdReader) each(table, query string, dest []any, row func() error) error {
	fail := func(err error) error {
		return fmt.Errorf("%s: not a rocpd database (%s: %v)", r.file, table, strings.ReplaceAll(err.Error(), "\n", " "))
	}
	rows, err := r.db.Query(query)
	if err != nil {
		return fail(err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return fail(err)
		}
		if err := row(); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fail(err)
	}
	if err := rows.Close(); err != nil {
		return fail(err)
	}
	return nil
}
