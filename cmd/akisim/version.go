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
	version, module := "(devel)", "github.com/akisim/akisim"
	vcs := map[string]string{}
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			version = bi.Main.Version
		}
		if bi.Main.Path != "" {
			module = bi.Main.Path
		}
		for _, s := range bi.Settings {
			if k, ok := strings.CutPrefix(s.Key, "vcs."); ok {
				vcs[k] = s.Value
			}
		}
	}
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

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
