package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Setup is what a run was given, which its outputs record so that a
// what-if says so: the config, each override as typed, the software stack
// and akisim's version.
type Setup struct {
	Command   []string `json:"command"`   // akisim's arguments as given, as gem5 records its command line
	Config    string   `json:"config"`    // the config's name
	Files     []string `json:"files"`     // the config file, then its bases
	Overrides []string `json:"overrides"` // as typed: -set KEY=VALUE, -env NAME=VALUE, -nodes N, a trace's setenv
	Stack     Stack    `json:"stack"`
	Version   string   `json:"akisim"` // akisim's version line
}

// Stack is the software releases a run models.
type Stack struct {
	ROCm      string `json:"rocm"`
	CrayMPICH string `json:"cray_mpich"`
	RCCL      string `json:"rccl"`
}

// Lines are the setup as four lines, prefix before each ("# " where the
// output's comments start so): the config, the overrides, the stack, the
// version. A run with no override says so, so a baseline reads as one.
func (s Setup) Lines(prefix string) string {
	var b strings.Builder
	for _, f := range s.Fields() {
		if f[0] == "version" { // the line names itself: "akisim ..."
			fmt.Fprintf(&b, "%s%s\n", prefix, f[1])
			continue
		}
		fmt.Fprintf(&b, "%s%s %s\n", prefix, f[0], f[1])
	}
	return b.String()
}

// Fields are the setup's lines as names and values: config, overrides
// (quoted for a shell, or none), stack, version.
func (s Setup) Fields() [][2]string {
	over := "none"
	if len(s.Overrides) > 0 {
		quoted := make([]string, len(s.Overrides))
		for i, o := range s.Overrides {
			quoted[i] = shellWords(o)
		}
		over = strings.Join(quoted, " ")
	}
	return [][2]string{
		{"config", fmt.Sprintf("%s (%s)", s.Config, strings.Join(s.Files, " on "))},
		{"overrides", over},
		{"stack", fmt.Sprintf("ROCm %s, Cray MPICH %s, RCCL %s", s.Stack.ROCm, s.Stack.CrayMPICH, s.Stack.RCCL)},
		{"version", s.Version},
	}
}

// WriteSetup writes the setup as JSON (an outdir's setup.json: the
// metadata of its results.csv and results.json).
func WriteSetup(w io.Writer, s Setup) error {
	if s.Overrides == nil {
		s.Overrides = []string{} // [] rather than null: a list either way
	}
	if s.Command == nil {
		s.Command = []string{}
	}
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

// shellWords quotes an override's value as a shell would need it typed
// again: "-set 'xgmi.bundle[*].lanes=1'". The flag stays bare.
func shellWords(o string) string {
	flag, arg, ok := strings.Cut(o, " ")
	if !ok || !needsQuotes(arg) {
		return o
	}
	return flag + " '" + strings.ReplaceAll(arg, "'", `'\''`) + "'"
}

// needsQuotes says whether a shell would read s as other than one plain word.
func needsQuotes(s string) bool {
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		case strings.ContainsRune("_-.,:=/+@%", r):
		default:
			return true
		}
	}
	return s == ""
}
