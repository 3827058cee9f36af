package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/akisim/akisim/commcheck"
	"github.com/akisim/akisim/trace"
	"github.com/akisim/akisim/workloads"
)

// runBoth runs args with long traces streamed and read whole, and
// returns both outcomes.
func runBoth(t *testing.T, args ...string) (streamed, whole string) {
	t.Helper()
	out := func() string {
		var o, e bytes.Buffer
		code := cli(args, &o, &e)
		return fmt.Sprintf("exit %d\n%s\nstderr:\n%s", code, o.String(), e.String())
	}
	streamed = out()
	noStreaming = true
	defer func() { noStreaming = false }()
	whole = out()
	return streamed, whole
}

// writeOps writes ops as a trace file.
func writeOps(t *testing.T, ops []trace.Op) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "ops.jsonl")
	var b bytes.Buffer
	if err := trace.Write(&b, ops); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A streamed trace gives the bytes a trace read whole gives: on stdout in
// every format and in the outdir's results.
func TestStreamedTraceMatchesWhole(t *testing.T) {
	var paths []string
	paths = append(paths, filepath.Join("..", "..", "traces", "peer-0-to-1.jsonl"),
		filepath.Join("..", "..", "traces", "h2d-pageable.jsonl"), filepath.Join("..", "..", "traces", "managed-fault.jsonl"))
	seen := map[string]bool{} // one run of each Comm|Scope family
	for _, r := range workloads.DefaultCommScope(8, 4).Runs() {
		family := strings.SplitN(r.Name, "/", 2)[0]
		if !seen[family] && strings.Contains(r.Name, ":20/") {
			seen[family] = true
			paths = append(paths, writeOps(t, r.Operations()))
		}
	}
	for _, r := range workloads.DefaultP2P(8).Runs()[:3] {
		paths = append(paths, writeOps(t, r.Operations()))
	}
	paths = append(paths, writeLongTrace(t, 20_000)) // several chunks, chunks dropped as they retire
	// two ranks, rank 1's calls all after rank 0's in the file: both
	// still start at time zero, side by side
	var two strings.Builder
	for _, rank := range []int{0, 1} {
		fmt.Fprintf(&two, `{"op":"malloc","buf":"d%d","gcd":%d,"bytes":1048576,"rank":%d}`+"\n", rank, rank, rank)
		fmt.Fprintf(&two, `{"op":"host_malloc","buf":"h%d","numa":0,"bytes":1048576,"rank":%d}`+"\n", rank, rank)
		for i := range 6000 {
			fmt.Fprintf(&two, `{"op":"memcpy_async","src":"h%d","dst":"d%d","bytes":65536,"stream":%d,"rank":%d}`+"\n", rank, rank, 1+i%2, rank)
		}
		fmt.Fprintf(&two, `{"op":"device_sync","rank":%d}`+"\n", rank)
	}
	twoRanks := filepath.Join(t.TempDir(), "two-ranks.jsonl")
	if err := os.WriteFile(twoRanks, []byte(two.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	paths = append(paths, twoRanks)
	streamedAny := 0
	for _, p := range paths {
		if s, err := trace.OpenStream(p, trace.Limits{GCDs: 8, NUMADomains: 4, GCDsPerNode: 8, NUMAPerNode: 4, HBMBytes: 1 << 36, NUMABytes: 1 << 37, Libraries: commcheck.Libraries}); err != nil {
			t.Fatal(err)
		} else if s != nil {
			streamedAny++
			s.Close()
		}
		for _, format := range []string{"csv", "json", "table"} {
			s, w := runBoth(t, "-trace", p, "-format", format)
			if s != w {
				t.Errorf("%s -format %s: streamed\n%.2000s\nwhole\n%.2000s", p, format, s, w)
			}
		}
		dirs := [2]string{filepath.Join(t.TempDir(), "s"), filepath.Join(t.TempDir(), "w")}
		for k, d := range dirs {
			noStreaming = k == 1
			var o, e bytes.Buffer
			if code := cli([]string{"-trace", p, "-format", "csv", "-outdir", d}, &o, &e); code != 0 {
				t.Fatalf("%s: exit %d: %s", p, code, e.String())
			}
			noStreaming = false
		}
		for _, f := range []string{"results.csv", "results.json", "config.toml"} {
			a, _ := os.ReadFile(filepath.Join(dirs[0], f))
			b, _ := os.ReadFile(filepath.Join(dirs[1], f))
			if len(a) == 0 || !bytes.Equal(a, b) {
				t.Errorf("%s: outdir %s differs (%d and %d bytes)", p, f, len(a), len(b))
			}
		}
	}
	t.Logf("%d of %d traces streamed", streamedAny, len(paths))
	if streamedAny < len(paths)/2 {
		t.Errorf("only %d of %d traces streamed", streamedAny, len(paths))
	}
}

// Bad input late in a streamed trace exits 2 with the file and line, and
// leaves neither rows on stdout nor an outdir, as when read whole.
func TestStreamedTraceBadLine(t *testing.T) {
	good, err := os.ReadFile(writeLongTrace(t, 10_000))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Count(string(good), "\n")
	for _, bad := range []struct{ line, want string }{
		{`{"op":"memcpy_async","src":"h","dst":"nowhere","bytes":64,"stream":1}`, "dst"},
		{`{"op":"kernel","gcd":0,"grid":64,"workgroup":64,"duration_ns":10,"oops":1}`, "oops"},
		{`{"op":"device_sync"`, ""},
	} {
		path := filepath.Join(t.TempDir(), "bad.jsonl")
		os.WriteFile(path, append(append([]byte{}, good...), bad.line+"\n"...), 0o644)
		dir := filepath.Join(t.TempDir(), "out")
		s, w := runBoth(t, "-trace", path, "-format", "csv", "-outdir", dir)
		if s != w {
			t.Errorf("%s: streamed\n%s\nwhole\n%s", bad.line, s, w)
		}
		want := fmt.Sprintf("%s:%d:", path, lines+1)
		if !strings.HasPrefix(s, "exit 2\n\nstderr:\nakisim: "+want) || !strings.Contains(s, bad.want) || strings.Count(s, "\n") != 4 {
			t.Errorf("%s: got\n%s\nwant exit 2, no stdout, one line naming %s", bad.line, s, want)
		}
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("%s: the outdir exists after bad input", bad.line)
		}
	}
}

// Output past what stdout holds in memory goes through a temporary file
// and reads the same.
func TestStdoutSpill(t *testing.T) {
	path := writeLongTrace(t, 3000)
	var small, big bytes.Buffer
	if code := cli([]string{"-trace", path, "-format", "csv"}, &big, &bytes.Buffer{}); code != 0 {
		t.Fatal(code)
	}
	old := spillBytes
	spillBytes = 1000
	defer func() { spillBytes = old }()
	if code := cli([]string{"-trace", path, "-format", "csv"}, &small, &bytes.Buffer{}); code != 0 {
		t.Fatal(code)
	}
	if big.Len() < 10*spillBytes || !bytes.Equal(small.Bytes(), big.Bytes()) {
		t.Errorf("spilled stdout differs: %d and %d bytes", small.Len(), big.Len())
	}
}

// The text table of a long trace spools its lines (in memory, or past
// spillBytes in a temporary file) and reads the same either way.
func TestTableSpill(t *testing.T) {
	path := writeLongTrace(t, 3000)
	var small, big bytes.Buffer
	if code := cli([]string{"-trace", path}, &big, &bytes.Buffer{}); code != 0 {
		t.Fatal(code)
	}
	old := spillBytes
	spillBytes = 1000
	defer func() { spillBytes = old }()
	if code := cli([]string{"-trace", path}, &small, &bytes.Buffer{}); code != 0 {
		t.Fatal(code)
	}
	if big.Len() < 10*spillBytes || !bytes.Equal(small.Bytes(), big.Bytes()) {
		t.Errorf("spilled table differs: %d and %d bytes", small.Len(), big.Len())
	}
	if !strings.HasPrefix(big.String(), "akisim: trace "+path+" on frontier-node (1 runs)\n# config ") ||
		!strings.Contains(big.String(), "# "+versionLine()+"\n\nworkload  case ") {
		t.Errorf("table starts %q", big.String()[:min(big.Len(), 200)])
	}
}
