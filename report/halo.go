package report

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
)

// WriteHalo writes the halo workload's rows as acm's bm_plot.py reads its
// samples: the median per case, unstacked by label, so each line is one
// set of arguments (grid, fields, radius, ...) and each column a label.
// A case is "label/dims/nf:F/r:R[/...]": the label, then the arguments;
// "key:value" arguments head their column with the key, the grid with
// "dims", any other bare argument with "arg". Missing cells print "-".
func WriteHalo(w io.Writer, rows []Row) error {
	var labels, keys []string
	args := map[string][]string{}
	cell := map[[2]string]string{}
	for _, r := range rows {
		label, rest, _ := strings.Cut(r.Case, "/")
		if !slices.Contains(labels, label) {
			labels = append(labels, label)
		}
		if _, seen := args[rest]; !seen {
			keys = append(keys, rest)
			args[rest] = strings.Split(rest, "/")
		}
		cell[[2]string{rest, label}] = FormatValue(r.Value)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "# median time (us) per label; one line per set of arguments")
	var head []string
	if len(keys) > 0 {
		for i, a := range args[keys[0]] {
			k, _, ok := strings.Cut(a, ":")
			switch {
			case ok:
				head = append(head, k)
			case i == 0:
				head = append(head, "dims")
			default:
				head = append(head, "arg")
			}
		}
	}
	fmt.Fprintln(tw, strings.Join(append(head, labels...), "\t"))
	for _, k := range keys {
		var line []string
		for _, a := range args[k] {
			if _, v, ok := strings.Cut(a, ":"); ok {
				a = v
			}
			line = append(line, a)
		}
		for _, l := range labels {
			v, ok := cell[[2]string{k, l}]
			if !ok {
				v = "-"
			}
			line = append(line, v)
		}
		fmt.Fprintln(tw, strings.Join(line, "\t"))
	}
	return tw.Flush()
}
