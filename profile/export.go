package profile

import (
	"encoding/json"
	"io"
	"slices"
)

// WriteRocprofJSON writes profiles in rocprofv3's JSON layout (the
// --output-format json keys ReadRocprofJSON reads; ROCm 7.0's, with
// stream_id): one process object per profile and rank, so tools that read
// a real run's results.json read a simulated one. Agent handles are node
// id + 300, as rocprofv3's are a node id plus an offset.
func WriteRocprofJSON(w io.Writer, profiles []*Profile) error {
	type handle struct {
		Handle uint64 `json:"handle"`
	}
	type xyz struct {
		X int64 `json:"x"`
		Y int64 `json:"y"`
		Z int64 `json:"z"`
	}
	type corr struct {
		Internal uint64 `json:"internal"`
		External uint64 `json:"external"`
	}
	const hipKind, dispatchKind, copyKind = 1, 2, 3
	var procs []map[string]any
	pid := 0
	for _, p := range profiles {
		type records struct {
			calls   []Call
			kernels []Kernel
			copies  []Copy
		}
		var byRank []records // each rank's records, gathered once
		at := func(proc int) *records {
			for len(byRank) <= proc {
				byRank = append(byRank, records{})
			}
			return &byRank[proc]
		}
		for _, c := range p.Calls {
			at(c.Process).calls = append(at(c.Process).calls, c)
		}
		for _, k := range p.Kernels {
			at(k.Process).kernels = append(at(k.Process).kernels, k)
		}
		for _, c := range p.Copies {
			at(c.Process).copies = append(at(c.Process).copies, c)
		}
		for rank := range byRank {
			mine := byRank[rank]
			pid++
			h := func(id uint64) handle { return handle{id + 300} }
			var agents []map[string]any
			for _, a := range p.Agents {
				typ := 1
				if a.GPU {
					typ = 2
				}
				agents = append(agents, map[string]any{"id": h(a.ID), "type": typ, "node_id": a.NodeID, "logical_node_id": a.NodeID})
			}
			names := []string{"NONE"}
			var calls, dispatches, copies []map[string]any
			symbols := []map[string]any{{"kernel_id": 0, "kernel_name": "", "formatted_kernel_name": ""}}
			symbolOf := map[string]int{}
			for _, c := range mine.calls {
				op := slices.Index(names, c.Name)
				if op < 0 {
					names, op = append(names, c.Name), len(names)
				}
				rec := map[string]any{"kind": hipKind, "operation": op, "correlation_id": corr{Internal: c.Corr},
					"start_timestamp": c.Start, "end_timestamp": c.End, "thread_id": c.Thread}
				if c.HasStream {
					rec["stream_id"] = handle{c.Stream}
				}
				if c.Event != "" {
					rec["args"] = []map[string]string{{"type": "hipEvent_t", "name": "event", "value": c.Event}}
				}
				calls = append(calls, rec)
			}
			for _, k := range mine.kernels {
				id, ok := symbolOf[k.Name]
				if !ok {
					id = len(symbols)
					symbolOf[k.Name] = id
					symbols = append(symbols, map[string]any{"kernel_id": id, "kernel_name": k.Name, "formatted_kernel_name": k.Name})
				}
				dispatches = append(dispatches, map[string]any{"kind": dispatchKind, "operation": 1, "thread_id": k.Process,
					"correlation_id": corr{Internal: k.Corr}, "start_timestamp": k.Start, "end_timestamp": k.End, "stream_id": handle{k.Stream},
					"dispatch_info": map[string]any{"agent_id": h(k.Agent), "queue_id": handle{k.Queue}, "kernel_id": id,
						"workgroup_size": xyz{k.Workgroup, 1, 1}, "grid_size": xyz{k.Grid, 1, 1}}})
			}
			for _, c := range mine.copies {
				copies = append(copies, map[string]any{"kind": copyKind, "correlation_id": corr{Internal: c.Corr},
					"start_timestamp": c.Start, "end_timestamp": c.End, "src_agent_id": h(c.Src), "dst_agent_id": h(c.Dst),
					"bytes": c.Bytes, "stream_id": handle{c.Stream}})
			}
			procs = append(procs, map[string]any{
				"metadata":       map[string]any{"pid": pid, "command": []string{"akisim", p.Source}},
				"agents":         agents,
				"kernel_symbols": symbols,
				"strings": map[string]any{"buffer_records": []map[string]any{
					{"kind": "NONE", "operations": []string{}},
					{"kind": "HIP_RUNTIME_API_EXT", "operations": names},
					{"kind": "KERNEL_DISPATCH", "operations": []string{"NONE", "KERNEL_DISPATCH_COMPLETE"}},
					{"kind": "MEMORY_COPY", "operations": []string{"MEMORY_COPY_NONE"}},
				}},
				"buffer_records": map[string]any{"kernel_dispatch": orEmpty(dispatches), "memory_copy": orEmpty(copies), "hip_api": orEmpty(calls)},
			})
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	enc.SetEscapeHTML(false)
	return enc.Encode(map[string]any{"rocprofiler-sdk-tool": procs})
}

// orEmpty writes an empty array, not null, for no records.
func orEmpty(rs []map[string]any) []map[string]any {
	if rs == nil {
		return []map[string]any{}
	}
	return rs
}
