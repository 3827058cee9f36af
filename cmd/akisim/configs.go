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
// with its name value, the ROCm release it models and the first line of
// its header comment; then what each ROCm release changes.
func listConfigs(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "config\tname\trocm\tdescription")
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
		rocm := "?"
		if src, err := config.NewSource(file, data, configs.FS); err == nil {
			if n, err := src.Node(nil); err == nil {
				rocm = n.Runtime.ROCm
				if first == nil {
					first = n
				}
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", file, head.Name, rocm, description(string(data)))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if first == nil {
		return nil
	}
	return listReleases(w, first.Runtime.Releases)
}

// listReleases writes what each ROCm release (runtime.rocm) sets: one row
// per release, one column per key of [[runtime.release]].
func listReleases(w io.Writer, rels []config.Release) error {
	fmt.Fprintln(w, "\nROCm releases (-set runtime.rocm=R); each sets:")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	t := reflect.TypeOf(config.Release{})
	var cells []string
	for i := range t.NumField() {
		cells = append(cells, t.Field(i).Tag.Get("toml"))
	}
	fmt.Fprintln(tw, strings.Join(cells, "\t"))
	for _, r := range rels {
		v := reflect.ValueOf(r)
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
