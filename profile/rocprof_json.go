package profile

import (
	"encoding/json"
	"fmt"
	"github.com/akisim/akisim/internal/capped"
	"slices"
	"strings"
)

// rocprofv3's JSON output (--output-format json: <prefix>_results.json;
// notes in docs/model/profiles-gem5.md "Importing profiles"): {"rocprofiler-sdk-tool":
// [one object per process]}, each with its agents (joined by id.handle,
// which is not a node id), kernel_symbols indexed by kernel_id, the
// strings tables that name records' kind and operation, and
// buffer_records' kernel_dispatch, memory_copy (with bytes) and hip_api.

type jsonHandle struct {
	Handle uint64 `json:"handle"`
}

type jsonCorr struct {
	Internal uint64 `json:"internal"`
}

type jsonXYZ struct{ X, Y, Z int64 }

type jsonProcess struct {
	Metadata struct {
		PID int64 `json:"pid"`
	} `json:"metadata"`
	Agents []struct {
		ID     *jsonHandle     `json:"id"`
		Type   json.RawMessage `json:"type"`
		NodeID *int            `json:"node_id"`
	} `json:"agents"`
	KernelSymbols []struct {
		KernelID      uint64 `json:"kernel_id"`
		KernelName    string `json:"kernel_name"`
		FormattedName string `json:"formatted_kernel_name"`
	} `json:"kernel_symbols"`
	Counters []struct {
		ID   jsonHandle `json:"id"`
		Name string     `json:"name"`
	} `json:"counters"`
	CallbackRecords struct {
		CounterCollection []struct {
			DispatchData struct {
				Corr jsonCorr `json:"correlation_id"`
			} `json:"dispatch_data"`
			Records []struct {
				Counter jsonHandle `json:"counter_id"`
				Value   float64    `json:"value"`
			} `json:"records"`
		} `json:"counter_collection"`
	} `json:"callback_records"`
	Strings struct {
		BufferRecords []struct {
			Kind       string   `json:"kind"`
			Operations []string `json:"operations"`
		} `json:"buffer_records"`
	} `json:"strings"`
	BufferRecords *struct {
		KernelDispatch []struct {
			ThreadID     uint64     `json:"thread_id"`
			Corr         jsonCorr   `json:"correlation_id"`
			Start        int64      `json:"start_timestamp"`
			End          int64      `json:"end_timestamp"`
			Stream       jsonHandle `json:"stream_id"`
			DispatchInfo *struct {
				Agent     jsonHandle `json:"agent_id"`
				Queue     jsonHandle `json:"queue_id"`
				KernelID  uint64     `json:"kernel_id"`
				Workgroup jsonXYZ    `json:"workgroup_size"`
				Grid      jsonXYZ    `json:"grid_size"`
			} `json:"dispatch_info"`
		} `json:"kernel_dispatch"`
		MemoryCopy []struct {
			Corr   jsonCorr   `json:"correlation_id"`
			Start  int64      `json:"start_timestamp"`
			End    int64      `json:"end_timestamp"`
			Src    jsonHandle `json:"src_agent_id"`
			Dst    jsonHandle `json:"dst_agent_id"`
			Bytes  int64      `json:"bytes"`
			Stream jsonHandle `json:"stream_id"`
		} `json:"memory_copy"`
		HIPAPI  []jsonAPI `json:"hip_api"`
		RCCLAPI []jsonAPI `json:"rccl_api"` // --rccl-trace
	} `json:"buffer_records"`
}

// jsonAPI is an API call's record (hip_api, rccl_api).
type jsonAPI struct {
	Kind      int         `json:"kind"`
	Operation int         `json:"operation"`
	Corr      jsonCorr    `json:"correlation_id"`
	Start     int64       `json:"start_timestamp"`
	End       int64       `json:"end_timestamp"`
	ThreadID  uint64      `json:"thread_id"`
	Stream    *jsonHandle `json:"stream_id"` // 7.0
	Args      []struct {
		Name  string `json:"name"`
		Value string `json:"value"`
	} `json:"args"` // 7.0
}

// jsonFiles finds the *_results.json files under path (or path itself).
func jsonFiles(path string) ([]string, error) {
	return findFiles(path, func(p string) bool { return strings.HasSuffix(p, "_results.json") })
}

// ReadRocprofJSON reads rocprofv3's JSON output: a results file, or every
// *_results.json under a folder; its processes, in order, are the ranks.
func ReadRocprofJSON(path string) (*Profile, error) {
	files, err := jsonFiles(path)
	return readAll(path, files, err, "rocprofv3 JSON output (*_results.json)", func(p *Profile, _ int, f string) error { return p.readJSONFile(f) })
}

func (p *Profile) readJSONFile(file string) error {
	b, err := capped.ReadFile(file, "a rocprofv3 JSON file", MaxFileBytes)
	if err != nil {
		return err
	}
	var top struct {
		Tool *[]jsonProcess `json:"rocprofiler-sdk-tool"`
	}
	if err := json.Unmarshal(b, &top); err != nil {
		return fmt.Errorf("%s: not rocprofv3 JSON: %v", file, err)
	}
	if top.Tool == nil {
		return fmt.Errorf("%s: not rocprofv3 JSON: no \"rocprofiler-sdk-tool\" key at the top", file)
	}
	for i := range *top.Tool {
		if err := p.jsonProcess(file, &(*top.Tool)[i]); err != nil {
			return err
		}
	}
	return nil
}

// jsonProcess adds one process's records as the next rank; its agents are
// known by node id.
func (p *Profile) jsonProcess(file string, jp *jsonProcess) error {
	proc := p.processes
	p.processes++
	where := func(what string, i int) string { return fmt.Sprintf("%s: process %d: %s[%d]", file, proc, what, i) }
	if jp.BufferRecords == nil {
		return fmt.Errorf("%s: process %d: no \"buffer_records\" (run rocprofv3 with --kernel-trace, --memory-copy-trace, --hip-trace)", file, proc)
	}
	handles := map[uint64]uint64{} // the process's handle -> agent id
	for i, a := range jp.Agents {
		if a.ID == nil || a.NodeID == nil {
			return fmt.Errorf("%s: agent has no id.handle or node_id", where("agents", i))
		}
		typ := strings.Trim(string(a.Type), `"`)
		gpu := typ == "2" || typ == "GPU"
		if !gpu && typ != "1" && typ != "CPU" {
			continue
		}
		id := uint64(*a.NodeID) // handles differ between processes, node ids do not
		handles[a.ID.Handle] = id
		if !slices.ContainsFunc(p.Agents, func(a Agent) bool { return a.ID == id }) {
			p.Agents = append(p.Agents, Agent{ID: id, NodeID: *a.NodeID, GPU: gpu})
		}
	}
	agent := func(h uint64, what string, i int) (uint64, error) {
		id, ok := handles[h]
		if !ok {
			return 0, fmt.Errorf("%s: agent handle %d is not in \"agents\"", where(what, i), h)
		}
		return id, nil
	}
	names := map[uint64]string{}
	for _, s := range jp.KernelSymbols {
		names[s.KernelID] = s.FormattedName
		if s.FormattedName == "" {
			names[s.KernelID] = s.KernelName
		}
	}
	br := jp.BufferRecords
	for i, r := range br.KernelDispatch {
		d := r.DispatchInfo
		if d == nil {
			return fmt.Errorf("%s: no dispatch_info", where("kernel_dispatch", i))
		}
		a, err := agent(d.Agent.Handle, "kernel_dispatch", i)
		if err != nil {
			return err
		}
		if r.End < r.Start {
			return fmt.Errorf("%s: end_timestamp before start_timestamp", where("kernel_dispatch", i))
		}
		wg, err := workItems(d.Workgroup.X, max(1, d.Workgroup.Y), max(1, d.Workgroup.Z))
		if err != nil {
			return fmt.Errorf("%s: workgroup_size: %v", where("kernel_dispatch", i), err)
		}
		grid, err := workItems(d.Grid.X, max(1, d.Grid.Y), max(1, d.Grid.Z))
		if err != nil {
			return fmt.Errorf("%s: grid_size: %v", where("kernel_dispatch", i), err)
		}
		p.Kernels = append(p.Kernels, Kernel{Process: proc, Corr: r.Corr.Internal, Agent: a, Queue: d.Queue.Handle, Stream: r.Stream.Handle,
			Name: names[d.KernelID], Start: r.Start, End: r.End, Grid: grid, Workgroup: wg})
	}
	for i, r := range br.MemoryCopy {
		src, err := agent(r.Src.Handle, "memory_copy", i)
		if err != nil {
			return err
		}
		dst, err := agent(r.Dst.Handle, "memory_copy", i)
		if err != nil {
			return err
		}
		if r.End < r.Start || r.Bytes < 0 {
			return fmt.Errorf("%s: end before start, or negative bytes", where("memory_copy", i))
		}
		p.Copies = append(p.Copies, Copy{Process: proc, Corr: r.Corr.Internal, Src: src, Dst: dst, Bytes: r.Bytes, Stream: r.Stream.Handle,
			Start: r.Start, End: r.End})
	}
	counter := map[uint64]string{}
	for _, c := range jp.Counters {
		counter[c.ID.Handle] = c.Name
	}
	byCorr := map[uint64]map[string]float64{}
	for i, d := range jp.CallbackRecords.CounterCollection {
		for _, r := range d.Records {
			name, ok := counter[r.Counter.Handle]
			if !ok || r.Value < 0 || r.Value > 1e15 {
				return fmt.Errorf("%s: counter %d (value %g) is not in \"counters\" or not a count", where("counter_collection", i), r.Counter.Handle, r.Value)
			}
			corr := d.DispatchData.Corr.Internal
			if byCorr[corr] == nil {
				byCorr[corr] = map[string]float64{}
			}
			byCorr[corr][name] += r.Value // per instance: summed, as rocprofv3's CSV does
		}
	}
	p.counterBytes(proc, byCorr)
	for i, r := range slices.Concat(br.HIPAPI, br.RCCLAPI) {
		what, rccl := "hip_api", i >= len(br.HIPAPI)
		if rccl {
			what, i = "rccl_api", i-len(br.HIPAPI)
		}
		name := ""
		if k := r.Kind; k >= 0 && k < len(jp.Strings.BufferRecords) && r.Operation >= 0 && r.Operation < len(jp.Strings.BufferRecords[k].Operations) {
			name = jp.Strings.BufferRecords[k].Operations[r.Operation]
		}
		if name == "" {
			return fmt.Errorf("%s: kind %d operation %d has no name in strings.buffer_records", where(what, i), r.Kind, r.Operation)
		}
		if r.End < r.Start {
			return fmt.Errorf("%s: end_timestamp before start_timestamp", where(what, i))
		}
		c := Call{Process: proc, Thread: r.ThreadID, Corr: r.Corr.Internal, Name: name, Start: r.Start, End: r.End}
		if r.Stream != nil {
			c.Stream, c.HasStream = r.Stream.Handle, true
		}
		for _, a := range r.Args {
			if a.Name == "event" && !rccl {
				c.Event = a.Value
			}
		}
		if rccl {
			c.RCCL, c.HasStream, c.Args = true, false, map[string]string{}
			for _, a := range r.Args {
				c.Args[a.Name] = a.Value
			}
		}
		p.Calls = append(p.Calls, c)
	}
	return nil
}
