package main

import (
	"encoding/csv"
	"fmt"
	"strings"
	"testing"
)

// routesCSV runs akisim routes -format csv and returns its rows by
// traffic type, requester and memory.
func routesCSV(t *testing.T, args ...string) map[string][]string {
	t.Helper()
	code, out, errs := akisim(t, append([]string{"routes", "-format", "csv"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(recs[0], ","); got != "traffic,requester,memory,hops,route,links,choice" {
		t.Fatalf("header %q", got)
	}
	rows := map[string][]string{}
	for _, r := range recs[1:] {
		k := r[0] + " " + r[1] + " -> " + r[2]
		if rows[k] != nil {
			t.Errorf("%s listed twice", k)
		}
		rows[k] = r
	}
	return rows
}

// Every ordered GCD pair has one row per traffic type, every NUMA domain
// one per GCD and traffic type, and nothing else.
func TestRoutesListsEveryPair(t *testing.T) {
	rows := routesCSV(t)
	for a := 0; a < 8; a++ {
		for b := 0; b < 8; b++ {
			for _, traffic := range []string{"sdma", "kernel", "signal"} {
				k := fmt.Sprintf("%s GCD %d -> GCD %d", traffic, a, b)
				if _, ok := rows[k]; ok == (a == b) {
					t.Errorf("%s: listed %v", k, ok)
				}
			}
		}
	}
	for d := 0; d < 4; d++ {
		for g := 0; g < 8; g++ {
			for _, k := range []string{
				fmt.Sprintf("sdma GCD %d -> NUMA %d", g, d), fmt.Sprintf("kernel GCD %d -> NUMA %d", g, d),
				fmt.Sprintf("signal GCD %d -> NUMA %d", g, d), fmt.Sprintf("host cores, NUMA %d -> GCD %d", d, g),
			} {
				if rows[k] == nil {
					t.Errorf("%s missing", k)
				}
			}
		}
	}
	if len(rows) != 8*7*3+4*8*4 {
		t.Errorf("%d rows, want %d", len(rows), 8*7*3+4*8*4)
	}
	// widest SDMA data takes three hops where the kernel takes two (seed paper)
	if r := rows["sdma GCD 1 -> GCD 7"]; r[3] != "3" || r[4] != "1-0-6-7" {
		t.Errorf("sdma 1->7: %v", r)
	}
	if r := rows["kernel GCD 1 -> GCD 7"]; r[4] != "1-3-7" || r[6] != "one route" {
		t.Errorf("kernel 1->7: %v", r)
	}
	// host memory on another domain crosses the IO die
	if r := rows["sdma GCD 0 -> NUMA 2"]; r[4] != "0-H-N2" || !strings.Contains(r[5], "IO die to NUMA 2") {
		t.Errorf("sdma 0 -> NUMA 2: %v", r)
	}
	if r := rows["sdma GCD 0 -> NUMA 3"]; strings.Contains(r[5], "IO die") {
		t.Errorf("GCD 0's own domain crosses the IO die: %v", r)
	}
}

// Removing the 0-2 bundle sends 0->2 traffic over three hops (0's
// neighbours 1 and 6 have no link to 2).
func TestRoutesFollowSet(t *testing.T) {
	before := routesCSV(t)["kernel GCD 0 -> GCD 2"]
	after := routesCSV(t, "-set", "xgmi.bundle[0-2].lanes=0")["kernel GCD 0 -> GCD 2"]
	if before[4] != "0-2" || before[5] != "xGMI 0-2 (1 lane, 50 GB/s)" {
		t.Errorf("before: %v", before)
	}
	if after[3] != "3" || after[4] == before[4] || strings.Contains(after[5], "xGMI 0-2") {
		t.Errorf("after removing 0-2: %v", after)
	}
	tied := routesCSV(t, "-set", "routing.kernel_ties=spray")["kernel GCD 0 -> GCD 3"]
	if tied[4] != "0-1-3 | 0-2-3" || tied[6] != "transactions alternate" {
		t.Errorf("sprayed 0->3: %v", tied)
	}
}

func TestRoutesBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"routes", "-format", "json"}, `akisim: -format: akisim routes writes text or csv, not "json"` + "\n"},
		{[]string{"routes", "-workload", "p2p"}, "akisim: -workload: does not apply to akisim routes\n"},
		{[]string{"routes", "-set", "routing.sdma_ties=spray"}, "akisim: -set routing.sdma_ties=spray: must be \"table\" or \"per_copy\", got \"spray\"\n"},
	} {
		code, out, errs := akisim(t, c.args...)
		if code != 2 || out != "" || errs != c.msg {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 and %q", c.args, code, out, errs, c.msg)
		}
	}
}

// The text table has a title line, a header and one line per route row.
func TestRoutesText(t *testing.T) {
	code, out, _ := akisim(t, "routes")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if code != 0 || !strings.HasPrefix(lines[0], "# frontier-node: ") || len(lines) != 2+8*7*3+4*8*4 {
		t.Errorf("exit %d, %d lines, first %q", code, len(lines), lines[0])
	}
	if !strings.HasPrefix(lines[1], "traffic  requester") {
		t.Errorf("header %q", lines[1])
	}
}
