package fabric

import (
	"fmt"
	"strings"
)

// A builder holds no value of its own: node gives it each one from the
// config, where every number has its one home. Build refuses (panics, a
// bug in the caller) when a value it needs was not given.

// Need is one value a builder needs: what gives it (the setter and its
// config key), and whether it was given.
type Need struct {
	What  string
	Given bool
}

// Require panics naming every need of builder that was not given.
func Require(builder string, needs ...Need) {
	var missing []string
	for _, n := range needs {
		if !n.Given {
			missing = append(missing, n.What)
		}
	}
	if len(missing) > 0 {
		panic(fmt.Sprintf("%s built without %s: a builder has no defaults, node gives each value from the config",
			builder, strings.Join(missing, ", ")))
	}
}
