package validate

import (
	"strings"
	"testing"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/configs"
)

// shippedWith is a shipped config with sets applied.
func shippedWith(t *testing.T, file string, sets ...string) *config.Node {
	t.Helper()
	data, err := configs.FS.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	src, err := config.NewSource(file, data, configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	n, err := src.Node(sets)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestOutsideCoverage: a covered config, alone or with a key validate
// varies itself, is inside; a -set of a key no point varies, or a config
// validate never runs, is outside, named by its first key and counted.
func TestOutsideCoverage(t *testing.T) {
	for _, c := range []struct {
		file string
		sets []string
		want string // "" inside; else the start of the line
	}{
		{"frontier-node.toml", nil, ""},
		{"mi300x-node.toml", nil, ""},
		{"frontier-node.toml", []string{"stack.rocm=5.7", "network.nodes=2", "env.HSA_ENABLE_SDMA=0", "env.NCCL_DEBUG=INFO"}, ""},
		{"mi300x-node.toml", []string{"gcd.compute_partition=CPX", "gcd.memory_partition=NPS4"}, ""},
		{"frontier-node.toml", []string{"xgmi.bundle[0-1].lanes=1"}, "outside what akisim validate checks: the key xgmi.bundle[0].lanes differs from frontier-node.toml, and no validate point sets it"},
		{"frontier-node.toml", []string{"xgmi.bundle[*].lanes=1"}, "xgmi.bundle[0].lanes and 5 more keys differ from frontier-node.toml, and no validate point sets them"},
		{"frontier-node.toml", []string{"env.NCCL_PROTO=LL"}, "the key env.NCCL_PROTO differs from frontier-node.toml"},
		{"frontier-dual-xgmi.toml", nil, " from frontier-node.toml"},
	} {
		got, err := Outside(shippedWith(t, c.file, c.sets...))
		if err != nil {
			t.Fatal(err)
		}
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("%s %v: %q, want %q", c.file, c.sets, got, c.want)
		}
		if strings.Contains(got, "\n") {
			t.Errorf("%s %v: %q is not one line", c.file, c.sets, got)
		}
	}
}

// TestVariedKeysAreKeys: every key the coverage skips names a value of a
// covered config, so a renamed key cannot silently widen the coverage.
func TestVariedKeysAreKeys(t *testing.T) {
	keys := map[string]bool{}
	for _, file := range coveredConfigs {
		vs, err := shippedWith(t, file).Values()
		if err != nil {
			t.Fatal(err)
		}
		for _, kv := range vs {
			keys[kv.Key] = true
		}
	}
	for _, k := range append(append([]string{}, variedKeys...), unsimulatedKeys...) {
		if !keys[k] {
			t.Errorf("%s is no key of %v", k, coveredConfigs)
		}
	}
}
