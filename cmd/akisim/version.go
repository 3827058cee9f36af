package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// versionText is what -version prints and version.txt holds: the module
// version and the VCS revision the binary was built from, as the Go
// toolchain stamped them (go build and go install do; go run, go test and
// -buildvcs=false do not, and then the revision reads "(devel)").
func versionText() string {
	version, module, vcs := buildInfo()
	var b strings.Builder
	fmt.Fprintf(&b, "akisim %s\n", version)
	fmt.Fprintf(&b, "module %s\n", module)
	if rev := vcs["revision"]; rev != "" {
		fmt.Fprintf(&b, "revision %s\n", rev)
		fmt.Fprintf(&b, "modified %s\n", or(vcs["modified"], "unknown"))
		fmt.Fprintf(&b, "time %s\n", or(vcs["time"], "unknown"))
	} else {
		b.WriteString("revision (devel)\n")
	}
	fmt.Fprintf(&b, "go %s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return b.String()
}

// versionLine is akisim's version in one line, as outputs record it:
// "akisim v1.2.0 revision 0123abcd4567 (modified)", or "akisim (devel)"
// when the toolchain stamped no revision. It comes from the build alone,
// so a binary prints the same line on every run.
func versionLine() string {
	version, _, vcs := buildInfo()
	if vcs["revision"] == "" {
		return "akisim " + version
	}
	line := fmt.Sprintf("akisim %s revision %.12s", version, vcs["revision"])
	if vcs["modified"] == "true" {
		line += " (modified)"
	}
	return line
}

// buildInfo is what the toolchain stamped into the binary: the module's
// version and path, and the vcs.* settings without their prefix.
func buildInfo() (version, module string, vcs map[string]string) {
	version, module, vcs = "(devel)", "github.com/akisim/akisim", map[string]string{}
	if bi, ok := debug.ReadBuildInfo(); ok {
		version, module = or(bi.Main.Version, version), or(bi.Main.Path, module)
		for _, s := range bi.Settings {
			if k, ok := strings.CutPrefix(s.Key, "vcs."); ok {
				vcs[k] = s.Value
			}
		}
	}
	return version, module, vcs
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
