package report

import (
	"fmt"
	"strconv"
	"strings"
)

// Rows name their endpoints one way in every workload: a GCD "gcd2", a
// NUMA domain (its host memory or its cores) "numa3", several places
// "gcd0+gcd4".

// GCD names GCD id as rows do: "gcd2".
func GCD(id int) string { return "gcd" + strconv.Itoa(id) }

// NUMA names NUMA domain id as rows do: "numa3".
func NUMA(id int) string { return "numa" + strconv.Itoa(id) }

// GCDs names a list of GCDs as rows do: "gcd0+gcd4".
func GCDs(ids []int) string {
	names := make([]string, len(ids))
	for i, id := range ids {
		names[i] = GCD(id)
	}
	return List(names...)
}

// List names several places as rows do, each once, in the order given:
// "numa3+numa1".
func List(names ...string) string {
	var out []string
	seen := map[string]bool{}
	for _, n := range names {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return strings.Join(out, "+")
}

// Devices renames the GCD endpoints of rows (gcd3, gcd0+gcd4) to what
// the node calls its devices (config.Node.DeviceName: gpu3, gpu0+gpu4).
// Workloads name devices gcd; a node of GPUs renames its rows once, as a
// run ends.
func Devices(rows []Row, name string) {
	if name == "gcd" {
		return
	}
	for i := range rows {
		rows[i].Src, rows[i].Dst = device(rows[i].Src, name), device(rows[i].Dst, name)
	}
}

// device renames the gcd endpoints of one src or dst.
func device(s, name string) string {
	if !strings.Contains(s, "gcd") {
		return s
	}
	parts := strings.Split(s, "+")
	for i, p := range parts {
		if e, err := ParseEndpoint(p); err == nil && e.Kind == "gcd" {
			parts[i] = name + strconv.Itoa(e.ID)
		}
	}
	return strings.Join(parts, "+")
}

// Endpoint is one parsed row endpoint.
type Endpoint struct {
	Kind string // "gcd", "gpu" or "numa"
	ID   int
}

// Device says whether the endpoint is a GPU device, a GCD or a GPU.
func (e Endpoint) Device() bool { return e.Kind == "gcd" || e.Kind == "gpu" }

// ParseEndpoint reads "gcd<id>", "gpu<id>" or "numa<id>" with a decimal
// id written as GCD and NUMA write it (no sign, no leading zeros).
func ParseEndpoint(s string) (Endpoint, error) {
	for _, kind := range []string{"gcd", "gpu", "numa"} {
		digits, ok := strings.CutPrefix(s, kind)
		if !ok {
			continue
		}
		id, err := strconv.Atoi(digits)
		if err != nil || id < 0 || strconv.Itoa(id) != digits {
			break
		}
		return Endpoint{Kind: kind, ID: id}, nil
	}
	return Endpoint{}, fmt.Errorf("endpoint %q is not gcd<id>, gpu<id> or numa<id>", s)
}
