package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestSetupLinesSayTheWhatIf: a what-if's overrides appear as typed,
// quoted so a shell reads them back; a baseline says it has none.
func TestSetupLinesSayTheWhatIf(t *testing.T) {
	s := Setup{Config: "frontier-node", Files: []string{"embedded:frontier-node.toml"},
		Overrides: []string{"-set xgmi.bundle[*].lanes=1", "-env NCCL_PROTO=LL", "-set name=it's"},
		Stack:     Stack{ROCm: "6.2", CrayMPICH: "8.1.28", RCCL: "2.18.6"}, Version: "akisim (devel)"}
	got := s.Lines("# ")
	want := "# config frontier-node (embedded:frontier-node.toml)\n" +
		"# overrides -set 'xgmi.bundle[*].lanes=1' -env NCCL_PROTO=LL -set 'name=it'\\''s'\n" +
		"# stack ROCm 6.2, Cray MPICH 8.1.28, RCCL 2.18.6\n" +
		"# akisim (devel)\n"
	if got != want {
		t.Errorf("got\n%swant\n%s", got, want)
	}
	s.Overrides = nil
	if !strings.Contains(s.Lines(""), "\noverrides none\n") {
		t.Errorf("a baseline's lines do not say it has no override:\n%s", s.Lines(""))
	}
}

// TestWriteSetupReadsBack: setup.json holds every field, overrides as a
// list even when there is none.
func TestWriteSetupReadsBack(t *testing.T) {
	s := Setup{Config: "c", Files: []string{"c.toml"}, Stack: Stack{ROCm: "5.7"}, Version: "akisim v1"}
	var b bytes.Buffer
	if err := WriteSetup(&b, s); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"overrides": []`) || !strings.Contains(b.String(), `"command": []`) {
		t.Errorf("no empty overrides list in\n%s", b.String())
	}
	var back Setup
	if err := json.Unmarshal(b.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if back.Config != "c" || back.Stack.ROCm != "5.7" || back.Version != "akisim v1" || len(back.Overrides) != 0 {
		t.Errorf("read back %+v", back)
	}
}

// TestGBenchCustomContext: a run's setup goes into Google Benchmark's
// context as custom keys (AddCustomContext's), after the reporter's own,
// in order; the rest of the file is as without them.
func TestGBenchCustomContext(t *testing.T) {
	ctx, runs := sampleGBench()
	var plain, with bytes.Buffer
	if err := WriteGBench(&plain, ctx, runs); err != nil {
		t.Fatal(err)
	}
	ctx.Custom = [][2]string{{"akisim_overrides", "-set 'a[*].b=1'"}, {"akisim_config", "n"}}
	if err := WriteGBench(&with, ctx, runs); err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(plain.String(), `"library_build_type": "`+ctx.LibraryBuildType+`"`,
		`"library_build_type": "`+ctx.LibraryBuildType+`",`+"\n    "+`"akisim_overrides": "-set 'a[*].b=1'",`+"\n    "+`"akisim_config": "n"`, 1)
	if with.String() != want || want == plain.String() {
		t.Errorf("got\n%s\nwant\n%s", with.String(), want)
	}
}
