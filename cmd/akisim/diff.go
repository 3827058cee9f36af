package main

import (
	"io"

	"github.com/akisim/akisim/whatif"
)

// diffUsage is akisim diff's synopsis.
const diffUsage = "akisim diff RUN_A RUN_B: two outdirs (akisim -outdir DIR), a baseline and a what-if"

// runDiff is `akisim diff RUN_A RUN_B`: the config keys that differ
// between two outdirs, then their results and statistics side by side
// with the ratio B/A (package whatif).
func runDiff(args []string, stdout, stderr io.Writer) error {
	pos, err := commandArgs(nil, args, stderr, "diff", diffUsage)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return bad("diff: want two outdirs, got %d (%s)", len(pos), diffUsage)
	}
	var runs [2]*whatif.Run
	for i, dir := range pos {
		if runs[i], err = whatif.Open(dir); err != nil {
			return bad("diff: %v", err)
		}
	}
	if err := whatif.Write(stdout, runs[0], runs[1]); err != nil {
		return bad("diff: %v", err)
	}
	return nil
}
