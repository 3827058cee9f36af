package profile

import (
	"database/sql"
	"fmt"
	"os"
	"slices"
	"strings"

	_ "modernc.org/sqlite" // a pure-Go SQLite: no cgo
)

// rocpd, rocprofv3's SQLite output and its default since ROCm 7.0
// (<hostname>/<pid>_results.db; rocprofiler-sdk's rocpd_tables.sql and
// rocpd_views.sql, schema version 3; docs/model.md "Importing profiles").
// Its tables carry a per-run UUID suffix; the import reads the unsuffixed
// views over them. Agents are known by node id (rocpd_info_agent.id);
// a record's event (rocpd_event) holds the internal correlation id in
// stack_id, which joins API regions to the kernels and copies they made;
// rocpd_memory_copy.size is the copy's bytes.

// rocpdQueries are the import's reads, each against the views.
var rocpdQueries = struct{ agents, kernels, copies, regions string }{
	agents: `SELECT id, type FROM rocpd_info_agent ORDER BY id`,
	kernels: `SELECT k.pid, k.agent_id, k.queue_id, k.stream_id, k.start, k.end,
		k.workgroup_size_x * k.workgroup_size_y * k.workgroup_size_z, k.grid_size_x * k.grid_size_y * k.grid_size_z,
		COALESCE(s.display_name, s.kernel_name, ''), COALESCE(e.stack_id, 0)
		FROM rocpd_kernel_dispatch k LEFT JOIN rocpd_info_kernel_symbol s ON s.id = k.kernel_id
		LEFT JOIN rocpd_event e ON e.id = k.event_id ORDER BY k.pid, k.start, k.id`,
	copies: `SELECT c.pid, c.src_agent_id, c.dst_agent_id, c.size, c.stream_id, c.start, c.end, COALESCE(e.stack_id, 0)
		FROM rocpd_memory_copy c LEFT JOIN rocpd_event e ON e.id = c.event_id ORDER BY c.pid, c.start, c.id`,
	regions: `SELECT r.pid, r.tid, r.start, r.end, n.string, COALESCE(e.stack_id, r.id), COALESCE(cat.string, '')
		FROM rocpd_region r JOIN rocpd_string n ON n.id = r.name_id LEFT JOIN rocpd_event e ON e.id = r.event_id
		LEFT JOIN rocpd_string cat ON cat.id = e.category_id ORDER BY r.pid, r.start, r.id`,
}

// ReadRocpd reads rocpd databases: a *_results.db file, or every one under
// a folder; processes (pids) in order are the ranks.
func ReadRocpd(path string) (*Profile, error) {
	files, err := findFiles(path, func(p string) bool { return strings.HasSuffix(p, ".db") })
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: no rocpd database (*_results.db)", path)
	}
	p := &Profile{Source: path}
	pids := map[int64]int{}
	for _, f := range files {
		if err := p.readRocpd(f, pids); err != nil {
			return nil, err
		}
	}
	return p, nil
}

func (p *Profile) readRocpd(file string, pids map[int64]int) error {
	if _, err := os.Stat(file); err != nil {
		return err
	}
	db, err := sql.Open("sqlite", "file:"+file+"?mode=ro")
	if err != nil {
		return fmt.Errorf("%s: %v", file, err)
	}
	defer db.Close()
	fail := func(what string, err error) error {
		return fmt.Errorf("%s: not a rocpd database (%s: %v)", file, what, strings.ReplaceAll(err.Error(), "\n", " "))
	}
	proc := func(pid int64) int {
		if _, ok := pids[pid]; !ok {
			pids[pid] = len(pids)
		}
		return pids[pid]
	}
	rows, err := db.Query(rocpdQueries.agents)
	if err != nil {
		return fail("rocpd_info_agent", err)
	}
	for rows.Next() {
		var id int64
		var typ string
		if err := rows.Scan(&id, &typ); err != nil {
			rows.Close()
			return fail("rocpd_info_agent", err)
		}
		if (typ == "GPU" || typ == "CPU") && !slices.ContainsFunc(p.Agents, func(a Agent) bool { return a.ID == uint64(id) }) {
			p.Agents = append(p.Agents, Agent{ID: uint64(id), NodeID: int(id), GPU: typ == "GPU"})
		}
	}
	if err := rowsDone(rows); err != nil {
		return fail("rocpd_info_agent", err)
	}
	known := func(id int64) bool {
		return slices.ContainsFunc(p.Agents, func(a Agent) bool { return a.ID == uint64(id) })
	}
	rows, err = db.Query(rocpdQueries.kernels)
	if err != nil {
		return fail("rocpd_kernel_dispatch", err)
	}
	for rows.Next() {
		var pid, agent, queue, stream, start, end, wg, grid, corr int64
		var name string
		if err := rows.Scan(&pid, &agent, &queue, &stream, &start, &end, &wg, &grid, &name, &corr); err != nil {
			rows.Close()
			return fail("rocpd_kernel_dispatch", err)
		}
		if !known(agent) || end < start || wg < 1 || grid < 1 {
			rows.Close()
			return fmt.Errorf("%s: rocpd_kernel_dispatch: a dispatch on agent %d from %d to %d ns with %d work-items in workgroups of %d is not a kernel of this node",
				file, agent, start, end, grid, wg)
		}
		p.Kernels = append(p.Kernels, Kernel{Process: proc(pid), Corr: uint64(corr), Agent: uint64(agent), Queue: uint64(queue),
			Stream: uint64(stream), Name: name, Start: start, End: end, Grid: grid, Workgroup: wg})
	}
	if err := rowsDone(rows); err != nil {
		return fail("rocpd_kernel_dispatch", err)
	}
	rows, err = db.Query(rocpdQueries.copies)
	if err != nil {
		return fail("rocpd_memory_copy", err)
	}
	for rows.Next() {
		var pid, src, dst, size, stream, start, end, corr int64
		if err := rows.Scan(&pid, &src, &dst, &size, &stream, &start, &end, &corr); err != nil {
			rows.Close()
			return fail("rocpd_memory_copy", err)
		}
		if !known(src) || !known(dst) || end < start || size < 0 {
			rows.Close()
			return fmt.Errorf("%s: rocpd_memory_copy: a copy of %d bytes from agent %d to %d is not a copy of this node", file, size, src, dst)
		}
		p.Copies = append(p.Copies, Copy{Process: proc(pid), Corr: uint64(corr), Src: uint64(src), Dst: uint64(dst), Bytes: size,
			Stream: uint64(stream), Start: start, End: end})
	}
	if err := rowsDone(rows); err != nil {
		return fail("rocpd_memory_copy", err)
	}
	rows, err = db.Query(rocpdQueries.regions)
	if err != nil {
		return fail("rocpd_region", err)
	}
	for rows.Next() {
		var pid, tid, start, end, corr int64
		var name, category string
		if err := rows.Scan(&pid, &tid, &start, &end, &name, &corr, &category); err != nil {
			rows.Close()
			return fail("rocpd_region", err)
		}
		if !strings.HasPrefix(category, "HIP_") { // HSA, markers, RCCL: not HIP calls
			continue
		}
		if end < start {
			rows.Close()
			return fmt.Errorf("%s: rocpd_region: %s ends before it starts", file, name)
		}
		p.Calls = append(p.Calls, Call{Process: proc(pid), Thread: uint64(tid), Corr: uint64(corr), Name: name, Start: start, End: end})
	}
	if err := rowsDone(rows); err != nil {
		return fail("rocpd_region", err)
	}
	return nil
}

// rowsDone closes rows and returns any error the iteration met.
func rowsDone(rows *sql.Rows) error {
	err := rows.Err()
	if cerr := rows.Close(); err == nil {
		err = cerr
	}
	return err
}
