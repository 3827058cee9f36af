package main

import (
	"bufio"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"text/tabwriter"

	"github.com/BurntSushi/toml"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/configs"
)

// listConfigs is `akisim configs`: the configs built into the binary, each
// with its name value and the first line of its header comment.
func listConfigs(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "config\tname\tdescription")
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
		fmt.Fprintf(tw, "%s\t%s\t%s\n", file, head.Name, description(string(data)))
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
