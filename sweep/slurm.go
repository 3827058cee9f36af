package sweep

import (
	"bytes"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/akisim/akisim/internal/usage"
	"github.com/akisim/akisim/output"
)

// The Slurm executor submits the points left as one job array (sbatch
// --array --wait), one task per point, each running this akisim binary
// (so it must be where the compute nodes see it, as must -outdir), and
// then reads what the tasks left in the points' folders.

// runSlurm runs the points through Slurm; a line for each that failed.
func (s *Sweep) runSlurm(todo []Point) ([]string, error) {
	if len(todo) == 0 {
		return nil, nil
	}
	sbatch, err := exec.LookPath("sbatch")
	if err != nil {
		return nil, usage.Errorf("sweep -slurm: sbatch is not on PATH (Slurm's client commands are needed to submit the points)")
	}
	script, err := s.jobScript(todo)
	if err != nil {
		return nil, err
	}
	args := append([]string{"--parsable", "--wait", "--array=0-" + fmt.Sprint(len(todo)-1)}, s.sbatch...)
	args = append(args, script)
	cmd := exec.Command(sbatch, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	runErr := cmd.Run() // with --wait: nonzero when a task failed
	job := strings.TrimSpace(strings.Split(out.String(), ";")[0])
	if job == "" {
		return nil, fmt.Errorf("sweep -slurm: sbatch %s: %v: %s", strings.Join(args, " "), runErr, strings.TrimSpace(errb.String()))
	}
	if !s.quiet {
		fmt.Fprintf(s.stderr, "akisim sweep: Slurm job %s ran %d points\n", job, len(todo))
	}
	var failures []string
	for k, p := range todo {
		s.ran[p.ID] = true
		if s.done(p) {
			continue
		}
		log := filepath.Join(s.logsDir, fmt.Sprintf("slurm-%s_%d.log", job, k))
		failures = append(failures, fmt.Sprintf("point %d (%s) failed in Slurm job %s_%d: %s; log %s",
			p.Index, s.Label(p), job, k, lastLine(log), log))
	}
	if len(failures) == 0 && runErr != nil {
		return nil, fmt.Errorf("sweep -slurm: job %s: %v: %s", job, runErr, strings.TrimSpace(errb.String()))
	}
	return failures, nil
}

// jobScript writes the array job's script: task k runs the k-th point.
func (s *Sweep) jobScript(todo []Point) (string, error) {
	abs := func(p string) string {
		a, err := filepath.Abs(p)
		if err != nil {
			return p
		}
		return a
	}
	var b strings.Builder
	b.WriteString("#!/bin/sh\n# akisim sweep: one array task per point (written by akisim sweep -slurm)\n")
	b.WriteString("#SBATCH --job-name=akisim-sweep\n")
	fmt.Fprintf(&b, "#SBATCH --output=%s\n", abs(filepath.Join(s.logsDir, "slurm-%A_%a.log")))
	b.WriteString("case \"$SLURM_ARRAY_TASK_ID\" in\n")
	for k, p := range todo {
		args := s.pointArgs(p)
		for i, a := range args {
			if i > 0 && args[i-1] == "-outdir" {
				a = abs(a)
			}
			args[i] = shellQuote(a)
		}
		fmt.Fprintf(&b, "%d) exec %s %s ;;\n", k, shellQuote(s.binary), strings.Join(args, " "))
	}
	b.WriteString("*) echo \"akisim sweep: no point for task $SLURM_ARRAY_TASK_ID\" >&2; exit 2 ;;\nesac\n")
	path := filepath.Join(s.outdir, "sweep.sbatch")
	script := func(w io.Writer) error { _, err := io.WriteString(w, b.String()); return err }
	if err := output.Write("sweep -slurm", path, 0o755, script); err != nil {
		return "", err
	}
	return path, nil
}

// shellQuote quotes a word for sh.
func shellQuote(w string) string {
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}
