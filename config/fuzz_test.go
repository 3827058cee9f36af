package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// Nothing may panic on bad input, and every error is one line.
func checkNoPanic(t *testing.T, text string, sets []string) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("panic on sets %q, text:\n%s\n%v", sets, text, r)
		}
	}()
	n, err := Parse("fuzz.toml", []byte(text), sets)
	if err == nil {
		roundTrip(t, n)
		return
	}
	oneLineError(t, err)
}

// roundTrip checks that a node that loaded is written back as a config
// that loads as the same node.
func roundTrip(t *testing.T, n *Node) {
	t.Helper()
	var buf bytes.Buffer
	if err := n.WriteTOML(&buf); err != nil {
		t.Fatal(err)
	}
	m, err := Parse("again.toml", buf.Bytes(), nil)
	if err != nil {
		t.Fatalf("written config does not load: %v\n%s", err, buf.String())
	}
	if !reflect.DeepEqual(n, m) {
		t.Fatalf("round trip changed the node:\n%+v\n%+v", n, m)
	}
	if err := n.WriteJSON(io.Discard); err != nil {
		t.Fatal(err)
	}
}

// oneLineError checks err is a one-line *Error and returns it.
func oneLineError(t *testing.T, err error) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v is %T", err, err)
	}
	if strings.ContainsAny(err.Error(), "\r\n") {
		t.Fatalf("error not one line: %q", err.Error())
	}
	return e
}

var nastySets = []string{
	"", "=", "==", ".", "[", "]", "a[", "xgmi.bundle[", "xgmi.bundle[0-", "xgmi.bundle[-1].lanes=1",
	"xgmi.bundle[0-1]", "xgmi.bundle[0-1]=", "xgmi.bundle[0-1]={lanes=2}", "xgmi.bundle[0-3]={lanes=2}",
	"xgmi.bundle[0-3]={gcds=[0,3]}", "xgmi.bundle=[]", "xgmi.bundle=[{gcds=[0,1],lanes=1}]",
	"xgmi.bundle=[1,2]", "xgmi.bundle[0]=5", "xgmi.bundle[0].gcds=[1]", "xgmi.bundle[0].gcds[5]=1",
	"xgmi.bundle[0].gcds[1]=9", "xgmi=5", "xgmi={}", "gcd.count=99999999999999999999",
	"gcd.count=-9223372036854775808", "gcd.clock_ghz=nan", "gcd.clock_ghz=-inf", "name=\"\\u0000\"",
	"host.gcd_numa=[]", "host.gcd_numa[0]=[1]", "routing.kernel_ties='''x'''", "routing.sdma=\"\"\"\n\"\"\"",
	"gcd.count=1", "xgmi.bundle[1-1].gcds=[0,0]", "host.gcd_numa=[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59,60,61,62,63,64,65]",
	"gcd.count=64", "xgmi.bundle[0-63].lanes=1", "dram={efficiency=2}", "t=1979-05-27", "name=1979-05-27T00:00:00Z",
	"name=a\xffb", "name=a\tb", "name=\"\\u0007\"",
}

func TestNoPanicTruncated(t *testing.T) {
	text := readFile(t, shippedPath(t, "frontier-node"))
	step := 7
	if testing.Short() { // every 61st cut, a prime apart so cuts fall at every offset within a line: the full suite takes every 7th
		step = 61
	}
	for i := 0; i <= len(text); i += step {
		checkNoPanic(t, text[:i], nil)
		checkNoPanic(t, text[i:], nil)
	}
	checkNoPanic(t, "", nil)
	checkNoPanic(t, "\x00\xff\xfe", nil)
	checkNoPanic(t, "[[[[", nil)
	checkNoPanic(t, "a = [[[[", nil)
	checkNoPanic(t, "a = {{{", nil)
	checkNoPanic(t, "\"\"\"", nil)
}

func TestNoPanicSets(t *testing.T) {
	text := readFile(t, shippedPath(t, "frontier-node"))
	for _, s := range nastySets {
		checkNoPanic(t, text, []string{s})
		checkNoPanic(t, mini, []string{s, s})
	}
}

func FuzzParse(f *testing.F) {
	f.Add(mini, "xgmi.bundle[0-3].lanes=1")
	f.Add("name = 1\n[[xgmi.bundle]]\ngcds=[0]\n", "gcd.count=2")
	for _, s := range nastySets {
		f.Add(mini, s)
	}
	f.Fuzz(func(t *testing.T, text, set string) {
		checkNoPanic(t, text, []string{set})
	})
}

// FuzzSet fuzzes -set overrides of the shipped Frontier config: any two
// overrides either load (and round-trip) or fail with one line, never a
// panic; seeded with every key at its edges.
func FuzzSet(f *testing.F) {
	for _, s := range nastySets {
		f.Add(s, "")
	}
	ints, floats := numericKeys(reflect.TypeFor[Node](), "")
	for _, k := range ints {
		f.Add(k+"=1", k+"=1073741824")
	}
	for _, k := range floats {
		f.Add(k+"=0", k+"=1e9")
	}
	f.Add("xgmi.bundle[0-3].lanes=1", "xgmi.bundle[0-1].lanes=0")
	f.Add("host.gcd_numa=[0,0,0,0,0,0,0,0]", "host.numa_domains=1")
	text := readFile(f, shippedPath(f, "frontier-node"))
	f.Fuzz(func(t *testing.T, a, b string) {
		checkNoPanic(t, text, []string{a, b})
	})
}

// FuzzLayers fuzzes a derived config (its TOML after a base line naming
// one of the shipped configs) with a -set and an -env: nothing panics,
// every error is one line, and as every shipped config loads alone, no
// error blames the base: it names the derived file, at one of its lines,
// or an override as the user gave it.
func FuzzLayers(f *testing.F) {
	builtin := os.DirFS(filepath.Dir(shippedPath(f, "frontier-node")))
	bases := Builtin(builtin)
	for i := range bases {
		f.Add(uint8(i), "", "", "")
	}
	// issue 43: bundles a derived config removes, a release -set renames.
	f.Add(uint8(0), "[[xgmi.bundle]]\ngcds = [0, 1]\nlanes = 0\n[[xgmi.bundle]]\ngcds = [0, 2]\nlanes = 0\n[[xgmi.bundle]]\ngcds = [0, 6]\nlanes = 0\n", "", "")
	f.Add(uint8(0), "", "stack.rocm_release[0].rocm=5.7", "")
	f.Add(uint8(0), "[gcd]\ncount = 4\n", "host.gcd_numa=[0,0,1,1]", "NCCL_PROTO=LL")
	f.Add(uint8(0), "[rccl]\nsteps = 12\n", "", "NCCL_BUFFSIZE=4194304")
	f.Add(uint8(0), "[env]\nNCCL_PROTO = \"LL\"\n", "", "NCCL_PROTO=Simple")
	f.Add(uint8(0), "[[stack.rocm_release]]\nrocm = \"5.3\"\n", "xgmi.bundle[*].lanes=0", "HSA_XNACK=1")
	f.Add(uint8(0), "xgmi = 5\n", "gcd={count=4}", "X")
	f.Add(uint8(0), "[gcd]\nxcds = 8\ncompute_partition = \"CPX\"\n", "network.nodes=2", "")
	f.Add(uint8(0), "[host]\nmemory = \"hbm\"\n", "", "")
	f.Add(uint8(0), "[sim]\nl2_block_bytes = 32\n", "gcd.line_bytes=64", "")
	f.Add(uint8(0), "[mall]\nbytes = 4096\n", "", "")
	ints, floats := numericKeys(reflect.TypeFor[Node](), "")
	for i, k := range ints {
		table, key := splitTable(k)
		f.Add(uint8(i), table+key+" = 0\n", k+"=1", "")
	}
	for i, k := range floats {
		table, key := splitTable(k)
		f.Add(uint8(i), table+key+" = 1e12\n", "", "")
	}
	for _, s := range nastySets {
		f.Add(uint8(0), "", s, s)
	}
	f.Fuzz(func(t *testing.T, b uint8, text, set, env string) {
		checkLayers(t, builtin, fmt.Sprintf("base = %q\n%s", bases[int(b)%len(bases)], text), set, env)
	})
}

// splitTable turns a key path into a TOML table header and the key in it
// ("gcd.count" -> "[gcd]\n", "count"); elements of lists are left whole.
func splitTable(k string) (string, string) {
	p := parentKey(k)
	if p == "" || strings.Contains(k, "[") {
		return "", k
	}
	return "[" + p + "]\n", k[len(p)+1:]
}

// checkLayers loads derived (derived.toml, over the built-in configs) with
// the override -set set and -env env, each if not empty.
func checkLayers(t *testing.T, builtin fs.FS, derived, set, env string) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("panic on -set %q -env %q, derived.toml:\n%s\n%v", set, env, derived, r)
		}
	}()
	var ovs []Override
	if set != "" {
		ovs = append(ovs, Override{Set: set})
	}
	if o, ok := EnvOverride(env); ok {
		ovs = append(ovs, o)
	}
	src, err := NewSource("derived.toml", []byte(derived), builtin)
	if err != nil {
		checkBlame(t, err, derived, ovs)
		return
	}
	checkNode(t, src, derived, ovs)
}

// checkNode resolves src (derived.toml's text derived) with ovs: the node
// round-trips, or the error blames derived.toml or one of ovs.
func checkNode(t *testing.T, src *Source, derived string, ovs []Override) {
	t.Helper()
	n, err := src.NodeWith(ovs)
	if err == nil {
		roundTrip(t, n)
		return
	}
	checkBlame(t, err, derived, ovs)
}

// checkBlame checks err is one line and names derived.toml, at one of
// its lines, or overrides of ovs as typed.
func checkBlame(t *testing.T, err error, derived string, ovs []Override) {
	t.Helper()
	e := oneLineError(t, err)
	if e.Set != "" {
		given := func(typed string) bool {
			return slices.ContainsFunc(ovs, func(o Override) bool { return o.Typed() == typed })
		}
		if !given(Override{Set: e.Set, Flag: e.Flag}.Typed()) || e.Also != "" && !given(e.Also) {
			t.Errorf("%v: names an override not given (%q)", err, ovs)
		}
		return
	}
	if e.File != "derived.toml" || e.Line > strings.Count(derived, "\n")+1 {
		t.Errorf("%v: blames a valid base, or no line of derived.toml (%q):\n%s", err, ovs, derived)
	}
}
