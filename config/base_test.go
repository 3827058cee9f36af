package config

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
)

// A derived config is its base with the overrides applied as -set would:
// tables merge, arrays replace, bundles merge by GCD pair (either order),
// a new pair is added after the base's bundles, lanes 0 removes one.
func TestBaseMerge(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"b.toml": mini,
		"d.toml": `base = "b.toml"
name = "derived"

[gcd]
l2_bytes = 0

[host]
gcd_numa = [1, 1, 0, 0]

[[xgmi.bundle]]
gcds = [2, 0]
lanes = 2

[[xgmi.bundle]]
gcds = [1, 2]
lanes = 1

[[xgmi.bundle]]
gcds = [3, 2]
lanes = 0
`,
	})
	got, err := Load(filepath.Join(dir, "d.toml"), nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Load(filepath.Join(dir, "b.toml"), []string{"name=derived", "gcd.l2_bytes=0", "host.gcd_numa=[1,1,0,0]",
		"xgmi.bundle[0-2].lanes=2", "xgmi.bundle[1-2].lanes=1", "xgmi.bundle[2-3].lanes=0"})
	if err != nil {
		t.Fatal(err)
	}
	want.XGMI.Bundles[1].GCDs = [2]int{2, 0} // as the derived file spells the pair
	if !reflect.DeepEqual(got, want) {
		t.Errorf("derived config:\n%s", diff(t, want, got))
	}
	// -set indices: the base's bundles in order, then the added ones.
	got, err = Load(filepath.Join(dir, "d.toml"), []string{"xgmi.bundle[4].lanes=3"})
	if err != nil {
		t.Fatal(err)
	}
	if b := got.XGMI.Bundles[len(got.XGMI.Bundles)-1]; b != (Bundle{[2]int{1, 2}, 3}) {
		t.Errorf("xgmi.bundle[4] = %+v, want the added 1-2 with 3 lanes", b)
	}
}

// A derived config of fewer GCDs leaves out its base's bundles of the GCDs
// it drops, as lanes 0 would: it states its own bundles, no list of
// removed ones. A bundle the derived file itself gives to a missing GCD is
// still an error, as is -set gcd.count alone.
func TestBaseFewerGCDsDropBundles(t *testing.T) {
	fewer := "base = \"b.toml\"\n\n[gcd]\ncount = 2\n\n[host]\ngcd_numa = [0, 1]\n\n[nic]\ngcds = [0, 1]\n"
	bad := fewer + "\n[[xgmi.bundle]]\ngcds = [1, 3]\nlanes = 2\n"
	dir := writeFiles(t, map[string]string{"b.toml": mini, "d.toml": fewer, "bad.toml": bad})
	got, err := Load(filepath.Join(dir, "d.toml"), nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Load(filepath.Join(dir, "b.toml"), []string{"gcd.count=2", "host.gcd_numa=[0,1]", "nic.gcds=[0,1]",
		"xgmi.bundle[2-3].lanes=0", "xgmi.bundle[0-2].lanes=0", "xgmi.bundle[1-3].lanes=0"})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("derived config:\n%s", diff(t, want, got))
	}
	if len(got.XGMI.Bundles) != 1 || got.XGMI.Bundles[0].GCDs != [2]int{0, 1} {
		t.Errorf("bundles %+v, want mini's 0-1 alone", got.XGMI.Bundles)
	}
	_, err = Load(filepath.Join(dir, "bad.toml"), nil)
	if got, want := asError(t, err).Error(), dir+"/bad.toml:"+strconv.Itoa(lineOf(t, bad, "gcds = [1, 3]"))+": xgmi.bundle[3].gcds: GCD 3 does not exist (gcd.count = 2, ids 0..1)"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	_, err = Load(filepath.Join(dir, "b.toml"), []string{"gcd.count=2", "host.gcd_numa=[0,1]", "nic.gcds=[0,1]"})
	if err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("-set gcd.count=2 on the 4-GCD node: %v, want a bundle to a missing GCD", err)
	}
}

// A base may derive in turn; a missing key names every file it could be in.
func TestBaseChain(t *testing.T) {
	noFence := replace(t, mini, "fence_ns = 300\n", "")
	dir := writeFiles(t, map[string]string{
		"a.toml": "base = \"b.toml\"\nname = \"a\"\n",
		"b.toml": "base = \"c.toml\"\n[sdma]\nfence_ns = 7\n",
		"c.toml": mini,
		"x.toml": "base = \"y.toml\"\n",
		"y.toml": noFence,
	})
	n, err := Load(filepath.Join(dir, "a.toml"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if n.Name != "a" || n.SDMA.FenceNs != 7 || n.GCD.Count != 4 {
		t.Errorf("name %q, fence %v, %d GCDs; want a, 7, 4", n.Name, n.SDMA.FenceNs, n.GCD.Count)
	}
	_, err = Load(filepath.Join(dir, "x.toml"), nil)
	want := dir + "/y.toml:" + strconv.Itoa(lineOf(t, noFence, "[sdma]")) +
		": sdma.fence_ns: missing (every key must be given, in " + dir + "/x.toml or its base " + dir + "/y.toml)"
	if e := asError(t, err); e.Error() != want {
		t.Errorf("got  %s\nwant %s", e.Error(), want)
	}
}

func TestBaseErrors(t *testing.T) {
	badFence := replace(t, mini, "fence_ns = 300", "fence_ns = -1")
	chain := map[string]string{"c8.toml": mini}
	for i := 0; i < 8; i++ {
		chain["c"+strconv.Itoa(i)+".toml"] = "base = \"c" + strconv.Itoa(i+1) + ".toml\"\n"
	}
	cases := []struct {
		name  string
		files map[string]string
		load  string
		want  string // the error with D for the folder; see matches
	}{
		{"base not found", map[string]string{"d.toml": "base = \"nosuch.toml\"\n"}, "d.toml",
			"D/d.toml:1: base: nosuch.toml not found (no file D/nosuch.toml, no built-in config of that name)"},
		{"base not a string", map[string]string{"d.toml": "name = \"d\"\nbase = 3\n"}, "d.toml",
			"D/d.toml:2: base: must be a string naming a config file, got integer 3"},
		{"empty base", map[string]string{"d.toml": "base = \"\"\n"}, "d.toml",
			`D/d.toml:1: base: must name a .toml file, got string ""`},
		{"base not TOML", map[string]string{"d.toml": "base = \"/dev/zero\"\n"}, "d.toml",
			`D/d.toml:1: base: must name a .toml file, got string "/dev/zero"`},
		{"cycle", map[string]string{"a.toml": "base = \"b.toml\"\n", "b.toml": "\nbase = \"./a.toml\"\n"}, "a.toml",
			"D/b.toml:2: base: cycle (D/a.toml -> D/b.toml -> D/a.toml)"},
		{"own base", map[string]string{"a.toml": "base = \"a.toml\"\n"}, "a.toml",
			"D/a.toml:1: base: cycle (D/a.toml -> D/a.toml)"},
		{"too deep", chain, "c0.toml",
			"D/c7.toml:1: base: more than 8 configs deep (D/c0.toml -> D/c1.toml -> ..."},
		{"syntax error in base", map[string]string{"d.toml": "base = \"b.toml\"\n", "b.toml": "name = \"b\"\n\ngcd = [\n"}, "d.toml",
			"D/b.toml:3: gcd: TOML syntax: ..."},
		{"unknown key in derived", map[string]string{"d.toml": "base = \"b.toml\"\n\n[gcd]\nbogus = 1\n", "b.toml": mini}, "d.toml",
			"D/d.toml:4: gcd.bogus: unknown key (gcd has: count, xcds, compute_units, ..."},
		{"table replaced by a value", map[string]string{"d.toml": "base = \"b.toml\"\ngcd = 5\n", "b.toml": mini}, "d.toml",
			"D/d.toml:2: gcd: must be a table, got integer 5"},
		{"bad value in derived", map[string]string{"d.toml": "base = \"b.toml\"\n[sdma]\nfence_ns = -1\n", "b.toml": mini}, "d.toml",
			"D/d.toml:3: sdma.fence_ns: must be in ..."},
		{"bad value in base", map[string]string{"d.toml": "base = \"b.toml\"\nname = \"d\"\n", "b.toml": badFence}, "d.toml",
			"D/b.toml:" + strconv.Itoa(lineOf(t, badFence, "fence_ns = -1")) + ": sdma.fence_ns: must be in ..."},
		{"bad bundle in derived", map[string]string{"d.toml": "base = \"b.toml\"\n\n[[xgmi.bundle]]\ngcds = [3, 1]\nlanes = 17\n", "b.toml": mini}, "d.toml",
			"D/d.toml:5: xgmi.bundle[3].lanes: must be 1..16 ..."},
		{"pair given twice", map[string]string{"d.toml": "base = \"b.toml\"\n[xgmi]\nbundle = [\n {gcds = [0, 1], lanes = 2},\n {gcds = [1, 0], lanes = 1},\n]\n", "b.toml": mini}, "d.toml",
			"D/d.toml:5: xgmi.bundle[1].gcds: the same GCD pair as xgmi.bundle[0]"},
		{"new bundle without gcds", map[string]string{"d.toml": "base = \"b.toml\"\n\n[[xgmi.bundle]]\nlanes = 2\n", "b.toml": mini}, "d.toml",
			"D/d.toml:3: xgmi.bundle[4].gcds: missing (every key must be given, in D/d.toml or its base D/b.toml)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := writeFiles(t, c.files)
			_, err := Load(filepath.Join(dir, c.load), nil)
			got := asError(t, err).Error()
			want := strings.ReplaceAll(c.want, "D/", dir+"/")
			if !matches(got, want) {
				t.Errorf("got  %s\nwant %s", got, want)
			}
		})
	}
	t.Run("base is a folder", func(t *testing.T) {
		dir := writeFiles(t, map[string]string{"d.toml": "base = \"sub.toml\"\n"})
		if err := os.Mkdir(filepath.Join(dir, "sub.toml"), 0o755); err != nil {
			t.Fatal(err)
		}
		_, err := Load(filepath.Join(dir, "d.toml"), nil)
		if got, want := asError(t, err).Error(), dir+"/d.toml:1: base: "+dir+"/sub.toml is not a regular file"; got != want {
			t.Errorf("got  %s\nwant %s", got, want)
		}
	})
}

// A bare base name not beside the file is a built-in config; a built-in
// config's base is built in; a path is never looked up among them.
func TestBaseBuiltin(t *testing.T) {
	builtin := fstest.MapFS{
		"b.toml":   {Data: []byte(mini)},
		"d.toml":   {Data: []byte("base = \"b.toml\"\nname = \"d\"\n")},
		"e.toml":   {Data: []byte("base = \"nope.toml\"\n")},
		"bad.toml": {Data: []byte("bogus = 1\n" + mini)},
	}
	dir := writeFiles(t, map[string]string{
		"own.toml":     "base = \"b.toml\"\nname = \"own\"\n",
		"path.toml":    "base = \"sub/b.toml\"\n",
		"badbase.toml": "base = \"bad.toml\"\n",
	})
	node := func(file string, data []byte) (*Node, error) {
		s, err := NewSource(file, data, builtin)
		if err != nil {
			return nil, err
		}
		return s.Node(nil)
	}
	own := filepath.Join(dir, "own.toml")
	n, err := node(own, []byte(readFile(t, own)))
	if err != nil || n.Name != "own" || n.GCD.Count != 4 {
		t.Errorf("own.toml on the built-in b.toml: %+v, %v", n, err)
	}
	n, err = node("embedded:d.toml", builtin["d.toml"].Data)
	if err != nil || n.Name != "d" || n.GCD.Count != 4 {
		t.Errorf("embedded:d.toml: %+v, %v", n, err)
	}
	for file, want := range map[string]string{
		"embedded:e.toml": "embedded:e.toml:1: base: nope.toml not found among the built-in configs (b.toml, bad.toml, d.toml, e.toml)",
		filepath.Join(dir, "path.toml"): dir + "/path.toml:1: base: sub/b.toml not found (no file " + dir +
			"/sub/b.toml, no built-in config of that name)",
		filepath.Join(dir, "badbase.toml"): "embedded:bad.toml:1: bogus: unknown key (known: name, gcd, ...",
	} {
		var data []byte
		if name, ok := strings.CutPrefix(file, "embedded:"); ok {
			data = builtin[name].Data
		} else {
			data = []byte(readFile(t, file))
		}
		_, err := node(file, data)
		got := asError(t, err).Error()
		if !matches(got, want) {
			t.Errorf("%s:\n got  %s\n want %s", file, got, want)
		}
	}
}

// The shipped derived configs hold overrides only: every value they write
// differs from their base's (gcds only name a bundle), and they load the
// same from the built-in configs as from configs/.
func TestShippedDerivedOverridesOnly(t *testing.T) {
	builtin := os.DirFS(filepath.Dir(shippedPath(t, "frontier-node")))
	for _, name := range []string{"lumi-node", "frontier-dual-xgmi"} {
		t.Run(name, func(t *testing.T) {
			p := shippedPath(t, name)
			s, err := NewSource(p, []byte(readFile(t, p)), nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(s.layers) != 2 || !strings.HasSuffix(s.layers[0].file, "frontier-node.toml") {
				t.Fatalf("%s does not derive from frontier-node.toml", name)
			}
			merged, at, err := s.merge()
			if err != nil {
				t.Fatal(err)
			}
			base, _, err := (&Source{layers: s.layers[:1]}).merge()
			if err != nil {
				t.Fatal(err)
			}
			overrides := 0
			for k, pl := range at.at {
				v := valueAt(merged, k)
				if pl.layer != 1 || strings.Contains(k, "gcds") || isContainer(v) {
					continue
				}
				overrides++
				if reflect.DeepEqual(v, valueAt(base, k)) {
					t.Errorf("%s:%d: %s restates frontier-node's value %v", name, pl.line, k, v)
				}
			}
			if overrides == 0 {
				t.Error("no overrides")
			}
			fromDisk, err := s.Node(nil)
			if err != nil {
				t.Fatal(err)
			}
			e, err := NewSource("embedded:"+name+".toml", []byte(readFile(t, p)), builtin)
			if err != nil {
				t.Fatal(err)
			}
			if e.layers[0].file != "embedded:frontier-node.toml" {
				t.Errorf("built-in %s derives from %s", name, e.layers[0].file)
			}
			fromBuiltin, err := e.Node(nil)
			if err != nil || !reflect.DeepEqual(fromDisk, fromBuiltin) {
				t.Errorf("built-in %s differs: %v", name, err)
			}
		})
	}
}

var keyPartRE = regexp.MustCompile(`([A-Za-z0-9_-]+)|\[(\d+)\]`)

// valueAt is the generic value at a key path ("xgmi.bundle[6].lanes").
func valueAt(data any, key string) any {
	for _, m := range keyPartRE.FindAllStringSubmatch(key, -1) {
		if m[1] != "" {
			t, _ := data.(map[string]any)
			data = t[m[1]]
			continue
		}
		a, _ := asArray(data)
		i, _ := strconv.Atoi(m[2])
		if i >= len(a) {
			return nil
		}
		data = a[i]
	}
	return data
}

func isContainer(v any) bool {
	_, arr := asArray(v)
	_, table := v.(map[string]any)
	return arr || table
}
