package main

import (
	"bufio"
	"fmt"
	"io"
	"io/fs"
	"reflect"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/BurntSushi/toml"
	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/configs"
)

// listConfigs is `akisim configs`: the configs built into the binary, each
// with its name value, the software stack it models and the first line of
// its header comment; then what each release of the stack changes.
func listConfigs(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "config\tname\trocm\tcray_mpich\trccl\tdescription")
	var first *config.Node
	for _, file := range config.Builtin(configs.FS) {
		data, err := fs.ReadFile(configs.FS, file)
		if err != nil {
			return err
		}
		var head struct {
			Name string `toml:"name"`
		}
		if _, err := toml.Decode(string(data), &head); err != nil {
			head.Name = "?"
		}
		stack := config.Stack{ROCm: "?", CrayMPICH: "?", RCCL: "?"}
		if src, err := config.NewSource(file, data, configs.FS); err == nil {
			if n, err := src.Node(nil); err == nil {
				stack = n.Stack
				if first == nil {
					first = n
				}
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", file, head.Name, stack.ROCm, stack.CrayMPICH, stack.RCCL, description(string(data)))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if first == nil {
		return nil
	}
	s := first.Stack
	for _, l := range []struct {
		what, key string
		list      any
	}{
		{"ROCm", "stack.rocm", s.ROCmReleases},
		{"Cray MPICH", "stack.cray_mpich", s.CrayMPICHReleases},
		{"RCCL", "stack.rccl", s.RCCLReleases},
	} {
		if err := listReleases(w, l.what, l.key, reflect.ValueOf(l.list)); err != nil {
			return err
		}
	}
	return nil
}

// listReleases writes what each release of a list sets: one row per
// release, one column per key of its entries.
func listReleases(w io.Writer, what, key string, rels reflect.Value) error {
	t := rels.Type().Elem()
	if t.NumField() == 1 {
		var names []string
		for i := range rels.Len() {
			names = append(names, fmt.Sprint(rels.Index(i).Field(0).Interface()))
		}
		_, err := fmt.Fprintf(w, "\n%s releases (-set %s=R): %s; no key differs between them\n", what, key, strings.Join(names, ", "))
		return err
	}
	fmt.Fprintf(w, "\n%s releases (-set %s=R); each sets:\n", what, key)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	var cells []string
	for i := range t.NumField() {
		cells = append(cells, t.Field(i).Tag.Get("toml"))
	}
	fmt.Fprintln(tw, strings.Join(cells, "\t"))
	for r := range rels.Len() {
		v := rels.Index(r)
		cells = cells[:0]
		for i := range v.NumField() {
			f := v.Field(i)
			if f.Kind() == reflect.Float64 {
				cells = append(cells, strconv.FormatFloat(f.Float(), 'f', -1, 64))
				continue
			}
			cells = append(cells, fmt.Sprint(f.Interface()))
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	return tw.Flush()
}

// description is a config's first comment line, without the "akisim node
// description:" every shipped header starts with.
func description(text string) string {
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		if c, ok := strings.CutPrefix(line, "#"); ok {
			c = strings.TrimSpace(c)
			for _, kind := range []string{"node description:", "cluster description:"} {
				if _, rest, ok := strings.Cut(c, kind); ok {
					c = strings.TrimSpace(rest)
				}
			}
			return c
		}
		return ""
	}
	return ""
}
