package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// builtinConfigs are the shipped configs as the binary holds them.
func builtinConfigs(t testing.TB) (dir string, names []string) {
	dir = filepath.Dir(shippedPath(t, "frontier-node"))
	return dir, Builtin(os.DirFS(dir))
}

// derivedError loads derived.toml (text after a base line naming base, a
// built-in config) with sets, and wants an error.
func derivedError(t *testing.T, base, text string, sets ...string) *Error {
	t.Helper()
	dir, _ := builtinConfigs(t)
	src, err := NewSource("derived.toml", []byte(fmt.Sprintf("base = %q\n%s", base, text)), os.DirFS(dir))
	if err == nil {
		_, err = src.Node(sets)
	}
	return asError(t, err)
}

// Issue 43: a derived config's own lanes = 0 bundles cut GCD 0 off; the
// error names the derived file's first lanes = 0, not the base's bundles.
func TestDerivedRemovedBundlesBlamed(t *testing.T) {
	text := "name = \"cut\"\n\n[[xgmi.bundle]]\ngcds = [0, 1]\nlanes = 0\n\n[[xgmi.bundle]]\ngcds = [0, 2]\nlanes = 0\n\n[[xgmi.bundle]]\ngcds = [0, 6]\nlanes = 0\n"
	got := derivedError(t, "frontier-node.toml", text).Error()
	if want := "derived.toml:6: xgmi.bundle: GCD 0 cannot reach GCD 1"; got != want {
		t.Errorf("\n got %s\nwant %s", got, want)
	}
	// The same bundles removed by -set: the last -set is named.
	got = derivedError(t, "frontier-node.toml", "", "xgmi.bundle[0-1].lanes=0", "xgmi.bundle[0-2].lanes=0", "xgmi.bundle[0-6].lanes=0").Error()
	if want := "-set xgmi.bundle[0-6].lanes=0: xgmi.bundle: GCD 0 cannot reach GCD 1"; got != want {
		t.Errorf("\n got %s\nwant %s", got, want)
	}
}

// A derived config's value that breaks a check against a base's value is
// blamed, at its own line; a base's value a derived config leaves alone
// keeps the blame.
func TestDerivedRelatedBlamed(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"[gcd]\ncount = 4\n", "derived.toml:3: host.gcd_numa: must have one entry per GCD (gcd.count = 4), got 8"}, // the bundles of GCDs 4-7 leave with them
		{"[rccl]\nsteps = 12\n", "derived.toml:3: env.NCCL_BUFFSIZE: must be a multiple of 768 (rccl.steps slots of whole 64-byte lines), got 4194304"},
		{"[stack]\nrocm = \"9.9\"\n", `derived.toml:3: stack.rocm: unknown release "9.9" (stack.rocm_release has 5.3, 5.7, 6.2)`},
		{"[[xgmi.bundle]]\ngcds = [1, 0]\nlanes = 2\n[[xgmi.bundle]]\ngcds = [7, 6]\nlanes = 2\n", ""}, // overrides by pair: loads
	} {
		dir, _ := builtinConfigs(t)
		src, err := NewSource("derived.toml", []byte("base = \"frontier-node.toml\"\n"+c.text), os.DirFS(dir))
		if err == nil {
			_, err = src.Node(nil)
		}
		if c.want == "" {
			if err != nil {
				t.Errorf("%q: %v", c.text, err)
			}
			continue
		}
		if got := asError(t, err).Error(); got != c.want {
			t.Errorf("%q:\n got %s\nwant %s", c.text, got, c.want)
		}
	}
}

// Every shipped config loads alone, so when a derived config or a -set
// changes one key and the result fails validation, the error names that
// derived file's line or that -set, never a base: each check names the
// keys it compares (issue 43 closes the class with this).
func TestOneKeyChangeBlamed(t *testing.T) {
	dir, _ := builtinConfigs(t)
	builtin := os.DirFS(dir)
	bases := []string{"frontier-node.toml", "frontier-cluster.toml", "mi300x-node.toml", "mi300a-node.toml"}
	if testing.Short() { // the deepest chain alone (mi300a on mi300x on frontier-node): the full suite takes all four
		bases = bases[3:]
	}
	for _, base := range bases {
		empty := fmt.Sprintf("base = %q\n", base)
		src, err := NewSource("derived.toml", []byte(empty), builtin)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range Params {
			if strings.Contains(p.Key, "bundle") || strings.Contains(p.Key, "release") || strings.Contains(p.Key, "tree_correction") {
				continue // under lists: the fuzz seeds and the cases above
			}
			table, key := splitTable(p.Key)
			for i, v := range probeValues(p) {
				if i < 3 { // a derived file reads its base again: beyond the edges, and 0
					text := fmt.Sprintf("%s%s%s = %s\n", empty, table, key, v)
					d, err := NewSource("derived.toml", []byte(text), builtin)
					if err == nil {
						_, err = d.Node(nil)
					}
					if err != nil {
						checkBlame(t, err, text, nil)
					}
				}
				sets := Sets([]string{p.Key + "=" + v})
				if _, err := src.NodeWith(sets); err != nil {
					checkBlame(t, err, empty, sets)
				}
			}
		}
		// Lists' elements: bundles removed or moved, releases renamed.
		var sets []string
		for i := range 16 {
			for _, v := range []string{"lanes=0", "lanes=17", "gcds=[0,1]", "gcds=[0,0]", "gcds=[0,9]"} {
				sets = append(sets, fmt.Sprintf("xgmi.bundle[%d].%s", i, v))
			}
			for _, v := range []string{`""`, "5.3", "5.7", "6.2", "9.9"} {
				sets = append(sets, fmt.Sprintf("stack.rocm_release[%d].rocm=%s", i, v))
			}
			sets = append(sets, fmt.Sprintf("host.gcd_numa[%d]=3", i), fmt.Sprintf("nic.numa[%d]=0", i), fmt.Sprintf("nic.switch[%d]=1", i))
		}
		for _, set := range sets {
			ovs := Sets([]string{set})
			if _, err := src.NodeWith(ovs); err != nil {
				checkBlame(t, err, empty, ovs)
			}
		}
	}
}

// probeValues are values of p at and beyond its edges, and small counts
// that break rules over several keys.
func probeValues(p Param) []string {
	switch {
	case len(p.OneOf) > 0:
		var out []string
		for _, s := range p.OneOf {
			out = append(out, strconv.Quote(s))
		}
		return append(out, `"other"`)
	case !p.Ranged && p.Rule == "" && p.Unit == "" && p.Lo == 0 && p.Hi == 0 && p.Key != "name":
		return []string{"true", "false", "0", "1"}
	case !p.Ranged:
		return []string{`"x"`, `""`}
	}
	var out []string
	for _, x := range []float64{p.Lo - 1, p.Hi * 2, 0, 1, 2, 3, p.Lo, p.Hi, p.Lo + 1, p.Hi - 1, 4, 5, 6, 8, 12, 48, 64, 100, 1000, 4096, 1 << 20, 1 << 30} {
		out = append(out, strconv.FormatFloat(x, 'g', -1, 64))
	}
	return out
}
